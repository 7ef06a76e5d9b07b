// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page: each entry's verdict (every branch of the rule), data that
 * cannot leave its <script> block, the CSP naming the page's own inline
 * script and style, and an audit drawn end to end with a hostile name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "ima_audit.h"
#include "ima_html.h"
#include "testbuf.h"
#include "unit_main.h"

static char *embed(const char *json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ima_html_embed(f, "d", json, strlen(json));
	fclose(f);
	return buf;
}

static void test_embed_cannot_close_the_block(void **state)
{
	char *s = embed("{\"p\":\"</script><script>alert(1)</script><!--&amp;>\"}");
	const char *body = strchr(s, '>') + 1;
	const char *end = strstr(body, "</script>");

	assert_non_null(end);
	/* the block's own closing tag is the only '<' after its opening */
	assert_string_equal(end, "</script>\n");
	assert_null(memchr(body, '<', (size_t)(end - body)));
	assert_null(memchr(body, '>', (size_t)(end - body)));
	assert_null(memchr(body, '&', (size_t)(end - body)));
	assert_non_null(strstr(body, "\\u003c/script\\u003e\\u003cscript\\u003e"));
	assert_non_null(strstr(body, "\\u003c!--\\u0026amp;\\u003e"));
	free(s);
}

/* An audit state made by hand: PCR 10 bound, covered through entry 4. */
static void covered_through(struct ima_audit *a, struct ima_audit_opts *o,
			    int64_t last)
{
	memset(a, 0, sizeof(*a));
	memset(o, 0, sizeof(*o));
	a->opts = o;
	a->bound = 1u << 10;
	a->replay.cover_ok[10] = true;
	a->replay.cover_index[10] = last;
}

static void test_entry_verdict_rule(void **state)
{
	static struct ima_audit_opts o;
	static struct ima_audit a;

	covered_through(&a, &o, 4);
	assert_int_equal(ima_entry_verdict(&a, 10, 4, false), IMA_EV_OK);
	assert_int_equal(ima_entry_verdict(&a, 10, 0, false), IMA_EV_OK);
	/* a failure that names it */
	assert_int_equal(ima_entry_verdict(&a, 10, 4, true), IMA_EV_FAIL);
	/* after the covered prefix: attested by nothing */
	assert_int_equal(ima_entry_verdict(&a, 10, 5, false), IMA_EV_UNPROVEN);
	o.allow_uncovered = true;
	assert_int_equal(ima_entry_verdict(&a, 10, 5, false), IMA_EV_WAIVED);
	assert_int_equal(ima_entry_verdict(&a, 10, 4, false), IMA_EV_OK);
	/* a PCR nothing binds, waived or not */
	assert_int_equal(ima_entry_verdict(&a, 11, 0, false), IMA_EV_UNPROVEN);
	o.ignore_pcrs = 1u << 11;
	assert_int_equal(ima_entry_verdict(&a, 11, 0, false), IMA_EV_WAIVED);
	assert_int_equal(ima_entry_verdict(&a, 24, 0, false), IMA_EV_UNPROVEN);
	/* banks disagree or a value matches no prefix: no coverage at all,
	 * which --allow-uncovered does not waive */
	a.replay.cover_ok[10] = false;
	assert_int_equal(ima_entry_verdict(&a, 10, 0, false), IMA_EV_UNPROVEN);
	assert_int_equal(ima_entry_verdict(&a, 10, 5, false), IMA_EV_UNPROVEN);
	/* covers nothing: cover_index -1 */
	covered_through(&a, &o, -1);
	assert_int_equal(ima_entry_verdict(&a, 10, 0, false), IMA_EV_UNPROVEN);
	/* an incomplete audit proves nothing of an entry without a failure */
	covered_through(&a, &o, 4);
	a.failure_count = 3;
	a.nfailures = 2;
	assert_int_equal(ima_entry_verdict(&a, 10, 0, false), IMA_EV_UNPROVEN);
	assert_int_equal(ima_entry_verdict(&a, 10, 0, true), IMA_EV_FAIL);
	covered_through(&a, &o, 4);
	a.malformed = true;
	assert_int_equal(ima_entry_verdict(&a, 10, 0, false), IMA_EV_UNPROVEN);
	covered_through(&a, &o, 4);
	a.oom = true;
	assert_int_equal(ima_entry_verdict(&a, 10, 0, false), IMA_EV_UNPROVEN);
	covered_through(&a, &o, 4);
	a.io_error = true;
	assert_int_equal(ima_entry_verdict(&a, 10, 0, false), IMA_EV_UNPROVEN);
	assert_string_equal(ima_entry_verdict_name(IMA_EV_WAIVED), "waived");
	assert_string_equal(ima_entry_verdict_name(-1), "unproven");
}

static void test_every_class_has_advice(void **state)
{
	int c;

	for (c = 0; c < IMA_FC_COUNT; c++)
		assert_non_null(ima_fail_class_advice(c));
	assert_null(ima_fail_class_advice(IMA_FC_COUNT));
}

/* One ima-ng record (testbuf.h); its template data's sha256 goes to tdig. */
static size_t record(uint8_t *out, const char *path, size_t plen,
		     uint8_t tdig[32])
{
	static const uint8_t digest[32] = { 0x42 };
	struct buf b = { .n = 0 };

	put_ng_record(&b, digest, path, plen, tdig);
	memcpy(out, b.d, b.n);
	return b.n;
}

