/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ima-attest verify --html FILE: the verifier's result as the page of
 * ima-audit --html (page.c). The command fills this from what it checked.
 */
#ifndef ATT_PAGE_H
#define ATT_PAGE_H

#include <stdbool.h>
#include <stdint.h>

struct att_evlog;
struct att_reasons;
struct ima_quote_check;

struct att_page_verify {
	const char *enrolled;		/* DIR: its verdict record is shown */
	bool quote_checked;		/* an enrolled AK: the quote verified */
	bool quote_ok;			/* signature, nonce and pcrDigest */
	const struct ima_quote_check *qc;
	const struct att_evlog *ev;	/* NULL: not read */
	const char *ev_error;		/* it does not parse */
	const uint8_t *agg;		/* boot_aggregate from the log, or NULL */
	const uint8_t *list_agg;	/* the list's first entry's, or NULL */
	const struct att_reasons *rs;
	const char *const *proven;	/* what the command printed as PASS */
	int nproven;
	const char *rounds;		/* JSON lines of polling rounds, or NULL */
};

/* 0, or -1 with errno. */
int att_page_verify(const char *path, const struct att_page_verify *v);

#endif
