// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest enrolled: "is this enrollment trusted", the one rule
 * (att_enrollment_check) that verify and poll apply, for the scripts.
 */
#include <string.h>

#include "att_cmd.h"
#include "ima_hash.h"

static const struct att_cmd cmd = {
	.name = "enrolled",
	.summary = "Whether DIR's enrollment is trusted: the one rule verify and poll apply",
	.text =
"The record DIR/verdict must parse exactly (every line in order, each\n"
"value of its form), be boot ID's (with --boot), and say trusted; then\n"
"the files it names must be what it proved: DIR/ak.pub the AK of the\n"
"name recorded, a restricted TPM signing key; DIR/ak.pem the same key;\n"
"DIR/ek-cert.der the EK certificate of the digest recorded. DIR and each\n"
"file must be the verifier's own (owned by it or root, writable by no one\n"
"else, not a link).\n"
"\n"
"Exit status: 0 trusted, 1 refused (or a file not what the record names),\n"
"2 usage or I/O error, 3 no record (of boot ID) in DIR: none, another\n"
"boot's, not a record, or a challenge still pending.\n",
};

static const char *const proof_text[] = {
	[ATT_NOT_PROVEN] = "not proven",
	[ATT_PROVEN] = "proven",
	[ATT_REFUSED] = "refused",
};

int cmd_enrolled(int argc, char **argv)
{
	const char *dir, *boot;
	const struct att_opt opts[] = {
		ATT_OPT_ENROLLED(&dir),
		{ "boot", "ID", &boot, false,
		  "the record must be of this boot" },
		ATT_OPT_END,
	};
	struct att_enrollment rec = { 0 };
	struct att_reasons rs = { 0 };
	struct att_cli cli;
	char h[2 * ATT_MAX_NAME + 1];
	int rc, st, i;

	rc = att_cli_parse(&cli, &cmd, opts, 0, 0, argc, argv);
	if (rc >= 0)
		return rc;
	if ((rc = att_cli_boot(&cli, boot)) >= 0)
		return rc;
	st = att_enrollment_check(dir, boot, &rec, NULL, &rs);
	rc = st == ATT_ENROLLED ? ATT_EXIT_OK :
	     st == ATT_ENROLL_REFUSED ? ATT_EXIT_FAIL :
	     st == ATT_ENROLL_ABSENT ? ATT_EXIT_NONE : ATT_EXIT_ERROR;
	if (cli.json) {
		att_json_begin(&cli);
		att_json_key(cli.out, "enrollment");
		if (st == ATT_ENROLL_ABSENT || st == ATT_ENROLL_ERROR)
			fputs("null", cli.out);
		else
			att_json_enrollment(cli.out, &rec);
		if (st == ATT_ENROLL_ERROR && rs.n)
			snprintf(cli.error, sizeof(cli.error), "%s", rs.r[0]);
		att_json_end(&cli, &rs, rc);
		goto out;
	}
	if (st != ATT_ENROLL_ABSENT && st != ATT_ENROLL_ERROR) {
		fputs("boot: ", stdout);
		att_text(stdout, rec.boot);
		ima_bin2hex(rec.ekcert_sha256, 32, h);
		printf("\ntpm-identity: %s%s%s%s\n", proof_text[rec.tpm_identity],
		       rec.have_ekcert ? " (EK certificate sha256 " : "",
		       rec.have_ekcert ? h : "", rec.have_ekcert ? ")" : "");
		ima_bin2hex(rec.ak_name, rec.ak_name_len, h);
		printf("ak-binding: %s%s%s%s\n", proof_text[rec.ak_binding],
		       rec.ak_name_len ? " (AK name " : "",
		       rec.ak_name_len ? h : "", rec.ak_name_len ? ")" : "");
		for (i = 0; i < rec.rs.n; i++)
			printf("recorded reason: %s\n", rec.rs.r[i]);
	}
	att_print_reasons(stdout, &rs);
	ima_bin2hex(rec.ak_name, rec.ak_name_len, h);
	switch (st) {
	case ATT_ENROLLED:
		printf("enrollment: trusted (boot %s, AK name %s)\n", rec.boot, h);
		break;
	case ATT_ENROLL_REFUSED:
		printf("enrollment: refused\n");
		break;
	case ATT_ENROLL_ABSENT:
		printf("enrollment: none%s%s in ", boot ? " of boot " : "",
		       boot ? boot : "");
		att_text(stdout, dir);
		fputc('\n', stdout);
		break;
	default:
		printf("enrollment: not read\n");
	}
out:
	att_reasons_free(&rs);
	att_enrollment_free(&rec);
	return rc;
}
