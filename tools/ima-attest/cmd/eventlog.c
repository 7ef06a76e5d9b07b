// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest eventlog: a firmware event log replayed (att_evlog_replay).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "att_cmd.h"
#include "ima_hash.h"
#include "ima_pcr.h"

#define MAX_LOG		(64u << 20)

static const struct att_cmd cmd = {
	.name = "eventlog",
	.summary = "Replay a firmware event log and print every bank's value of every PCR\n"
		   "it extends",
	.operands = "LOG",
	.text =
"LOG is the firmware's event log (binary_bios_measurements): crypto agile\n"
"(TCG PC Client, a Spec ID event first), or the SHA1 format of TCG 1.2,\n"
"which attests the sha1 bank only. Prints \"BANK:N HEX\" lines (what\n"
"tpm2_eventlog replays, for cross-checks) and, on stderr, the log's\n"
"format and banks. Nothing is attested here: `ima-attest verify` compares\n"
"the log with a quote.\n"
"\n"
"Exit status: 0 it replays, 1 it does not parse (the reason printed),\n"
"2 usage error or an unreadable file.\n",
};

/*
 * What the log can attest, on stderr (stdout holds only the values, which
 * scripts compare with tpm2_eventlog's)
 */
static void print_format(const char *path, const struct att_evlog *ev)
{
	char name[32];
	int j;

	fputs("ima-attest: ", stderr);
	att_text(stderr, path);
	if (ev->sha1_log) {
		fprintf(stderr, ": SHA1 (TCG 1.2) format, %u events: only the sha1 bank is attested\n",
			ev->events);
		return;
	}
	fprintf(stderr, ": crypto agile, %u events, banks", ev->events);
	for (j = 0; j < ev->nbanks; j++)
		fprintf(stderr, " %s", att_evlog_bank_name(ev, j, name,
							    sizeof(name)));
	fputc('\n', stderr);
}

static void json(FILE *out, const struct att_evlog *ev)
{
	int i, j, k = 0;

	fprintf(out, ",\"eventlog\":{\"format\":\"%s\",\"events\":%u,\"banks\":",
		ev->sha1_log ? "sha1" : "crypto-agile", ev->events);
	att_json_banks(out, ev);
	fputs(",\"pcrs\":[", out);
	for (j = 0; j < ev->nbanks; j++)
		for (i = 0; i < ATT_EV_PCRS; i++) {
			if (!(ev->touched & (1u << i)) || ev->bank[j] < 0)
				continue;
			fprintf(out, "%s{\"bank\":\"%s\",\"pcr\":%d,\"value\":",
				k++ ? "," : "", ima_bank_name(ev->bank[j]), i);
			att_json_hex(out, ev->pcr[j][i], ev->size[j]);
			fputc('}', out);
		}
	fputs("]}", out);
}

int cmd_eventlog(int argc, char **argv)
{
	const struct att_opt opts[] = { ATT_OPT_END };
	struct att_reasons rs = { 0 };
	struct att_evlog *ev = NULL;
	struct att_cli cli;
	char err[256], hx[2 * ATT_MAX_DIGEST + 1];
	uint8_t *log = NULL;
	size_t len;
	int j, i, rc;

	rc = att_cli_parse(&cli, &cmd, opts, 1, 1, argc, argv);
	if (rc >= 0)
		return rc;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return att_cli_fail(&cli, ATT_EXIT_ERROR, "out of memory");
	log = att_slurp(cli.operand[0], MAX_LOG, &len);
	if (!log) {
		rc = att_cli_fail(&cli, ATT_EXIT_ERROR, "%s: %s", cli.operand[0],
				  strerror(errno));
		goto out;
	}
	rc = ATT_EXIT_OK;
	if (att_evlog_replay(ev, log, len, err, sizeof(err))) {
		att_reason(&rs, ATT_FC_EVLOG,
			   "firmware event log does not parse: %s (record at byte %llu)",
			   err, (unsigned long long)ev->err_offset);
		rc = ATT_EXIT_FAIL;
	}
	if (cli.json) {
		att_json_begin(&cli);
		if (rc == ATT_EXIT_OK)
			json(cli.out, ev);
		else
			fputs(",\"eventlog\":null", cli.out);
		att_json_end(&cli, &rs, rc);
		goto out;
	}
	if (rc) {
		att_print_reasons(stdout, &rs);
		goto out;
	}
	print_format(cli.operand[0], ev);
	for (j = 0; j < ev->nbanks; j++)
		for (i = 0; i < ATT_EV_PCRS; i++) {
			if (!(ev->touched & (1u << i)) || ev->bank[j] < 0)
				continue;
			ima_bin2hex(ev->pcr[j][i], ev->size[j], hx);
			printf("%s:%d %s\n", ima_bank_name(ev->bank[j]), i, hx);
		}
out:
	att_reasons_free(&rs);
	free(log);
	free(ev);
	return rc;
}
