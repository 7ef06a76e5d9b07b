// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer: the enrollment record (att_enrollment_parse); what parses
 * is formatted again and must parse to the same record, field by field.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ima_attest.h"
#include "same_fields.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct att_enrollment rec, again;
	static char text[ATT_RECORD_MAX];
	char err[ATT_REASON_LEN];
	size_t n;
	int i;

	if (att_enrollment_parse(&rec, (const char *)data, size, err,
				 sizeof(err)))
		return 0;
	n = att_enrollment_format(&rec, text, sizeof(text));
	if (!n || att_enrollment_parse(&again, text, n, err, sizeof(err)))
		abort();
	/* the same record: every field, every reason */
	if (!SAME_IDENTITY(rec, again) || rec.have_ca != again.have_ca ||
	    rec.have_ekcert != again.have_ekcert ||
	    rec.tpm_identity != again.tpm_identity ||
	    rec.ak_binding != again.ak_binding ||
	    rec.trusted != again.trusted || rec.rs.n != again.rs.n)
		abort();
	for (i = 0; i < rec.rs.n; i++)
		if (strcmp(rec.rs.r[i], again.rs.r[i]))
			abort();
	att_enrollment_free(&rec);
	att_enrollment_free(&again);
	return 0;
}
