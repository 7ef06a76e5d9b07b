// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest challenge: enrolling a machine that is not our guest, step 1,
 * from files its owner made with tpm2-tools.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "att_cmd.h"

static const struct att_cmd cmd = {
	.name = "challenge",
	.summary = "Enroll any TPM 2.0 machine, step 1: check its EK certificate, EK and AK\n"
		   "public areas, and make the credential only its TPM can activate",
	.text =
"The machine's owner makes the inputs with tpm2-tools (README, \"Enrolling\n"
"a machine that is not our guest\"):\n"
"  tpm2_createek -c ek.ctx -G rsa -u ek.pub\n"
"  tpm2_nvread 0x01c00002 -o ek-cert.der    (or the manufacturer's download)\n"
"  tpm2_createak -C ek.ctx -c ak.ctx -G rsa -g sha256 -s rsassa \\\n"
"                -u ak.pub -n ak.name\n"
"or an ECC EK's (NIST P-256 at 0x01c0000a, P-384 at 0x01c00016): README.\n"
"The checks are enroll's: the EK certificate chains to the CA and certifies\n"
"an EK, the EK public area is the certified key with the template\n"
"MakeCredential needs, the AK is a restricted TPM signing key whose name is\n"
"its area's. Then a credential is made for that EK over a fresh secret and\n"
"that AK name: DIR/credential, in tpm2_activatecredential's format. What\n"
"was proven and the secret's sha256 (never the secret) stay in\n"
"DIR/challenge until `ima-attest activate` compares the secret the\n"
"machine's TPM releases. An earlier record, AK and challenge in DIR are\n"
"removed first. Nothing is trusted yet: `ima-attest enrolled` says none.\n"
"\n"
"Exit status: 0 the credential is made, 1 refused (DIR/verdict says why,\n"
"every reason printed), 2 usage or I/O error.\n",
};

/* file into m's field key, or a usage error naming it */
static int field(struct att_cli *cli, struct att_msg *m, const char *key,
		 const char *opt, const char *path, bool tpm2b)
{
	uint8_t *p, *der = NULL;
	size_t len, der_len;
	char err[256];
	int rc = -1;

	p = att_slurp(path, 1u << 16, &len);
	if (!p)
		return att_cli_fail(cli, ATT_EXIT_ERROR, "--%s %s: %s", opt, path,
				    strerror(errno));
	if (tpm2b && len > 10 && !memcmp(p, "-----BEGIN", 10)) {
		rc = att_cli_fail(cli, ATT_EXIT_ERROR,
				  "--%s %s: a PEM file, not the TPM2B_PUBLIC that tpm2_create%s -u writes",
				  opt, path, strcmp(key, "ekpub") ? "ak" : "ek");
		goto out;
	}
	if (!strcmp(key, "ekcert") && att_cert_der(p, len, &der, &der_len, err,
						   sizeof(err))) {
		rc = att_cli_fail(cli, ATT_EXIT_ERROR, "--%s %s: %s", opt, path, err);
		goto out;
	}
	if (att_msg_set(m, key, der ? der : p, der ? der_len : len)) {
		rc = att_cli_fail(cli, ATT_EXIT_ERROR, "out of memory");
		goto out;
	}
out:
	free(der);
	free(p);
	return rc;
}

