// SPDX-License-Identifier: GPL-2.0-only
/*
 * What `ima-attest verify` proves, in order: the quote is the enrolled
 * AK's, over the verifier's nonce, its pcrDigest the quoted values'; the
 * firmware event log replays, in every bank the quote carries, to the
 * quoted PCRs 0-9; and, given the list, its first entry is the
 * boot_aggregate of those PCRs. Each step is tried even when an earlier
 * one failed (its reason says it was not compared), so that every reason
 * is known at once; nothing is proven that a step before did not bind.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ima_attest.h"
#include "ima_hash.h"
#include "ima_quote.h"

#define MAX_LOG		(64u << 20)

static void proven(struct att_verify *v, const char *what)
{
	v->proven[v->nproven++] = what;
}

/* boot_aggregate from the replayed PCRs 0-9 against the list's first entry */
static void aggregate(struct att_verify *v)
{
	struct ima_pcr_values rv;
	char err[256];

	att_evlog_values(v->ev, &rv);
	if (ima_boot_aggregate(&rv, IMA_BANK_SHA256, v->agg)) {
		att_reason(&v->rs, IMA_FC_BOOT_UNVERIFIED,
			   "no sha256 bank to derive boot_aggregate");
		return;
	}
	v->have_agg = true;
	if (!v->list)
		return;
	if (att_list_aggregate(v->list, v->want, err, sizeof(err))) {
		att_reason(&v->rs, IMA_FC_BOOT_AGGREGATE, "boot_aggregate: %s", err);
		return;
	}
	v->have_want = true;
	v->def = ima_boot_aggregate_match(&rv, IMA_BANK_SHA256, v->want, 32);
	if (v->def <= IMA_BOOT_DEF_NONE) {
		att_reason(&v->rs, IMA_FC_BOOT_AGGREGATE,
			   "boot_aggregate of the list is not the one derived from the firmware log");
		return;
	}
	proven(v, v->def == IMA_BOOT_DEF_PRE_5_8 ?
	       "boot_aggregate: matches the list's first entry, by the definition before Linux 5.8 (PCRs 0-7 only)" :
	       "boot_aggregate: matches the list's first entry");
}

int att_verify(struct att_verify *v)
{
	uint8_t *log = NULL;
	size_t log_len;

	v->def = IMA_BOOT_DEF_NONE;
	/* 1. the AK must be the enrolled one, and the quote its */
	v->quote_ok = att_quote_check(&v->qc, v->q, v->enrolled, &v->rec, &v->rs);
	if (v->quote_ok)
		proven(v, "quote (enrolled AK, nonce, pcrDigest): PASS");
	/* 2. the firmware log, replayed, against the quoted PCRs 0-9 */
	v->ev = calloc(1, sizeof(*v->ev));
	if (!v->ev)
		return -1;
	log = att_slurp(v->eventlog, MAX_LOG, &log_len);
	if (!log) {
		snprintf(v->ev_error, sizeof(v->ev_error), "%s: %s", v->eventlog,
			 strerror(errno));
		att_reason(&v->rs, ATT_FC_EVLOG, "firmware event log %s",
			   v->ev_error);
	} else if (att_evlog_replay(v->ev, log, log_len, v->ev_error,
				    sizeof(v->ev_error))) {
		att_reason(&v->rs, ATT_FC_EVLOG,
			   "firmware event log does not parse: %s (record at byte %llu)",
			   v->ev_error, (unsigned long long)v->ev->err_offset);
	} else {
		v->ev_read = true;
		if (!v->quote_ok) {
			att_reason(&v->rs, IMA_FC_QUOTE_UNATTESTED,
				   "firmware event log not compared: the quote is not trusted");
		} else if (!att_evlog_compare(v->ev, &v->qc.pcrs, 0x3ff, &v->rs)) {
			v->ev_ok = true;
			proven(v, "firmware event log replays to the quoted PCRs 0-9: PASS");
			aggregate(v);
		}
	}
	free(log);
	return v->rs.n ? 1 : 0;
}

void att_verify_free(struct att_verify *v)
{
	att_reasons_free(&v->rs);
	att_enrollment_free(&v->rec);
	att_pkey_free(v->qc.ak);
	v->qc.ak = NULL;
	free(v->ev);
	v->ev = NULL;
}
