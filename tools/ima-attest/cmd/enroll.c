// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest enroll: our guest's TPM, over the guest agent's channel.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "att_cmd.h"

/* how long to wait for the guest unless --timeout says */
#define WAIT_SECONDS	600

static const struct att_cmd cmd = {
	.name = "enroll",
	.summary = "Enroll our guest's TPM over its agent's channel: its EK certificate, its\n"
		   "AK, and credential activation decide whether the AK is trusted",
	.text =
"Connects to the guest agent's channel (a unix socket: QEMU's end of the\n"
"guest's virtio-serial port), waiting for it until --timeout, and asks for\n"
"the TPM's identity. Trusts the AK only when (1) the EK certificate chains\n"
"to the manufacturer CA and certifies an EK, (2) the EK public area is the\n"
"certified key, (3) the AK public area is a restricted TPM signing key with\n"
"the name claimed, and (4) the TPM holding that EK released the fresh secret\n"
"of a credential made here for that EK and AK name.\n"
"\n"
"The CA files and DIR are checked before the channel is waited on. DIR\n"
"(made 0700; refused if others can write it) gets the enrollment record\n"
"DIR/verdict, naming what was proven field by field, DIR/ek-cert.der, and\n"
"when trusted DIR/ak.pem, ak.pub, ak.name. An earlier record and AK are\n"
"removed first; each file is written whole (beside it, fsync, renamed), the\n"
"record last. A machine that is not our guest: ima-attest challenge.\n"
"\n"
"Exit status: 0 trusted, 1 refused (every reason printed), 2 usage, I/O or\n"
"channel error (the record says why).\n",
};

int cmd_enroll(int argc, char **argv)
{
	const char *channel, *ca, *chain, *out, *timeout_s, *boot;
	const struct att_opt opts[] = {
		ATT_OPT_CHANNEL(&channel),
		ATT_OPT_CA(&ca),
		ATT_OPT_CA_CHAIN(&chain),
		ATT_OPT_ENROLL_OUT(&out),
		ATT_OPT_TIMEOUT(&timeout_s, WAIT_SECONDS),
		ATT_OPT_BOOT(&boot),
		ATT_OPT_END,
	};
	struct att_enrollment rec = { 0 };
	struct att_enroll e = { 0 };
	struct att_msg m = { 0 };
	struct att_chan c = { .fd = -1 };
	struct att_cli cli;
	char err[ATT_REASON_LEN], werr[ATT_REASON_LEN];
	uint8_t cred[1024], *ekcert = NULL;
	size_t ekcert_len = 0;
	int timeout = WAIT_SECONDS, rc, dirfd, ecls = ATT_FC_CHANNEL;
	bool recorded = false;
	long n;

	rc = att_cli_parse(&cli, &cmd, opts, 0, 0, argc, argv);
	if (rc >= 0)
		return rc;
	if (timeout_s && (rc = att_cli_seconds(&cli, "timeout", timeout_s,
					       &timeout)) >= 0)
		return rc;
	if ((rc = att_cli_boot(&cli, boot)) >= 0)
		return rc;
	e.ca_file = ca;
	e.chain_file = chain;
	/* every file input before the wait for the guest; an earlier record
	 * or AK must not be read as this one's, not even in part */
	if ((rc = att_enroll_dir(&cli, ca, chain, out, &dirfd)) >= 0)
		return rc;
	rc = ATT_EXIT_ERROR;
	if (att_chan_open(&c, channel, timeout)) {
		snprintf(err, sizeof(err), "cannot connect to %s: %s", channel,
			 strerror(errno));
		goto io;
	}
	/* 1. the TPM's identity and the AK */
	if (att_chan_send(&c, "ENROLL", NULL, NULL, NULL, 0)) {
		snprintf(err, sizeof(err), "cannot write to the channel");
		goto io;
	}
	if (att_chan_recv(&c, &m, err, sizeof(err)))
		goto io;
	n = att_enroll_request(&e, &m, cred, sizeof(cred), err, sizeof(err));
	ecls = IMA_FC_GENERIC;
	if (n < 0)
		goto io;
	{
		const uint8_t *cert = att_msg_get(&m, "ekcert", &ekcert_len);

		if (cert) {
			ekcert = malloc(ekcert_len ? ekcert_len : 1);
			if (!ekcert) {
				snprintf(err, sizeof(err), "out of memory");
				goto io;
			}
			memcpy(ekcert, cert, ekcert_len);
		}
	}
	att_msg_free(&m);
	/* 2. the credential; the answer must be the secret */
	if (n > 0) {
		const char *k[] = { "cred" };
		const uint8_t *val[] = { cred };
		size_t len[] = { (size_t)n };

		ecls = ATT_FC_CHANNEL;
		if (att_chan_send(&c, "CHALLENGE", k, val, len, 1)) {
			snprintf(err, sizeof(err), "cannot write to the channel");
			goto io;
		}
		if (att_chan_recv(&c, &m, err, sizeof(err)))
			goto io;
		att_enroll_answer(&e, &m);
		att_msg_free(&m);
	}
	if ((ekcert && att_file_write(dirfd, out, "ek-cert.der", ekcert,
				      ekcert_len, werr, sizeof(werr))) ||
	    (e.activated && att_ak_save(dirfd, out, &e, werr, sizeof(werr)))) {
		snprintf(err, sizeof(err), "%s", werr);
		ecls = ATT_FC_IO;
		goto io;
	}
	rc = e.activated ? ATT_EXIT_OK : ATT_EXIT_FAIL;
	{
		const char *k[] = { "ok" };
		const uint8_t val[] = { rc == ATT_EXIT_OK };
		const uint8_t *vp[] = { val };
		size_t len[] = { 1 };

		att_chan_send(&c, "RESULT", k, vp, len, 1);
	}
	goto record;
io:
	att_reason(&e.rs, ecls, "%s", err);
	att_cli_error(&cli, ATT_EXIT_ERROR, "%s", err);
	e.activated = false;
	if (e.ak_binding == ATT_PROVEN)
		e.ak_binding = ATT_REFUSED;
	rc = ATT_EXIT_ERROR;
record:
	att_msg_free(&m);
	if (att_enrollment_of(&rec, &e, boot, ekcert, ekcert_len, werr,
			      sizeof(werr)) ||
	    att_enrollment_write(dirfd, out, &rec, werr, sizeof(werr)))
		rc = att_cli_error(&cli, ATT_EXIT_ERROR, "%s", werr);
	else
		recorded = true;
	att_enrollment_verdict(&cli, &rec, recorded ? out : NULL, &e.rs, rc);
	close(dirfd);
	att_chan_close(&c);
	att_enrollment_free(&rec);
	att_reasons_free(&e.rs);
	free(ekcert);
	return rc;
}
