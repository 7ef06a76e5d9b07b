/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The audit as a page: one self-contained HTML file (ima-audit --html).
 *
 * The page embeds the --json report unchanged, the lines of the text
 * report that say what binds the list and what was waived, the recorded
 * and expected policy, and a table of every entry (entries.c), each with
 * the verdict the library gives it (ima_entry_verdict). The template, its
 * CSS and its JS are html/report.{html,css,js}, compiled in at build
 * time; the JS renders the sections with textContent only.
 *
 * Data in the page sits in <script type="application/json"> blocks with
 * '<', '>' and '&' written as \u003c, \u003e and \u0026: nothing from the
 * list can close the block or open a comment.
 */
#ifndef IMA_HTML_H
#define IMA_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ima_log.h"

struct ima_audit;

/* --- the entry table (entries.c) -------------------------------------- */

#define IMA_TABLE_MAX_ROWS	1000000	/* listed; all are counted */
#define IMA_TABLE_MAX_PATH	4096	/* bytes of a name shown */
#define IMA_TABLE_MAX_TEMPLATES	64	/* distinct names; then "(other)" */

enum ima_entry_sig {
	IMA_ES_NONE,		/* no signature field, or an empty one */
	IMA_ES_V2,		/* evmctl v2 header: keyid */
	IMA_ES_MODSIG,		/* appended PKCS#7 signature */
	IMA_ES_OTHER,		/* a sig field that is no v2 header */
};

struct ima_table_row {
	uint64_t index, offset;
	uint32_t pcr;
	uint32_t path_len;	/* bytes kept in the arena (<= MAX_PATH) */
	uint32_t path_full;	/* bytes the name has */
	size_t path_off;	/* into the arena; SIZE_MAX: no name field */
	uint8_t tmpl;		/* templates[] index; ntemplates: "(other)" */
	uint8_t sig;		/* enum ima_entry_sig */
	bool violation;
	uint32_t keyid;		/* IMA_ES_V2 */
	const char *alg;	/* digest algorithm, NULL: none or unknown */
	uint8_t dlen;
	uint8_t digest[64];
};

struct ima_table {
	struct ima_table_row *rows;
	size_t nrows, cap;
	char *arena;
	size_t arena_len, arena_cap;
	uint64_t seen;		/* entries recorded, listed or not */
	char templates[IMA_TABLE_MAX_TEMPLATES][IMA_MAX_NAME_LEN + 1];
	int ntemplates;
	bool oom;
};

void ima_table_init(struct ima_table *t);
void ima_table_free(struct ima_table *t);
/* ima_audit_opts.on_record: one row per entry, ctx a struct ima_table. */
void ima_table_record(void *ctx, const struct ima_record *rec);

/*
 * What the audit proves of one entry, from its own failures and from what
 * binds its PCR: the verdict lives here, the page only shows it.
 */
enum ima_entry_verdict {
	IMA_EV_OK,		/* bound, covered, no failure names it */
	IMA_EV_FAIL,		/* a listed failure names it */
	IMA_EV_WAIVED,		/* --ignore-pcr, or uncovered with
				 * --allow-uncovered: attested by nothing */
	IMA_EV_UNPROVEN,	/* not attested (its PCR's values match no
				 * prefix, the quote failed, it is after
				 * the covered prefix) or not known (the
				 * audit is incomplete, failures unlisted) */
	IMA_EV_COUNT,
};

/* failed: a failure in a->failures names entry index. */
int ima_entry_verdict(const struct ima_audit *a, uint32_t pcr,
		      uint64_t index, bool failed);
const char *ima_entry_verdict_name(int v);

/* What to do about a failure of a class ("template-hash", ...). */
const char *ima_fail_class_advice(int cls);

/* --- the page (html.c) ------------------------------------------------ */

/*
 * Writes json (len bytes, any bytes) as the body of a <script
 * type="application/json" id=ID> block: '<', '>', '&' become \u003c,
 * \u003e, \u0026, which is the same JSON when they stand in strings and
 * makes anything else fail to parse, never the page.
 */
void ima_html_embed(FILE *out, const char *id, const char *json, size_t len);

/*
 * The page shell: the template with its CSS, JS and the Content Security
 * Policy (their sha256; no source for anything else), and the blocks
 * (ids[i], json[i], lens[i]) embedded. 0, or -1 (write error).
 */
int ima_html_page(FILE *out, const char *const *ids, const char *const *json,
		  const size_t *lens, int n);

/* The audit's page. 0, or -1 with errno (ENOMEM, a write error). */
int ima_report_html(const struct ima_audit *a, const struct ima_table *t,
		    FILE *out);

/*
 * Writes the page to path: a temporary file beside it, renamed into
 * place, so a reader never sees half a page. 0, or -1 with errno.
 */
int ima_html_write_file(const char *path,
			int (*fn)(void *arg, FILE *out), void *arg);

#endif
