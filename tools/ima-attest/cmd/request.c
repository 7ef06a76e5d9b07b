// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest request --channel SOCK --out DIR [--timeout S] VERB
 *                    [KEY=VALUE...]
 *
 * One message to the guest agent (each VALUE's bytes, hex-encoded on the
 * wire); the reply's verb and each of its fields into DIR/<key>.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ima_attest.h"

#include "att_cmd.h"

int cmd_request(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "channel", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	const char *channel = NULL, *out = NULL, *keys[ATT_MSG_FIELDS];
	uint8_t *vals[ATT_MSG_FIELDS] = { NULL };
	size_t lens[ATT_MSG_FIELDS];
	struct att_chan c = { .fd = -1 };
	struct att_msg m = { 0 };
	int timeout = 300, opt, nf = 0, rc = 2, i, dirfd;
	char err[ATT_REASON_LEN];

	while ((opt = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (opt) {
		case 'c': channel = optarg; break;
		case 'o': out = optarg; break;
		case 't': timeout = atoi(optarg); break;
		default: att_usage();
		}
	}
	if (!channel || !out || optind >= argc || timeout <= 0 ||
	    argc - optind - 1 > ATT_MSG_FIELDS)
		att_usage();
	for (i = optind + 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq)
			att_usage();
		*eq = '\0';
		keys[nf] = argv[i];
		lens[nf] = strlen(eq + 1);
		vals[nf] = (uint8_t *)eq + 1;	/* sent as given: bytes of the value */
		nf++;
	}
	dirfd = att_dir_open(out, true, err, sizeof(err));
	if (dirfd < 0) {
		fprintf(stderr, "ima-attest: %s\n", err);
		return 2;
	}
	if (att_chan_open(&c, channel, timeout) ||
	    att_chan_send(&c, argv[optind], keys, (const uint8_t **)vals, lens, nf)) {
		fprintf(stderr, "ima-attest: cannot talk on %s: %s\n", channel, strerror(errno));
		goto out;
	}
	if (att_chan_recv(&c, &m, err, sizeof(err))) {
		fprintf(stderr, "ima-attest: request: %s\n", err);
		goto out;
	}
	/* keys are [a-z0-9_] (att_msg_parse): file names in out */
	if (att_file_write(dirfd, out, "verb", m.verb, strlen(m.verb), err,
			   sizeof(err)))
		goto wfail;
	for (i = 0; i < m.nfields; i++)
		if (att_file_write(dirfd, out, m.key[i], m.val[i], m.len[i],
				   err, sizeof(err)))
			goto wfail;
	printf("%s\n", m.verb);
	rc = 0;
	goto out;
wfail:
	fprintf(stderr, "ima-attest: request: %s\n", err);
out:
	att_msg_free(&m);
	att_chan_close(&c);
	close(dirfd);
	return rc;
}
