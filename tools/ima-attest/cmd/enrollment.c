// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the commands that enroll (enroll, challenge, activate) share: the
 * directory made ready after the inputs are checked, and the verdict
 * printed; and an enrollment record as JSON, which enrolled and verify
 * print too.
 */
#include <string.h>
#include <unistd.h>

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

int att_cli_boot(struct att_cli *cli, const char *boot)
{
	if (boot && !att_boot_id_ok(boot))
		return att_cli_fail(cli, ATT_EXIT_ERROR,
				    "--boot: 1-64 letters, digits, '-' or '_'");
	return -1;
}

/* what an earlier enrollment left: never to be read as this one's */
static const char *const stale[] = {
	ATT_RECORD, "ak.pem", "ak.name", "ak.pub", "ek-cert.der",
	ATT_CHALLENGE, "credential",
};

int att_enroll_dir(struct att_cli *cli, const char *ca, const char *chain,
		   const char *out, int *dirfd)
{
	char err[ATT_REASON_LEN];
	size_t i;

	if (att_ca_check(ca, chain, err, sizeof(err)))
		return att_cli_fail(cli, ATT_EXIT_ERROR, "%s", err);
	*dirfd = att_dir_open(out, true, err, sizeof(err));
	if (*dirfd < 0)
		return att_cli_fail(cli, ATT_EXIT_ERROR, "%s", err);
	for (i = 0; i < sizeof(stale) / sizeof(stale[0]); i++)
		if (att_file_remove(*dirfd, out, stale[i], err, sizeof(err))) {
			close(*dirfd);
			*dirfd = -1;
			return att_cli_fail(cli, ATT_EXIT_ERROR, "%s", err);
		}
	return -1;
}

void att_enrollment_verdict(struct att_cli *cli,
			    const struct att_enrollment *rec,
			    const char *recorded, const struct att_reasons *rs,
			    int rc)
{
	if (cli->json) {
		att_json_begin(cli);
		att_json_key(cli->out, "enrollment");
		att_json_enrollment(cli->out, rec);
		att_json_key(cli->out, "record");
		att_json_path(cli->out, recorded, ATT_RECORD);
		att_json_end(cli, rs, rc);
		return;
	}
	att_print_reasons(stdout, rs);
	/* the verdict, once, last */
	printf("enrollment: %s\n", rc ? "FAIL" :
	       "PASS (EK certified, AK bound by credential activation)");
}
