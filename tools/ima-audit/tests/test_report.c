// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output escaping and the audit engine end to end on a small log.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ima_audit.h"
#include "testbuf.h"
#include "unit_main.h"

static char *capture(void (*fn)(FILE *, const char *, size_t),
		     const char *s, size_t len)
{
	static char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	fn(f, s, len);
	fclose(f);
	return buf;
}

static void test_json_escape(void **state)
{
	assert_string_equal(capture(ima_json_escape, "a\"b\\c\n\x01", 7),
			    "a\\\"b\\\\c\\n\\u0001");
	/* valid UTF-8 passes, invalid bytes become code points */
	assert_string_equal(capture(ima_json_escape, "\xc3\xa9", 2),
			    "\xc3\xa9");
	assert_string_equal(capture(ima_json_escape, "\xff\xc3", 2),
			    "\\u00ff\\u00c3");
	assert_string_equal(capture(ima_json_escape, "\xed\xa0\x80", 3),
			    "\\u00ed\\u00a0\\u0080");
}

static void test_text_escape(void **state)
{
	assert_string_equal(capture(ima_text_escape, "/a b\n\\\xff", 7),
			    "/a b\\x0a\\x5c\\xff");
}

/* the buffer form: the same escapes, cut short only between them */
static void test_escape_buffer(void **state)
{
	char out[16];

	assert_int_equal(ima_escape(out, sizeof(out), "a\nb\x1b\\", 5), 14);
	assert_string_equal(out, "a\\x0ab\\x1b\\x5c");
	/* 5 bytes room: "ab" and no half escape of the newline */
	assert_int_equal(ima_escape(out, 5, "ab\ncd", 5), 2);
	assert_string_equal(out, "ab");
	assert_int_equal(ima_escape(out, 7, "ab\ncd", 5), 6);
	assert_string_equal(out, "ab\\x0a");
	assert_int_equal(ima_escape(out, 1, "ab", 2), 0);
	assert_string_equal(out, "");
	assert_int_equal(ima_escape(out, 0, "ab", 2), 0);
}

/* One ima-ng record (testbuf.h), its template hash spoilt if bad_hash. */
static size_t record(uint8_t *out, const char *path, int bad_hash)
{
	static const uint8_t digest[32] = { 0x42 };
	struct buf b = { .n = 0 };

	put_ng_record(&b, digest, path, strlen(path), NULL);
	b.d[4] ^= (uint8_t)bad_hash;	/* the template hash's first byte */
	memcpy(out, b.d, b.n);
	return b.n;
}

static void test_audit_failures_are_reported(void **state)
{
	static struct ima_audit_opts opts;
	struct ima_reader r;
	struct ima_audit a;
	uint8_t log[1024];
	size_t n = 0;

	n += record(log + n, "boot_aggregate", 0);
	n += record(log + n, "/bin/good", 0);
	n += record(log + n, "/bin/bad", 1);
	opts.pcr_mask = 1u << 10;
	opts.banks = 3;
	opts.require_signatures = true;
	opts.ignore_pcrs = 1u << 10;	/* binding: test_audit_binding */
	ima_reader_init_mem(&r, log, n, NULL);
	assert_int_equal(ima_audit_init(&a, &opts), 0);
	ima_audit_run(&a, &r);
	assert_int_equal(a.entries, 3);
	assert_int_equal(a.tmpl_failed, 1);
	assert_int_equal(a.sig.unsigned_, 2);
	/* template hash mismatch + two unsigned entries */
	assert_int_equal(a.failure_count, 3);
	assert_int_equal(a.failures[0].index, 1);
	assert_string_equal(a.failures[1].reason, "template hash mismatch");
	assert_string_equal(a.failures[1].path, "/bin/bad");
	assert_int_equal(ima_audit_exit_code(&a), IMA_EXIT_FAIL);
	ima_audit_free(&a);

	/* truncated: malformed wins */
	ima_reader_init_mem(&r, log, n - 3, NULL);
	opts.require_signatures = false;
	assert_int_equal(ima_audit_init(&a, &opts), 0);
	ima_audit_run(&a, &r);
	assert_true(a.malformed);
	assert_int_equal(ima_audit_exit_code(&a), IMA_EXIT_MALFORMED);
	ima_audit_free(&a);
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_json_escape),
	cmocka_unit_test(test_text_escape),
	cmocka_unit_test(test_escape_buffer),
	cmocka_unit_test(test_audit_failures_are_reported))
