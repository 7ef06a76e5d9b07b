// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest request: one message to the guest agent, its answer into
 * files (the plumbing of scripts/attest-poll.sh).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "att_cmd.h"

/* how long to wait for the guest unless --timeout says */
#define WAIT_SECONDS	300

static const struct att_cmd cmd = {
	.name = "request",
	.summary = "Send one message to the guest's agent and write its answer's fields\n"
		   "into DIR, one file each",
	.operands = "VERB [KEY=VALUE...]",
	.text =
"VERB is upper-case letters (QUOTE, WORK, EVENTLOG, BYE: the agent's\n"
"requests, rootfs/overlay/opt/ima-stack/attest-agent); each VALUE's bytes\n"
"go hex-encoded on the wire. DIR (made 0700; refused if others can write\n"
"it) gets DIR/verb and DIR/<key> for every field of the answer, each\n"
"written whole. The answer is the guest's word: nothing here is verified\n"
"(ima-attest poll and verify do that). DIR is checked before the channel\n"
"is waited on.\n"
"\n"
"Exit status: 0 an answer was written, 2 usage, channel or I/O error.\n",
};

int cmd_request(int argc, char **argv)
{
	const char *channel, *out, *timeout_s, *keys[ATT_MSG_FIELDS];
	const struct att_opt opts[] = {
		ATT_OPT_CHANNEL(&channel),
		{ "out", "DIR", &out, true,
		  "where the answer's fields go, one file each" },
		ATT_OPT_TIMEOUT(&timeout_s, WAIT_SECONDS),
		ATT_OPT_END,
	};
	const uint8_t *vals[ATT_MSG_FIELDS] = { NULL };
	size_t lens[ATT_MSG_FIELDS];
	struct att_chan c = { .fd = -1 };
	struct att_msg m = { 0 };
	struct att_cli cli;
	int timeout = WAIT_SECONDS, nf = 0, rc, i, dirfd;
	const char *verb;
	char err[ATT_REASON_LEN];

	rc = att_cli_parse(&cli, &cmd, opts, 1, 1 + ATT_MSG_FIELDS, argc, argv);
	if (rc >= 0)
		return rc;
	if (timeout_s && (rc = att_cli_seconds(&cli, "timeout", timeout_s,
					       &timeout)) >= 0)
		return rc;
	verb = cli.operand[0];
	if (!*verb || strlen(verb) > 31 ||
	    strspn(verb, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != strlen(verb))
		return att_cli_fail(&cli, ATT_EXIT_ERROR,
				    "VERB '%s': 1-31 upper-case letters", verb);
	for (i = 1; i < cli.noperand; i++) {
		char *eq = strchr(cli.operand[i], '=');

		if (!eq || eq == cli.operand[i])
			return att_cli_fail(&cli, ATT_EXIT_ERROR,
					    "'%s' is not KEY=VALUE", cli.operand[i]);
		keys[nf] = cli.operand[i];
		lens[nf] = strlen(eq + 1);
		vals[nf] = (const uint8_t *)eq + 1;	/* sent as given */
		*eq = '\0';
		nf++;
	}
	dirfd = att_dir_open(out, true, err, sizeof(err));
	if (dirfd < 0)
		return att_cli_fail(&cli, ATT_EXIT_ERROR, "%s", err);
	rc = ATT_EXIT_ERROR;
	if (att_chan_open(&c, channel, timeout) ||
	    att_chan_send(&c, verb, keys, vals, lens, nf)) {
		att_cli_error(&cli, rc, "cannot talk on %s: %s", channel,
			      strerror(errno));
		goto print;
	}
	if (att_chan_recv(&c, &m, err, sizeof(err))) {
		att_cli_error(&cli, rc, "%s", err);
		goto print;
	}
	/* keys are [a-z0-9_] (att_msg_parse): file names in out */
	if (att_file_write(dirfd, out, "verb", m.verb, strlen(m.verb), err,
			   sizeof(err))) {
		att_cli_error(&cli, rc, "%s", err);
		goto print;
	}
	for (i = 0; i < m.nfields; i++)
		if (att_file_write(dirfd, out, m.key[i], m.val[i], m.len[i],
				   err, sizeof(err))) {
			att_cli_error(&cli, rc, "%s", err);
			goto print;
		}
	rc = ATT_EXIT_OK;
print:
	if (cli.json) {
		att_json_begin(&cli);
		att_json_key(cli.out, "reply");
		if (rc == ATT_EXIT_OK) {
			fputs("{\"verb\":", cli.out);
			att_json_str(cli.out, m.verb);
			fputs(",\"fields\":[", cli.out);
			for (i = 0; i < m.nfields; i++) {
				fputs(i ? "," : "", cli.out);
				att_json_str(cli.out, m.key[i]);
			}
			fputs("]}", cli.out);
		} else {
			fputs("null", cli.out);
		}
		att_json_end(&cli, NULL, rc);
	} else if (rc == ATT_EXIT_OK) {
		printf("%s\n", m.verb);
	}
	att_msg_free(&m);
	att_chan_close(&c);
	close(dirfd);
	return rc;
}
