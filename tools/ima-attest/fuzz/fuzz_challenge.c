// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer: the pending credential challenge (att_challenge_parse); what
 * parses is formatted again and must parse to the same challenge, and a
 * secret of the wrong length never answers it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ima_attest.h"
#include "same_fields.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct att_challenge c, again;
	static char text[ATT_CHALLENGE_MAX];
	char err[ATT_REASON_LEN];
	char *copy = malloc(size ? size : 1);
	size_t n;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (att_challenge_parse(&c, copy, size, err, sizeof(err)))
		goto out;
	n = att_challenge_format(&c, text, sizeof(text));
	if (!n || att_challenge_parse(&again, text, n, err, sizeof(err)))
		abort();
	if (!SAME_IDENTITY(c, again) ||
	    memcmp(c.secret_sha256, again.secret_sha256, 32) ||
	    c.ak.area_len != again.ak.area_len ||
	    memcmp(c.ak.area, again.ak.area, c.ak.area_len))
		abort();
	if (att_challenge_answer(&c, (const uint8_t *)copy, size < 31 ? size : 31))
		abort();
out:
	free(copy);
	return 0;
}
