// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest activate: enrolling a machine that is not our guest, step 2.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "att_cmd.h"

static const struct att_cmd cmd = {
	.name = "activate",
	.summary = "Enroll any TPM 2.0 machine, step 2: trust its AK when the secret its TPM\n"
		   "released is the one of DIR's challenge",
	.text =
"On the machine, its TPM activates the credential that `ima-attest\n"
"challenge` made (README, \"Enrolling a machine that is not our guest\"):\n"
"  tpm2_startauthsession --policy-session -S session.ctx\n"
"  tpm2_policysecret -S session.ctx -c e\n"
"  tpm2_activatecredential -c ak.ctx -C ek.ctx -i credential -o secret \\\n"
"                          -P session:session.ctx\n"
"The TPM releases the secret only when it holds the EK the credential was\n"
"made for and an object of the AK's name is loaded beside it. --secret is\n"
"that file (32 bytes). The challenge answers once: DIR/challenge is\n"
"removed before the secret is compared, whatever the answer. Then DIR\n"
"gets the record (DIR/verdict) and, when trusted, ak.pem, ak.pub and\n"
"ak.name, as `ima-attest enroll` writes them; `ima-attest enrolled`,\n"
"verify and poll read them by the same rule.\n"
"\n"
"Exit status: 0 trusted, 1 refused (the secret is not the challenge's),\n"
"2 usage or I/O error, or no challenge pending in DIR.\n",
};

int cmd_activate(int argc, char **argv)
{
	const char *out, *secretf;
	const struct att_opt opts[] = {
		{ "out", "DIR", &out, true,
		  "the enrollment directory of `ima-attest challenge`" },
		{ "secret", "FILE", &secretf, true,
		  "what tpm2_activatecredential -o wrote on the machine" },
		ATT_OPT_END,
	};
	struct att_enrollment rec = { 0 };
	struct att_challenge ch;
	struct att_enroll e = { 0 };
	struct att_cli cli;
	char err[ATT_REASON_LEN];
	uint8_t *text = NULL, *secret = NULL;
	size_t len, slen = 0;
	int rc, dirfd;
	bool ok, recorded = false;

	rc = att_cli_parse(&cli, &cmd, opts, 0, 0, argc, argv);
	if (rc >= 0)
		return rc;
	/* the answer read first: a file that cannot be read uses no challenge */
	secret = att_slurp(secretf, 4096, &slen);
	if (!secret)
		return att_cli_fail(&cli, ATT_EXIT_ERROR, "--secret %s: %s", secretf,
				    strerror(errno));
	dirfd = att_dir_open(out, false, err, sizeof(err));
	if (dirfd < 0) {
		rc = att_cli_fail(&cli, ATT_EXIT_ERROR, "%s", err);
		goto out;
	}
	text = att_file_read(dirfd, out, ATT_CHALLENGE, ATT_CHALLENGE_MAX, &len,
			     err, sizeof(err));
	if (!text) {
		rc = errno == ENOENT ?
		     att_cli_fail(&cli, ATT_EXIT_ERROR,
				  "no challenge pending in %s: run ima-attest challenge first (a challenge answers once)",
				  out) :
		     att_cli_fail(&cli, ATT_EXIT_ERROR, "%s", err);
		goto out;
	}
	if (att_challenge_parse(&ch, (const char *)text, len, err, sizeof(err))) {
		rc = att_cli_fail(&cli, ATT_EXIT_ERROR, "%s/%s: %s", out,
				  ATT_CHALLENGE, err);
		goto out;
	}
	/* one answer per challenge, this one whatever it says */
	if (att_file_remove(dirfd, out, ATT_CHALLENGE, err, sizeof(err)) ||
	    att_file_remove(dirfd, out, "credential", err, sizeof(err))) {
		rc = att_cli_fail(&cli, ATT_EXIT_ERROR, "%s", err);
		goto out;
	}
	ok = att_challenge_answer(&ch, secret, slen);
	att_challenge_decide(&ch, ok, &e, &rec);
	rc = ATT_EXIT_ERROR;
	if (ok && att_ak_save(dirfd, out, &e, err, sizeof(err)))
		att_cli_error(&cli, ATT_EXIT_ERROR, "%s", err);
	else if (att_enrollment_write(dirfd, out, &rec, err, sizeof(err)))
		att_cli_error(&cli, ATT_EXIT_ERROR, "%s", err);
	else
		recorded = true;
	if (recorded)
		rc = ok ? ATT_EXIT_OK : ATT_EXIT_FAIL;
	att_enrollment_verdict(&cli, &rec, recorded ? out : NULL, &e.rs, rc);
out:
	if (dirfd >= 0)
		close(dirfd);
	if (secret)
		OPENSSL_cleanse(secret, slen);
	free(secret);
	free(text);
	att_enrollment_free(&rec);
	att_reasons_free(&e.rs);
	return rc;
}
