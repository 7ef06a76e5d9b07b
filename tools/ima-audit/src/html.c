// SPDX-License-Identifier: GPL-2.0-only
/*
 * The audit as one self-contained HTML page (ima-audit --html): the page
 * shell shared with ima-attest, and the audit's data for it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "ima_audit.h"
#include "ima_html.h"

/* html/report.{html,css,js} as report_html[], report_css[], report_js[] */
#include "html_assets.h"

void ima_html_embed(FILE *out, const char *id, const char *json, size_t len)
{
	size_t i, run = 0;

	fprintf(out, "<script type=\"application/json\" id=\"%s\">", id);
	for (i = 0; i < len; i++) {
		const char *esc;

		switch (json[i]) {
		case '<':
			esc = "\\u003c";
			break;
		case '>':
			esc = "\\u003e";
			break;
		case '&':
			esc = "\\u0026";
			break;
		default:
			continue;
		}
		fwrite(json + run, 1, i - run, out);
		fputs(esc, out);
		run = i + 1;
	}
	fwrite(json + run, 1, len - run, out);
	fputs("</script>\n", out);
}

/* 'sha256-BASE64' of an inline element's text, for the CSP. */
static int csp_hash(const unsigned char *p, size_t len, char *out)
{
	const struct ima_hash_algo *alg = ima_hash_by_name("sha256",
							   (size_t)-1);
	uint8_t d[32];

	if (!alg || ima_digest(alg, p, len, d))
		return -1;
	memcpy(out, "'sha256-", 8);
	EVP_EncodeBlock((unsigned char *)out + 8, d, sizeof(d));
	strcat(out, "'");
	return 0;
}

static const char *marker(const unsigned char *p, size_t left, size_t *mlen)
{
	static const char *const names[] = { "{{CSP}}", "{{STYLE}}",
					     "{{SCRIPT}}", "{{DATA}}" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		*mlen = strlen(names[i]);
		if (left >= *mlen && !memcmp(p, names[i], *mlen))
			return names[i];
	}
	return NULL;
}

int ima_html_page(FILE *out, const char *const *ids, const char *const *json,
		  const size_t *lens, int n)
{
	char js_hash[64], css_hash[64];
	size_t i = 0, run = 0, mlen;
	const char *m;
	int k;

	if (csp_hash(report_js, report_js_len, js_hash) ||
	    csp_hash(report_css, report_css_len, css_hash)) {
		errno = ENOSYS;
		return -1;
	}
	while (i < report_html_len) {
		if (report_html[i] != '{' ||
		    !(m = marker(report_html + i, report_html_len - i, &mlen))) {
			i++;
			continue;
		}
		fwrite(report_html + run, 1, i - run, out);
		if (!strcmp(m, "{{CSP}}")) {
			fprintf(out,
				"default-src 'none'; script-src %s; style-src %s; base-uri 'none'; form-action 'none'",
				js_hash, css_hash);
		} else if (!strcmp(m, "{{STYLE}}")) {
			fputs("<style>", out);
			fwrite(report_css, 1, report_css_len, out);
			fputs("</style>", out);
		} else if (!strcmp(m, "{{SCRIPT}}")) {
			fputs("<script>", out);
			fwrite(report_js, 1, report_js_len, out);
			fputs("</script>", out);
		} else {
			for (k = 0; k < n; k++)
				ima_html_embed(out, ids[k], json[k], lens[k]);
		}
		i += mlen;
		run = i;
	}
	fwrite(report_html + run, 1, report_html_len - run, out);
	return ferror(out) ? -1 : 0;
}

static void jstr(FILE *out, const void *s, size_t len)
{
	fputc('"', out);
	ima_json_escape(out, s, len);
	fputc('"', out);
}

static void jstr_or_null(FILE *out, const void *s, size_t len)
{
	if (s)
		jstr(out, s, len);
	else
		fputs("null", out);
}

/* Each line a function writes, as a JSON array of strings. */
static int json_lines(FILE *out, const struct ima_audit *a,
		      void (*fn)(const struct ima_audit *, FILE *))
{
	char *buf = NULL, *p, *nl;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	bool first = true;

	if (!m)
		return -1;
	fn(a, m);
	if (fclose(m)) {
		free(buf);
		return -1;
	}
	fputc('[', out);
	for (p = buf; p < buf + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(buf + len - p));
		if (!nl)
			nl = buf + len;
		fputs(first ? "" : ",", out);
		jstr(out, p, (size_t)(nl - p));
		first = false;
	}
	fputc(']', out);
	free(buf);
	return 0;
}

