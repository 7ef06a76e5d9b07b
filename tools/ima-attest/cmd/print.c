// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output pieces more than one command prints: an enrollment record, as
 * text and as JSON.
 */
#include <string.h>

#include "att_cmd.h"
#include "ima_hash.h"

static const char *const proof_json[] = {
	[ATT_NOT_PROVEN] = "not-proven",
	[ATT_PROVEN] = "proven",
	[ATT_REFUSED] = "refused",
};

void att_json_enrollment(FILE *out, const struct att_enrollment *rec)
{
	fputs("{\"boot\":", out);
	att_json_str(out, strcmp(rec->boot, "-") ? rec->boot : NULL);
	att_json_key(out, "tpm_identity");
	att_json_str(out, proof_json[rec->tpm_identity]);
	att_json_key(out, "ak_binding");
	att_json_str(out, proof_json[rec->ak_binding]);
	fprintf(out, ",\"trusted\":%s", rec->trusted ? "true" : "false");
	att_json_key(out, "manufacturer_ca_sha256");
	att_json_hex(out, rec->ca_sha256, rec->have_ca ? 32 : 0);
	att_json_key(out, "ek_certificate_sha256");
	att_json_hex(out, rec->ekcert_sha256, rec->have_ekcert ? 32 : 0);
	att_json_key(out, "ek_name");
	att_json_hex(out, rec->ek_name, rec->ek_name_len);
	att_json_key(out, "ak_name");
	att_json_hex(out, rec->ak_name, rec->ak_name_len);
	att_json_key(out, "recorded_reasons");
	att_json_strs(out, (const char *const *)rec->rs.r, rec->rs.n);
	fputc('}', out);
}
