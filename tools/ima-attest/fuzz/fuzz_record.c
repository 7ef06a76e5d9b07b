// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer: the enrollment record (att_enrollment_parse); what parses
 * is formatted again and must parse to the same record.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ima_attest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct att_enrollment rec, again;
	static char text[ATT_RECORD_MAX];
	char err[ATT_REASON_LEN];
	size_t n;

	if (att_enrollment_parse(&rec, (const char *)data, size, err,
				 sizeof(err)))
		return 0;
	n = att_enrollment_format(&rec, text, sizeof(text));
	if (!n || att_enrollment_parse(&again, text, n, err, sizeof(err)) ||
	    memcmp(&rec, &again, sizeof(rec)))
		abort();
	return 0;
}
