// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest verify --html: what the verifier proved, as the same page as
 * ima-audit --html (its shell, CSS and JS; format ima-attest-page/1): the
 * enrollment record, the quote, the firmware log replayed per bank against
 * the quoted PCRs, boot_aggregate, the reasons, and polling rounds when a
 * record of them is given (JSON lines, embedded as they are: the page shows
 * them as text or, if they do not parse, shows no verdict at all).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ima_attest.h"
#include "ima_audit.h"
#include "ima_html.h"
#include "ima_quote.h"

#include "att_page.h"

static void jstr(FILE *out, const char *s)
{
	fputc('"', out);
	ima_json_escape(out, s, strlen(s));
	fputc('"', out);
}

static void jhex(FILE *out, const uint8_t *p, size_t n)
{
	char hx[2 * ATT_MAX_DIGEST + 1];

	ima_bin2hex(p, n, hx);
	fprintf(out, "\"%s\"", hx);
}

/*
 * The enrollment as the one rule reads it (att_enrollment_check): each
 * step proven or not, the record's reasons (and, when the record says
 * trusted, why a file it names does not check), its boot; null without a
 * record.
 */
static void json_enrollment(FILE *out, const char *dir)
{
	static const char *const said[2] = {
		"EK certificate chains to the manufacturer CA and certifies an EK, EK public key matches it",
		"restricted TPM signing key, name recomputed, credential activated by the EK's TPM",
	};
	struct att_enrollment rec;
	struct att_reasons rs = { 0 };
	int st = att_enrollment_check(dir, NULL, &rec, NULL, &rs), i, k;
	int proof[2];

	if (st == ATT_ENROLL_ABSENT || st == ATT_ENROLL_ERROR) {
		fputs("null", out);
		goto out;
	}
	proof[0] = rec.tpm_identity;
	proof[1] = rec.ak_binding;
	fputs("{\"lines\":[", out);
	for (k = 0; k < 2; k++) {
		fprintf(out, "%s{\"pass\":%s,\"check\":", k ? "," : "",
			proof[k] == ATT_PROVEN ? "true" : "false");
		jstr(out, k ? "AK binding" : "TPM identity");
		fputs(",\"text\":", out);
		jstr(out, proof[k] == ATT_PROVEN ? said[k] : "");
		fputc('}', out);
	}
	fputs("],\"reasons\":[", out);
	for (i = 0; i < rec.rs.n; i++) {
		fputs(i ? "," : "", out);
		jstr(out, rec.rs.r[i]);
	}
	for (k = 0; rec.trusted && st != ATT_ENROLLED && k < rs.n; k++) {
		fputs(i + k ? "," : "", out);
		jstr(out, rs.r[k]);
	}
	fputs("],\"boot\":", out);
	if (strcmp(rec.boot, "-"))
		jstr(out, rec.boot);
	else
		fputs("null", out);
	fputc('}', out);
out:
	att_reasons_free(&rs);
	att_enrollment_free(&rec);
}

static void json_eventlog(FILE *out, const struct att_page_verify *v)
{
	const struct att_evlog *ev = v->ev;
	const struct ima_pcr_values *q = v->quote_ok ? &v->qc->pcrs : NULL;
	bool first = true;
	char name[32];
	int j, i;

	if (!ev) {
		fputs("null", out);
		return;
	}
	fputs("{\"error\":", out);
	if (v->ev_error) {
		jstr(out, v->ev_error);
		fputs(",\"events\":0,\"banks\":[],\"pcrs\":[]}", out);
		return;
	}
	fprintf(out, "null,\"events\":%u,\"banks\":[", ev->events);
	for (j = 0; j < ev->nbanks; j++)
		fprintf(out, "%s\"%s\"", j ? "," : "",
			att_evlog_bank_name(ev, j, name, sizeof(name)));
	fputs("],\"pcrs\":[", out);
	for (j = 0; j < ev->nbanks; j++) {
		int b = ev->bank[j];

		if (b < 0)
			continue;	/* framed, not replayed */

		for (i = 0; i < 10; i++) {
			bool quoted = q && b >= 0 && (q->have[b] & (1u << i));

			fprintf(out, "%s{\"bank\":\"%s\",\"pcr\":%d,\"replayed\":",
				first ? "" : ",", ima_bank_name(b), i);
			jhex(out, ev->pcr[j][i], ev->size[j]);
			fputs(",\"quoted\":", out);
			if (quoted)
				jhex(out, q->val[b][i], ev->size[j]);
			else
				fputs("null", out);
			fprintf(out, ",\"status\":\"%s\"}", !quoted ?
				"not-compared" :
				memcmp(q->val[b][i], ev->pcr[j][i], ev->size[j]) ?
				"mismatch" : "match");
			first = false;
		}
	}
	fputs("]}", out);
}

