// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest - a remote verifier of a TPM 2.0 machine: enroll its TPM (EK
 * certificate, AK bound by credential activation), verify its quotes,
 * firmware log and measurement list, poll it round by round.
 *
 * This file only finds the command; each is its own file (cmd/<command>.c)
 * over the library (src/, and ima-audit's). Results on stdout,
 * diagnostics on stderr (or everything in one JSON object with --json).
 */
#include <stdio.h>
#include <string.h>

#include "att_cmd.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "enroll", cmd_enroll, "enroll our guest's TPM over its channel (EK certificate, AK, credential activation)" },
	{ "challenge", cmd_challenge, "enroll any machine, step 1: check its EK certificate and AK, make the credential" },
	{ "activate", cmd_activate, "enroll any machine, step 2: the secret its TPM released decides" },
	{ "enrolled", cmd_enrolled, "is this enrollment trusted (the one rule verify and poll apply)" },
	{ "verify", cmd_verify, "a quote by the enrolled AK, the firmware log against it, boot_aggregate" },
	{ "poll", cmd_poll, "one round of incremental verification of the measurement list" },
	{ "request", cmd_request, "one message to the guest's agent, its answer into files" },
	{ "eventlog", cmd_eventlog, "replay a firmware event log, print its PCR values" },
};
#define NCMD	(int)(sizeof(commands) / sizeof(commands[0]))

static void overview(FILE *out)
{
	int i;

	fputs("Usage: ima-attest COMMAND [OPTIONS]\n"
	      "A remote verifier of a TPM 2.0 machine and its IMA measurement list.\n\n"
	      "Commands:\n", out);
	for (i = 0; i < NCMD; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'ima-attest COMMAND --help' says what a command takes and proves.\n"
	      "Every command takes --json: one JSON object on stdout, errors included.\n"
	      "Exit status: 0 proven, 1 refused (every reason printed), 2 usage or I/O\n"
	      "error (nothing decided); enrolled: 3 no record.\n"
	      "  --version  the version; --help  this text\n", out);
}

int main(int argc, char **argv)
{
	const char *names[NCMD], *near, *cmd;
	struct att_cli cli = { .out = stdout };
	int i;

	cmd = argc > 1 ? argv[1] : "";
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		if (argc > 2 && strcmp(cmd, "help") == 0) {
			char *help_argv[] = { argv[2], (char *)"--help", NULL };

			for (i = 0; i < NCMD; i++)
				if (!strcmp(argv[2], commands[i].name))
					return commands[i].run(2, help_argv);
		} else {
			overview(stdout);
			return ATT_EXIT_OK;
		}
		cmd = argv[2];
	} else if (!strcmp(cmd, "--version")) {
		printf("ima-attest %s (%s)\n", ATT_VERSION, ATT_JSON_FORMAT);
		return ATT_EXIT_OK;
	} else {
		for (i = 0; i < NCMD; i++)
			if (!strcmp(cmd, commands[i].name))
				return commands[i].run(argc - 1, argv + 1);
	}
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--json"))
			cli.json = true;
	for (i = 0; i < NCMD; i++)
		names[i] = commands[i].name;
	if (!*cmd || *cmd == '-') {
		if (!cli.json)
			overview(stderr);
		return att_cli_fail(&cli, ATT_EXIT_ERROR,
				    "no command given (ima-attest --help lists them)");
	}
	near = att_nearest(cmd, names, NCMD);
	return att_cli_fail(&cli, ATT_EXIT_ERROR,
			    "unknown command '%s'%s%s%s (ima-attest --help lists them)",
			    cmd, near ? ": did you mean '" : "", near ? near : "",
			    near ? "'?" : "");
}
