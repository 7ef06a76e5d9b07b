// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest - a remote verifier of a TPM 2.0 machine: enroll its TPM (EK
 * certificate, AK bound by credential activation), verify its quotes,
 * firmware log and measurement list, poll it round by round.
 *
 * This file only finds the command; each is its own file (cmd/<command>.c)
 * over the library (src/, and ima-audit's). Results on stdout,
 * diagnostics on stderr. Exit status: 0 proven, 1 refused (reasons
 * printed), 2 usage or I/O error; enrolled: 3 no record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "att_cmd.h"

void att_usage(void)
{
	fprintf(stderr,
		"usage: ima-attest enroll --channel SOCK --ca CA.pem [--ca-chain PEM] --out DIR [--timeout S]\n"
		"                         [--boot ID]\n"
		"       ima-attest enrolled --enrolled DIR [--boot ID]\n"
		"       ima-attest verify --enrolled DIR --quote MSG --quote-sig SIG --quote-pcrs VALUES\n"
		"                         --nonce HEX --eventlog LOG [--list LIST] [--html FILE [--rounds JSONL]]\n"
		"       ima-attest poll --state FILE --enrolled DIR --quote MSG --quote-sig SIG\n"
		"                       --quote-pcrs VALUES --nonce HEX --entries FILE --offset BYTES [--key CERT]\n"
		"                       [--deny FILE]\n"
		"       ima-attest request --channel SOCK --out DIR VERB [KEY=VALUE...]\n"
		"       ima-attest eventlog LOG\n");
	exit(2);
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "enroll", cmd_enroll },
	{ "enrolled", cmd_enrolled },
	{ "verify", cmd_verify },
	{ "poll", cmd_poll },
	{ "request", cmd_request },
	{ "eventlog", cmd_eventlog },
};

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		att_usage();
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	att_usage();
}
