// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest verify --enrolled DIR --quote MSG --quote-sig SIG
 *                   --quote-pcrs VALUES --nonce HEX --eventlog LOG
 *                   [--list BINARY_RUNTIME_MEASUREMENTS]
 *                   [--html FILE [--rounds JSONL]]
 *
 * The quote must verify with the enrolled AK (ima-audit's quote checks)
 * and the firmware's event log must replay, in every quoted bank, to the
 * quoted PCRs 0-9; boot_aggregate derived from the replayed PCRs must be
 * the list's first entry. --html writes the result as the page of
 * ima-audit --html (with polling rounds recorded one JSON object a line).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "att_page.h"
#include "ima_attest.h"
#include "ima_hash.h"
#include "ima_quote.h"

#include "att_cmd.h"

#define MAX_LOG		(64u << 20)

int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "enrolled", required_argument, NULL, 'e' },
		{ "quote", required_argument, NULL, 'q' },
		{ "quote-sig", required_argument, NULL, 's' },
		{ "quote-pcrs", required_argument, NULL, 'p' },
		{ "nonce", required_argument, NULL, 'n' },
		{ "eventlog", required_argument, NULL, 'l' },
		{ "list", required_argument, NULL, 'L' },
		{ "html", required_argument, NULL, 'H' },
		{ "rounds", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *msgf = NULL, *sigf = NULL, *pcrf = NULL;
	const char *noncehex = NULL, *logf = NULL, *listf = NULL;
	const char *html = NULL, *rounds = NULL, *proven[3], *ev_error = NULL;
	bool have_agg = false, have_want = false;
	int nproven = 0;
	uint8_t *log = NULL;
	size_t log_len;
	uint8_t agg[32], want[32];
	struct att_quote_files qf = { 0 };
	struct ima_quote_check qc = { 0 };
	struct att_reasons rs = { 0 };
	struct att_enrollment rec = { 0 };
	struct ima_pcr_values rv;
	char err[256], hx[65];
	struct att_evlog *ev = NULL;
	int opt, rc = 2, i, def = IMA_BOOT_DEF_NONE;
	bool quote_ok;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'e': dir = optarg; break;
		case 'q': msgf = optarg; break;
		case 's': sigf = optarg; break;
		case 'p': pcrf = optarg; break;
		case 'n': noncehex = optarg; break;
		case 'l': logf = optarg; break;
		case 'L': listf = optarg; break;
		case 'H': html = optarg; break;
		case 'R': rounds = optarg; break;
		default: att_usage();
		}
	}
	if (!dir || !msgf || !sigf || !pcrf || !noncehex || !logf || optind != argc ||
	    (rounds && !html))
		att_usage();
	if (att_quote_files_load(&qf, msgf, sigf, pcrf, noncehex, err,
				 sizeof(err))) {
		fprintf(stderr, "ima-attest: %s\n", err);
		return 2;
	}
	/* 1. the AK must be the enrolled one, and the quote its */
	quote_ok = att_quote_check(&qc, &qf, dir, &rec, &rs);
	printf("quote (enrolled AK, nonce, pcrDigest): %s\n", quote_ok ? "PASS" : "FAIL");
	if (quote_ok)
		proven[nproven++] = "quote (enrolled AK, nonce, pcrDigest): PASS";
	/* 2. the firmware log, replayed, against the quoted PCRs 0-9 */
	ev = calloc(1, sizeof(*ev));
	log = att_slurp(logf, MAX_LOG, &log_len);
	if (!ev) {
		fprintf(stderr, "ima-attest: out of memory\n");
		goto out;
	}
	if (!log) {
		att_reason(&rs, ATT_FC_EVLOG, "firmware event log %s: %s", logf, strerror(errno));
		ev_error = rs.r[rs.n - 1];
	} else if (att_evlog_replay(ev, log, log_len, err, sizeof(err))) {
		ev_error = err;
		att_reason(&rs, ATT_FC_EVLOG, "firmware event log does not parse: %s (record at byte %llu)",
			   err, (unsigned long long)ev->err_offset);
	} else {
		printf("firmware event log: %s%u events, banks",
		       ev->sha1_log ? "SHA1 (TCG 1.2) format, only sha1 attested, " : "",
		       ev->events);
		for (i = 0; i < ev->nbanks; i++)
			printf(" %s", att_evlog_bank_name(ev, i, hx, sizeof(hx)));
		printf(", PCRs extended 0x%06x\n", ev->touched);
		if (!quote_ok) {
			att_reason(&rs, IMA_FC_QUOTE_UNATTESTED, "firmware event log not compared: the quote is not trusted");
		} else if (!att_evlog_compare(ev, &qc.pcrs, 0x3ff, &rs)) {
			printf("firmware event log replays to the quoted PCRs 0-9: PASS\n");
			proven[nproven++] = "firmware event log replays to the quoted PCRs 0-9: PASS";
			att_evlog_values(ev, &rv);
			if (ima_boot_aggregate(&rv, IMA_BANK_SHA256, agg)) {
				att_reason(&rs, IMA_FC_BOOT_UNVERIFIED, "no sha256 bank to derive boot_aggregate");
			} else {
				have_agg = true;
				ima_bin2hex(agg, 32, hx);
				printf("boot_aggregate from the replayed PCRs 0-9: sha256:%s\n", hx);
				if (listf && !att_list_aggregate(listf, want, err, sizeof(err)))
					have_want = true;
				if (have_want)
					def = ima_boot_aggregate_match(&rv, IMA_BANK_SHA256,
								       want, 32);
				if (listf && !have_want)
					att_reason(&rs, IMA_FC_BOOT_AGGREGATE, "boot_aggregate: %s", err);
				else if (listf && def <= IMA_BOOT_DEF_NONE)
					att_reason(&rs, IMA_FC_BOOT_AGGREGATE, "boot_aggregate of the list is not the one derived from the firmware log");
				else if (listf)
					printf("boot_aggregate: matches the list's first entry%s\n",
					       def == IMA_BOOT_DEF_PRE_5_8 ?
					       ", by the definition before Linux 5.8 (PCRs 0-7 only: PCRs 8-9 are not in it)" : "");
				if (listf && have_want && def > IMA_BOOT_DEF_NONE)
					proven[nproven++] = def == IMA_BOOT_DEF_PRE_5_8 ?
						"boot_aggregate: matches the list's first entry, by the definition before Linux 5.8 (PCRs 0-7 only)" :
						"boot_aggregate: matches the list's first entry";
			}
		}
	}
	for (i = 0; i < rs.n; i++)
		printf("reason: %s\n", rs.r[i]);
	rc = rs.n ? 1 : 0;
	printf("result: %s\n", rc ? "FAIL" : "PASS");
	if (html) {
		struct att_page_verify pv = {
			.enrolled = dir, .quote_checked = !!qc.ak,
			.quote_ok = quote_ok, .qc = &qc, .ev = ev,
			.ev_error = ev_error, .agg = have_agg ? agg : NULL,
			.list_agg = have_want ? want : NULL, .rs = &rs,
			.proven = proven, .nproven = nproven, .rounds = rounds,
		};

		if (att_page_verify(html, &pv)) {
			fprintf(stderr, "ima-attest: %s: cannot write the page: %s\n",
				html, strerror(errno));
			rc = 2;
		}
	}
out:
	att_reasons_free(&rs);
	att_enrollment_free(&rec);
	att_pkey_free(qc.ak);
	att_quote_files_free(&qf);
	free(ev);
	free(log);
	return rc;
}