static int json_verify(FILE *out, const struct att_page_verify *v)
{
	const struct ima_quote_check *qc = v->qc;
	int i;

	fputs("{\"format\":\"ima-attest-page/1\",\"verify\":{\"result\":", out);
	fputs(v->rs->n ? "\"fail\"" : "\"pass\"", out);
	fputs(",\"proven\":[", out);
	for (i = 0; i < v->nproven; i++) {
		fputs(i ? "," : "", out);
		jstr(out, v->proven[i]);
	}
	fputs("],\"reasons\":[", out);
	for (i = 0; i < v->rs->n; i++) {
		fputs(i ? "," : "", out);
		jstr(out, v->rs->r[i]);
	}
	fputs("],\"quote\":", out);
	if (v->quote_checked)
		fprintf(out,
			"{\"checked\":true,\"signature\":%s,\"nonce\":%s,\"pcr_digest\":%s,\"reset_count\":%u,\"restart_count\":%u,\"clock_ms\":%llu}",
			qc->sig_ok ? "true" : "false",
			qc->nonce_ok ? "true" : "false",
			qc->pcrs_ok ? "true" : "false",
			qc->quote.reset_count, qc->quote.restart_count,
			(unsigned long long)qc->quote.clock);
	else
		fputs("null", out);
	fputs(",\"boot_aggregate\":", out);
	if (v->agg)
		jhex(out, v->agg, 32);
	else
		fputs("null", out);
	fputs(",\"list_aggregate\":", out);
	if (v->list_agg)
		jhex(out, v->list_agg, 32);
	else
		fputs("null", out);
	fputs("},\"enrollment\":", out);
	json_enrollment(out, v->enrolled);
	fputs(",\"eventlog\":", out);
	json_eventlog(out, v);
	fputs(",\"rounds\":null}", out);
	return ferror(out) ? -1 : 0;
}

/* The rounds record: JSON lines, as an array (each line as it is). */
static char *rounds_json(const char *path, size_t *len)
{
	char *buf = NULL, line[65536];
	FILE *m, *f = fopen(path, "r");
	bool first = true;

	if (!f)
		return NULL;
	m = open_memstream(&buf, len);
	if (!m) {
		fclose(f);
		return NULL;
	}
	fputc('[', m);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		fprintf(m, "%s%s", first ? "" : ",", line);
		first = false;
	}
	fputc(']', m);
	fclose(f);
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

struct page_arg {
	const struct att_page_verify *v;
};

static int write_attest(void *arg, FILE *out)
{
	const struct att_page_verify *v = ((struct page_arg *)arg)->v;
	static const char *const ids[] = { "ima-data", "ima-rounds" };
	const char *json[2];
	char *buf = NULL, *rounds = NULL;
	size_t lens[2], len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc = -1;

	if (!m)
		return -1;
	if (json_verify(m, v) || fclose(m))
		goto out;
	json[0] = buf;
	lens[0] = len;
	if (v->rounds) {
		rounds = rounds_json(v->rounds, &lens[1]);
		if (!rounds)
			goto out;
		json[1] = rounds;
	}
	rc = ima_html_page(out, ids, json, lens, v->rounds ? 2 : 1);
out:
	free(buf);
	free(rounds);
	return rc;
}

int att_page_verify(const char *path, const struct att_page_verify *v)
{
	struct page_arg a = { v };

	return ima_html_write_file(path, write_attest, &a);
}
