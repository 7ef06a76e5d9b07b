// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer: the enrollment record (att_enrollment_parse); what parses
 * is formatted again and must parse to the same record, field by field.
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
	int i;

	if (att_enrollment_parse(&rec, (const char *)data, size, err,
				 sizeof(err)))
		return 0;
	n = att_enrollment_format(&rec, text, sizeof(text));
	if (!n || att_enrollment_parse(&again, text, n, err, sizeof(err)))
		abort();
	/* the same record: every field, every reason */
	if (strcmp(rec.boot, again.boot) || rec.have_ca != again.have_ca ||
	    rec.have_ekcert != again.have_ekcert ||
	    memcmp(rec.ca_sha256, again.ca_sha256, 32) ||
	    memcmp(rec.ekcert_sha256, again.ekcert_sha256, 32) ||
	    rec.ek_name_len != again.ek_name_len ||
	    memcmp(rec.ek_name, again.ek_name, rec.ek_name_len) ||
	    rec.ak_name_len != again.ak_name_len ||
	    memcmp(rec.ak_name, again.ak_name, rec.ak_name_len) ||
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
