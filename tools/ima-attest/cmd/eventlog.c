// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest eventlog LOG
 *
 * Parse and replay a firmware event log (crypto agile, or the SHA1 format
 * of TCG 1.2); print every bank's value of every PCR the log extends
 * ("sha256:N HEX"), for cross-checks, and on stderr its format and banks
 * (a SHA1 log attests the sha1 bank only).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ima_attest.h"
#include "ima_hash.h"
#include "ima_pcr.h"

#include "att_cmd.h"

#define MAX_LOG		(64u << 20)

/*
 * What the log can attest, on stderr (stdout holds only the values, which
 * scripts compare with tpm2_eventlog's)
 */
static void print_evlog_format(const char *path, const struct att_evlog *ev)
{
	char name[32];
	int j;

	if (ev->sha1_log) {
		fprintf(stderr, "ima-attest: %s: SHA1 (TCG 1.2) format, %u events: only the sha1 bank is attested\n",
			path, ev->events);
		return;
	}
	fprintf(stderr, "ima-attest: %s: crypto agile, %u events, banks", path,
		ev->events);
	for (j = 0; j < ev->nbanks; j++)
		fprintf(stderr, " %s", att_evlog_bank_name(ev, j, name,
							    sizeof(name)));
	fputc('\n', stderr);
}

int cmd_eventlog(int argc, char **argv)
{
	struct att_evlog *ev = calloc(1, sizeof(*ev));
	char err[256], hx[2 * ATT_MAX_DIGEST + 1];
	uint8_t *log;
	size_t len;
	int j, i, rc = 1;

	if (argc != 2 || !ev)
		att_usage();
	log = att_slurp(argv[1], MAX_LOG, &len);
	if (!log) {
		fprintf(stderr, "ima-attest: %s: %s\n", argv[1], strerror(errno));
		free(ev);
		return 2;
	}
	if (att_evlog_replay(ev, log, len, err, sizeof(err))) {
		printf("reason: firmware event log does not parse: %s (record at byte %llu)\n",
		       err, (unsigned long long)ev->err_offset);
		goto out;
	}
	print_evlog_format(argv[1], ev);
	for (j = 0; j < ev->nbanks; j++)
		for (i = 0; i < ATT_EV_PCRS; i++) {
			if (!(ev->touched & (1u << i)) || ev->bank[j] < 0)
				continue;
			ima_bin2hex(ev->pcr[j][i], ev->size[j], hx);
			printf("%s:%d %s\n", ima_bank_name(ev->bank[j]), i, hx);
		}
	rc = 0;
out:
	free(log);
	free(ev);
	return rc;
}