int cmd_challenge(int argc, char **argv)
{
	const char *ca, *chain, *ekcertf, *ekpubf, *akpubf, *aknamef, *out, *boot;
	const struct att_opt opts[] = {
		ATT_OPT_CA(&ca),
		ATT_OPT_CA_CHAIN(&chain),
		{ "ek-cert", "FILE", &ekcertf, true,
		  "the EK certificate, DER (tpm2_nvread 0x01c00002) or PEM" },
		{ "ek-pub", "FILE", &ekpubf, true,
		  "the EK public area (tpm2_createek -u: TPM2B_PUBLIC)" },
		{ "ak-pub", "FILE", &akpubf, true,
		  "the AK public area (tpm2_createak -u: TPM2B_PUBLIC)" },
		{ "ak-name", "FILE", &aknamef, false,
		  "the AK's name as its TPM says (tpm2_createak -n);\n"
		  "checked against the area's (default: that name)" },
		ATT_OPT_ENROLL_OUT(&out),
		ATT_OPT_BOOT(&boot),
		ATT_OPT_END,
	};
	struct att_enrollment rec = { 0 };
	struct att_challenge ch;
	struct att_enroll e = { 0 };
	struct att_msg m = { 0 };
	struct att_cli cli;
	char err[ATT_REASON_LEN], text[ATT_CHALLENGE_MAX];
	uint8_t cred[1024];
	const uint8_t *ekcert;
	size_t ekcert_len = 0, tlen;
	int rc, dirfd = -1;
	bool recorded = false, made = false;
	long n;

	rc = att_cli_parse(&cli, &cmd, opts, 0, 0, argc, argv);
	if (rc >= 0)
		return rc;
	if ((rc = att_cli_boot(&cli, boot)) >= 0)
		return rc;
	e.ca_file = ca;
	e.chain_file = chain;
	if (att_ca_check(ca, chain, err, sizeof(err)))
		return att_cli_fail(&cli, ATT_EXIT_ERROR, "%s", err);
	snprintf(m.verb, sizeof(m.verb), "ENROLL");
	if ((rc = field(&cli, &m, "ekcert", "ek-cert", ekcertf, false)) >= 0 ||
	    (rc = field(&cli, &m, "ekpub", "ek-pub", ekpubf, true)) >= 0 ||
	    (rc = field(&cli, &m, "akpub", "ak-pub", akpubf, true)) >= 0 ||
	    (aknamef && (rc = field(&cli, &m, "akname", "ak-name", aknamef,
				    false)) >= 0))
		goto out;
	if (!aknamef) {
		/* the name of the area given: nothing to compare it with */
		struct att_public ak;
		uint8_t name[ATT_MAX_NAME];
		const uint8_t *pub;
		size_t plen;
		int nl;

		pub = att_msg_get(&m, "akpub", &plen);
		if (att_public_parse(&ak, pub, plen, true, err, sizeof(err))) {
			rc = att_cli_fail(&cli, ATT_EXIT_ERROR, "--ak-pub %s: %s",
					  akpubf, err);
			goto out;
		}
		nl = att_public_name(&ak, name, sizeof(name));
		if (nl < 0 || att_msg_set(&m, "akname", name, (size_t)nl)) {
			rc = att_cli_fail(&cli, ATT_EXIT_ERROR,
					  "--ak-pub %s: its name cannot be computed (nameAlg 0x%04x)",
					  akpubf, ak.name_alg);
			goto out;
		}
	}
	if ((rc = att_enroll_dir(&cli, ca, chain, out, &dirfd)) >= 0)
		goto out;
	/* the checks and the credential: enroll's, on the files */
	n = att_enroll_request(&e, &m, cred, sizeof(cred), err, sizeof(err));
	if (n < 0) {
		rc = att_cli_fail(&cli, ATT_EXIT_ERROR, "%s", err);
		goto out;
	}
	ekcert = att_msg_get(&m, "ekcert", &ekcert_len);
	rc = ATT_EXIT_ERROR;
	if (att_file_write(dirfd, out, "ek-cert.der", ekcert, ekcert_len, err,
			   sizeof(err)) ||
	    att_enrollment_of(&rec, &e, boot, ekcert, ekcert_len, err,
			      sizeof(err))) {
		att_cli_error(&cli, ATT_EXIT_ERROR, "%s", err);
		goto print;
	}
	if (n == 0) {
		/* refused: the record says what and why */
		if (att_enrollment_write(dirfd, out, &rec, err, sizeof(err)))
			att_cli_error(&cli, ATT_EXIT_ERROR, "%s", err);
		else
			recorded = true;
		rc = recorded ? ATT_EXIT_FAIL : ATT_EXIT_ERROR;
		goto print;
	}
	rec.ak_binding = ATT_NOT_PROVEN;	/* until activate */
	if (att_challenge_of(&ch, &e, &rec) ||
	    !(tlen = att_challenge_format(&ch, text, sizeof(text)))) {
		att_cli_error(&cli, ATT_EXIT_ERROR, "cannot keep the challenge");
		goto print;
	}
	if (att_file_write(dirfd, out, "credential", cred, (size_t)n, err,
			   sizeof(err)) ||
	    att_file_write(dirfd, out, ATT_CHALLENGE, text, tlen, err,
			   sizeof(err))) {
		att_cli_error(&cli, ATT_EXIT_ERROR, "%s", err);
		goto print;
	}
	made = true;
	rc = ATT_EXIT_OK;
print:
	if (cli.json) {
		att_json_begin(&cli);
		att_json_key(cli.out, "enrollment");
		if (rec.tpm_identity != ATT_NOT_PROVEN || rec.rs.n)
			att_json_enrollment(cli.out, &rec);
		else
			fputs("null", cli.out);
		att_json_key(cli.out, "credential");
		att_json_path(cli.out, made ? out : NULL, "credential");
		att_json_key(cli.out, "challenge");
		att_json_path(cli.out, made ? out : NULL, ATT_CHALLENGE);
		att_json_key(cli.out, "record");
		att_json_path(cli.out, recorded ? out : NULL, ATT_RECORD);
		att_json_end(&cli, &e.rs, rc);
	} else {
		att_print_reasons(stdout, &e.rs);
		if (made) {
			fputs("credential: ", stdout);
			att_text(stdout, out);
			fputs("/credential (on the machine: tpm2_activatecredential -i; its secret to ima-attest activate)\n",
			      stdout);
			printf("challenge: made (TPM identity proven; the AK is trusted only once ima-attest activate has the secret)\n");
		} else {
			printf("enrollment: FAIL\n");
		}
	}
out:
	if (dirfd >= 0)
		close(dirfd);
	att_msg_free(&m);
	att_enrollment_free(&rec);
	att_reasons_free(&e.rs);
	OPENSSL_cleanse(e.secret, sizeof(e.secret));
	return rc;
}