static void json_table(FILE *out, const struct ima_audit *a,
		       const struct ima_table *t)
{
	size_t i, f = 0;
	char hx[2 * 64 + 1];
	int k;

	fprintf(out,
		"{\"seen\":%" PRIu64 ",\"listed\":%zu,\"max_rows\":%d,\"max_path\":%d,\"oom\":%s,\"templates\":[",
		t->seen, t->nrows, IMA_TABLE_MAX_ROWS, IMA_TABLE_MAX_PATH,
		t->oom ? "true" : "false");
	for (k = 0; k < t->ntemplates; k++) {
		fputs(k ? "," : "", out);
		jstr(out, t->templates[k], strlen(t->templates[k]));
	}
	fprintf(out, "%s\"(other)\"],\"verdicts\":[", k ? "," : "");
	for (k = 0; k < IMA_EV_COUNT; k++)
		fprintf(out, "%s\"%s\"", k ? "," : "",
			ima_entry_verdict_name(k));
	fputs("],\"rows\":[", out);
	for (i = 0; i < t->nrows; i++) {
		const struct ima_table_row *r = &t->rows[i];
		bool failed;

		/* both in index order: the failures naming this entry */
		while (f < a->nfailures && a->failures[f].index < r->index)
			f++;
		failed = f < a->nfailures && a->failures[f].index == r->index;
		fprintf(out, "%s[%" PRIu64 ",%" PRIu64 ",%u,%u,", i ? ",\n" : "\n",
			r->index, r->offset, r->pcr, r->tmpl);
		if (r->path_off == SIZE_MAX)
			fputs("null", out);
		else
			jstr(out, t->arena + r->path_off, r->path_len);
		fprintf(out, ",%u,", r->path_full);
		if (r->alg) {
			ima_bin2hex(r->digest, r->dlen, hx);
			fprintf(out, "\"%s:%s\"", r->alg, hx);
		} else {
			fputs("\"\"", out);
		}
		if (r->sig == IMA_ES_V2)
			fprintf(out, ",\"%08" PRIx32 "\"", r->keyid);
		else
			fprintf(out, ",\"%s\"", r->sig == IMA_ES_MODSIG ?
				"modsig" : r->sig == IMA_ES_OTHER ?
				"unparsed" : "");
		fprintf(out, ",%d,%d]", r->violation ? 1 : 0,
			ima_entry_verdict(a, r->pcr, r->index, failed));
	}
	fputs("]}", out);
}

static int json_data(FILE *out, const struct ima_audit *a,
		     const struct ima_table *t)
{
	const struct ima_audit_opts *o = a->opts;
	const char *input = o->input_name ? o->input_name : "-";
	size_t i;
	int c;

	fputs("{\"format\":\"ima-audit-page/1\",\"input\":", out);
	jstr(out, input, strlen(input));
	fputs(",\"report\":", out);
	ima_report_json(a, out);
	fputs(",\"binding\":", out);
	if (json_lines(out, a, ima_report_binding))
		return -1;
	fputs(",\"kernels\":[{\"entry\":0}", out);
	for (i = 0; i < a->nkstarts; i++)
		fprintf(out, ",{\"entry\":%" PRIu64 ",\"pcr\":%" PRIu32 "}",
			a->kstarts[i].index, a->kstarts[i].pcr);
	fprintf(out, "],\"kernel_start\":%" PRIu64, a->kernel_start);
	fputs(",\"policy\":{\"recorded\":", out);
	jstr_or_null(out, a->policy_found ? a->policy : NULL, a->policy_len);
	fputs(",\"expected\":", out);
	jstr_or_null(out, o->expect_policy, o->expect_policy_len);
	fputs(",\"expected_name\":", out);
	jstr_or_null(out, o->expect_policy_name,
		     o->expect_policy_name ? strlen(o->expect_policy_name) : 0);
	fputs("},\"keys\":[", out);
	for (i = 0; i < o->keys.n; i++) {
		const struct ima_key *k = &o->keys.keys[i];

		fprintf(out, "%s{\"keyid\":\"%08" PRIx32 "\",\"file\":",
			i ? "," : "", k->keyid);
		jstr_or_null(out, k->file, k->file ? strlen(k->file) : 0);
		fputc('}', out);
	}
	fputs("],\"advice\":{", out);
	for (c = 0; c < IMA_FC_COUNT; c++) {
		const char *adv = ima_fail_class_advice(c);

		fprintf(out, "%s\"%s\":", c ? "," : "", ima_fail_class_name(c));
		jstr_or_null(out, adv, adv ? strlen(adv) : 0);
	}
	fputs("},\"table\":", out);
	json_table(out, a, t);
	fputs("}", out);
	return 0;
}

int ima_report_html(const struct ima_audit *a, const struct ima_table *t,
		    FILE *out)
{
	static const char *const ids[] = { "ima-data" };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	const char *json[1];
	int rc = -1;

	if (!m)
		return -1;
	if (json_data(m, a, t) || fclose(m)) {
		if (!buf)
			errno = ENOMEM;
		free(buf);
		return -1;
	}
	json[0] = buf;
	rc = ima_html_page(out, ids, json, &len, 1);
	free(buf);
	return rc;
}

int ima_html_write_file(const char *path,
			int (*fn)(void *arg, FILE *out), void *arg)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 16);
	FILE *f = NULL;
	int fd, err;

	if (!tmp)
		return -1;
	snprintf(tmp, n + 16, "%s.tmp-XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		goto fail;
	if (fchmod(fd, 0644) || !(f = fdopen(fd, "w"))) {
		close(fd);
		goto fail_unlink;
	}
	if (fn(arg, f) || fflush(f) || ferror(f)) {
		fclose(f);
		goto fail_unlink;
	}
	if (fclose(f) || rename(tmp, path))
		goto fail_unlink;
	free(tmp);
	return 0;
fail_unlink:
	err = errno;
	unlink(tmp);
	errno = err;
fail:
	free(tmp);
	return -1;
}
