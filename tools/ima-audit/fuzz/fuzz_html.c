// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: an arbitrary measurement list drawn as the page
 * (entry table, each entry's verdict, the embedded data). Whatever the
 * list holds, the page keeps its shape: one data block in which no '<',
 * '>' or '&' stands, then the page's own script, and no comment but the
 * template's two; anything else aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ima_audit.h"
#include "ima_html.h"

static struct ima_audit_opts opts;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char pcrs[] =
		"sha256:10 0000000000000000000000000000000000000000000000000000000000000000\n";
	char err[256];

	(void)argc;
	(void)argv;
	opts.pcr_mask = 1u << 10 | 1u << 11;
	opts.ignore_pcrs = 1u << 11;
	opts.expect_policy = (const uint8_t *)"measure func=FILE_CHECK\n";
	opts.expect_policy_len = 24;
	opts.expect_policy_name = "policy</script>";
	opts.cache_slots = 256;
	opts.reader.max_entry = 1 << 16;
	return ima_pcr_parse_text(&opts.pcrs, pcrs, sizeof(pcrs) - 1, "f",
				  err, sizeof(err));
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s++;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char open_tag[] =
		"<script type=\"application/json\" id=\"ima-data\">";
	struct ima_table t;
	struct ima_reader r;
	struct ima_audit a;
	char *page = NULL, *body, *end;
	size_t len = 0;
	FILE *f;

	opts.banks = 3;
	opts.allow_uncovered = size && data[0] & 1;
	ima_table_init(&t);
	opts.on_record = ima_table_record;
	opts.record_ctx = &t;
	ima_reader_init_mem(&r, data, size, &opts.reader);
	if (ima_audit_init(&a, &opts))
		goto out;
	ima_audit_run(&a, &r);
	f = open_memstream(&page, &len);
	if (!f || ima_report_html(&a, &t, f) || fclose(f))
		abort();
	body = strstr(page, open_tag);
	if (!body || count(page, "</script") != 2 || count(page, "<!--") != 2)
		abort();
	body += sizeof(open_tag) - 1;
	end = strstr(body, "</script>");
	if (!end || memchr(body, '<', (size_t)(end - body)) ||
	    memchr(body, '>', (size_t)(end - body)) ||
	    memchr(body, '&', (size_t)(end - body)) ||
	    strncmp(end, "</script>\n", 10))
		abort();
	free(page);
	ima_audit_free(&a);
out:
	ima_table_free(&t);
	ima_reader_free(&r);
	return 0;
}
