// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest enrolled --enrolled DIR [--boot ID]
 *
 * Whether DIR's enrollment (of boot ID) is trusted: the one rule
 * (att_enrollment_check) that verify and poll apply, for the scripts.
 * Exit 0 trusted, 1 refused (or a file not what the record names), 2 I/O
 * or usage error, 3 no record (of boot ID) in DIR.
 */
#include <getopt.h>
#include <stdio.h>

#include "ima_attest.h"
#include "ima_hash.h"

#include "att_cmd.h"

static const char *const proof_text[] = {
	[ATT_NOT_PROVEN] = "not proven",
	[ATT_PROVEN] = "proven",
	[ATT_REFUSED] = "refused",
};

int cmd_enrolled(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "enrolled", required_argument, NULL, 'e' },
		{ "boot", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *boot = NULL;
	struct att_enrollment rec;
	struct att_reasons rs = { 0 };
	char h[2 * ATT_MAX_NAME + 1];
	int opt, st, i;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'e': dir = optarg; break;
		case 'b': boot = optarg; break;
		default: att_usage();
		}
	}
	if (!dir || optind != argc)
		att_usage();
	if (boot && !att_boot_id_ok(boot)) {
		fprintf(stderr, "ima-attest: --boot: 1-64 letters, digits, '-' or '_'\n");
		return 2;
	}
	st = att_enrollment_check(dir, boot, &rec, NULL, &rs);
	if (st != ATT_ENROLL_ABSENT && st != ATT_ENROLL_ERROR) {
		printf("boot: %s\n", rec.boot);
		ima_bin2hex(rec.ekcert_sha256, 32, h);
		printf("tpm-identity: %s%s%s%s\n", proof_text[rec.tpm_identity],
		       rec.have_ekcert ? " (EK certificate sha256 " : "",
		       rec.have_ekcert ? h : "", rec.have_ekcert ? ")" : "");
		ima_bin2hex(rec.ak_name, rec.ak_name_len, h);
		printf("ak-binding: %s%s%s%s\n", proof_text[rec.ak_binding],
		       rec.ak_name_len ? " (AK name " : "",
		       rec.ak_name_len ? h : "", rec.ak_name_len ? ")" : "");
		for (i = 0; i < rec.rs.n; i++)
			printf("recorded reason: %s\n", rec.rs.r[i]);
	}
	for (i = 0; i < rs.n; i++)
		printf("reason: %s\n", rs.r[i]);
	ima_bin2hex(rec.ak_name, rec.ak_name_len, h);
	att_reasons_free(&rs);
	att_enrollment_free(&rec);
	switch (st) {
	case ATT_ENROLLED:
		printf("enrollment: trusted (boot %s, AK name %s)\n", rec.boot, h);
		return 0;
	case ATT_ENROLL_REFUSED:
		printf("enrollment: refused\n");
		return 1;
	case ATT_ENROLL_ABSENT:
		printf("enrollment: none%s%s in %s\n", boot ? " of boot " : "",
		       boot ? boot : "", dir);
		return 3;
	}
	printf("enrollment: not read\n");
	return 2;
}
