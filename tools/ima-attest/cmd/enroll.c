// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest enroll --channel SOCK --ca CA.pem [--ca-chain CHAIN.pem]
 *                   --out DIR [--timeout SECONDS] [--boot ID]
 *
 * Connects to the guest agent's channel (a unix socket: QEMU's
 * virtio-serial chardev), asks for the TPM's identity, checks EK
 * certificate, EK and AK public areas, makes a credential for the EK over
 * a fresh secret and trusts the AK only when the guest's TPM returns that
 * secret. DIR (made 0700; refused if others can write it) gets the
 * enrollment record DIR/verdict (att_enrollment_format: what was proven,
 * field by field, the boot ID named), DIR/ek-cert.der, and when trusted
 * DIR/ak.pem, ak.pub, ak.name. A record and AK of an earlier run are
 * removed first; every file appears whole (written beside it, fsync,
 * renamed), the record last, once the guest has been told the result
 * (ID: 1-64 letters, digits, '-' or '_'; chosen by whoever started the
 * boot, so a waiter can tell this boot's record from a stale one).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>

#include "ima_attest.h"

#include "att_cmd.h"

int cmd_enroll(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "channel", required_argument, NULL, 'c' },
		{ "ca", required_argument, NULL, 'a' },
		{ "ca-chain", required_argument, NULL, 'i' },
		{ "out", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, 't' },
		{ "boot", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const stale[] = {
		ATT_RECORD, "ak.pem", "ak.name", "ak.pub", "ek-cert.der",
	};
	const char *channel = NULL, *out = NULL, *boot = NULL;
	struct att_enroll e = { 0 };
	struct att_msg m = { 0 };
	struct att_chan c = { .fd = -1 };
	char err[ATT_REASON_LEN], werr[ATT_REASON_LEN];
	uint8_t cred[1024], *ekcert = NULL;
	size_t ekcert_len = 0, i;
	int timeout = 600, opt, rc = 2, dirfd, ecls = ATT_FC_CHANNEL;
	long n;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c': channel = optarg; break;
		case 'a': e.ca_file = optarg; break;
		case 'i': e.chain_file = optarg; break;
		case 'o': out = optarg; break;
		case 't': timeout = atoi(optarg); break;
		case 'b': boot = optarg; break;
		default: att_usage();
		}
	}
	if (!channel || !e.ca_file || !out || optind != argc || timeout <= 0)
		att_usage();
	if (boot && !att_boot_id_ok(boot)) {
		fprintf(stderr, "ima-attest: --boot: 1-64 letters, digits, '-' or '_'\n");
		return 2;
	}
	dirfd = att_dir_open(out, true, err, sizeof(err));
	if (dirfd < 0) {
		fprintf(stderr, "ima-attest: %s\n", err);
		return 2;
	}
	/* an earlier record or AK must not be read as this one's, not even
	 * in part */
	for (i = 0; i < sizeof(stale) / sizeof(stale[0]); i++)
		if (att_file_remove(dirfd, out, stale[i], err, sizeof(err))) {
			fprintf(stderr, "ima-attest: %s\n", err);
			close(dirfd);
			return 2;
		}
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
	rc = e.activated ? 0 : 1;
	{
		const char *k[] = { "ok" };
		const uint8_t val[] = { rc == 0 };
		const uint8_t *vp[] = { val };
		size_t len[] = { 1 };

		att_chan_send(&c, "RESULT", k, vp, len, 1);
	}
	goto record;
io:
	att_reason(&e.rs, ecls, "%s", err);
	fprintf(stderr, "ima-attest: enroll: %s\n", err);
	e.activated = false;
	if (e.ak_binding == ATT_PROVEN)
		e.ak_binding = ATT_REFUSED;
	rc = 2;
record:
	att_msg_free(&m);
	for (i = 0; i < (size_t)e.rs.n; i++)
		printf("reason: %s\n", e.rs.r[i]);
	if (att_enrollment_save(dirfd, out, &e, boot, ekcert, ekcert_len,
				werr, sizeof(werr))) {
		fprintf(stderr, "ima-attest: %s\n", werr);
		rc = 2;
	}
	/* the verdict, once, last */
	printf("enrollment: %s\n", rc ? "FAIL" :
	       "PASS (EK certified, AK bound by credential activation)");
	close(dirfd);
	att_chan_close(&c);
	att_reasons_free(&e.rs);
	free(ekcert);
	return rc;
}