static void extend(uint8_t pcr[32], const uint8_t d[32])
{
	uint8_t buf[64];

	memcpy(buf, pcr, 32);
	memcpy(buf + 32, d, 32);
	ima_digest(ima_hash_by_name("sha256", 6), buf, 64, pcr);
}

static char *page_of(const uint8_t *log, size_t n, struct ima_audit_opts *o,
		     size_t *len)
{
	static struct ima_table t;
	struct ima_reader r;
	struct ima_audit a;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	ima_table_init(&t);
	o->on_record = ima_table_record;
	o->record_ctx = &t;
	ima_reader_init_mem(&r, log, n, NULL);
	assert_int_equal(ima_audit_init(&a, o), 0);
	ima_audit_run(&a, &r);
	assert_int_equal(ima_report_html(&a, &t, f), 0);
	fclose(f);
	assert_int_equal(t.nrows, 3);
	ima_audit_free(&a);
	ima_table_free(&t);
	return buf;
}

static const char hostile[] = "/x</script><script>alert(1)</script>\n<!--";

static void test_page_end_to_end(void **state)
{
	static struct ima_audit_opts o;
	uint8_t log[2048], d[32], pcr[32] = { 0 };
	const char *data, *end, *rows;
	size_t n = 0, len;
	char *page;

	n += record(log + n, "boot_aggregate", 14, d);
	extend(pcr, d);
	n += record(log + n, hostile, sizeof(hostile) - 1, d);
	extend(pcr, d);
	n += record(log + n, "/bin/late", 9, d);
	/* PCR 10 as read after the second entry: the third is uncovered */
	o.pcr_mask = 1u << 10;
	o.banks = 3;
	o.pcrs.have[IMA_BANK_SHA256] = 1u << 10;
	memcpy(o.pcrs.val[IMA_BANK_SHA256][10], pcr, 32);
	o.allow_uncovered = true;
	page = page_of(log, n, &o, &len);
	assert_int_equal(strlen(page), len);

	/* exactly three script elements: the data and the page's own JS */
	data = strstr(page, "<script type=\"application/json\" id=\"ima-data\">");
	assert_non_null(data);
	end = strstr(data, "</script>");
	assert_null(memmem(data + 10, (size_t)(end - data - 10), "<", 1));
	assert_non_null(memmem(data, (size_t)(end - data),
			       "\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\n\\u003c!--",
			       strlen("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\n\\u003c!--")));
	assert_null(strstr(page, "<script>alert"));
	/* verdicts (the last field of a row) from how the log was built:
	 * two covered entries ok (0), the third after the prefix waived (2) */
	rows = strstr(data, "\"rows\":[");
	assert_non_null(rows);
	assert_non_null(strstr(rows, "[0,0,10,0,\"boot_aggregate\",14,\"sha256:42"));
	assert_non_null(strstr(rows, ",\"\",0,0]"));
	assert_non_null(strstr(rows, "\"/bin/late\",9,\"sha256:42"));
	assert_non_null(strstr(rows, ",\"\",0,2]]"));
	assert_non_null(strstr(data, "\"result\":\"pass\""));
	free(page);

	/* without the waiver the third entry fails as uncovered */
	o.allow_uncovered = false;
	page = page_of(log, n, &o, &len);
	rows = strstr(page, "\"rows\":[");
	assert_non_null(strstr(rows, ",\"\",0,1]]"));
	assert_non_null(strstr(page, "\"result\":\"fail\""));
	free(page);
}

/* The CSP names the sha256 of the page's inline script and style. */
static void test_csp_names_the_inline_code(void **state)
{
	static struct ima_audit_opts o;
	const char *tags[][3] = { { "<script>", "</script>", "script-src 'sha256-" },
				  { "<style>", "</style>", "style-src 'sha256-" } };
	uint8_t log[1024], d[32], md[32];
	unsigned char b64[64];
	size_t n = 0, len, i;
	char *page;

	for (i = 0; i < 3; i++)
		n += record(log + n, i ? "/bin/x" : "boot_aggregate",
			    i ? 6 : 14, d);
	o.pcr_mask = 1u << 10;
	o.banks = 3;
	page = page_of(log, n, &o, &len);
	for (i = 0; i < 2; i++) {
		const char *s = strstr(page, tags[i][0]);
		const char *e, *csp;

		assert_non_null(s);
		s += strlen(tags[i][0]);
		e = strstr(s, tags[i][1]);
		assert_non_null(e);
		ima_digest(ima_hash_by_name("sha256", 6), s, (size_t)(e - s), md);
		EVP_EncodeBlock(b64, md, 32);
		csp = strstr(page, tags[i][2]);
		assert_non_null(csp);
		assert_memory_equal(csp + strlen(tags[i][2]), b64, 44);
		/* one of each, and the code never closes its own element
		 * nor opens what would change how the parser reads it */
		assert_null(strstr(e + 1, tags[i][0]));
		assert_null(memmem(s, (size_t)(e - s), "<!--", 4));
		assert_null(memmem(s, (size_t)(e - s), "<script", 7));
		assert_null(memmem(s, (size_t)(e - s), "</", 2));
	}
	assert_non_null(strstr(page, "default-src 'none'"));
	free(page);
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_embed_cannot_close_the_block),
	cmocka_unit_test(test_entry_verdict_rule),
	cmocka_unit_test(test_every_class_has_advice),
	cmocka_unit_test(test_page_end_to_end),
	cmocka_unit_test(test_csp_names_the_inline_code))
