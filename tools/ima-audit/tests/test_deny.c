// SPDX-License-Identifier: GPL-2.0-only
/*
 * The deny list's forms (sha256sum, -b, --tag, ALG:HEX, a Keylime
 * runtime policy) and what each line that is none of them is refused
 * for, with its line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ima_deny.h"
#include "refusals.h"
#include "unit_main.h"

/* 64 hex digits c (8 buffers in turn: several in one printf) */
static const char *h64(char c)
{
	static char bufs[8][65];
	static int next;
	char *s = bufs[next++ % 8];

	memset(s, c, 64);
	s[64] = '\0';
	return s;
}

static struct ima_denylist *parse(const char *text, char *err)
{
	struct ima_denylist *d = ima_deny_new();

	assert_non_null(d);
	if (ima_deny_parse(d, text, strlen(text), "deny", err, 256)) {
		ima_deny_free(d);
		return NULL;
	}
	return d;
}

/* text read whole: a list of count digests */
static struct ima_denylist *parsed(const char *text, size_t count)
{
	char err[256];
	struct ima_denylist *d = parse(text, err);

	if (!d)
		fail_msg("%s", err);
	assert_int_equal(ima_deny_count(d), count);
	return d;
}

static unsigned long find(const struct ima_denylist *d, const char *alg,
			  char c)
{
	const struct ima_hash_algo *a = ima_hash_by_name(alg, (size_t)-1);
	uint8_t dig[64];

	memset(dig, (c >= 'a' ? c - 'a' + 10 : c - '0') * 0x11, sizeof(dig));
	return ima_deny_find(d, a, dig, a->size);
}

static void test_line_forms(void **state)
{
	struct ima_denylist *d;
	char text[2048];

	snprintf(text, sizeof(text),
		 "# revoked\n"
		 "%s  /usr/bin/a\n"			/* sha256sum */
		 "%.40s *./bin/b\n"			/* -b, sha1 */
		 "SHA256 (/odd ) = name) = %.64s\n"	/* --tag */
		 "\n"
		 "sha512:%s%s\n"			/* ALG:HEX, no path */
		 "\\%.64s  /a\\\\nb\n"			/* escaped name */
		 "%.64s\r\n",				/* CRLF */
		 h64('a'), h64('b'), h64('c'), h64('d'), h64('d'), h64('e'),
		 h64('f'));
	d = parsed(text, 6);
	assert_int_equal(find(d, "sha256", 'a'), 2);
	assert_int_equal(find(d, "sha1", 'b'), 3);
	assert_int_equal(find(d, "sha256", 'c'), 4);
	assert_int_equal(find(d, "sha512", 'd'), 6);
	assert_int_equal(find(d, "sha256", 'e'), 7);
	assert_int_equal(find(d, "sha256", 'f'), 8);
	assert_int_equal(find(d, "sha256", 'b'), 0);
	assert_int_equal(find(d, "sha1", 'a'), 0);
	assert_true(ima_deny_has_algo(d, ima_hash_by_name("sha1", 4)));
	assert_false(ima_deny_has_algo(d, ima_hash_by_name("sha384", 6)));
	ima_deny_free(d);
}

/* text refused, its error in err */
static bool deny_refuses(const char *text, char *err)
{
	return !parse(text, err);
}

static void test_refused_lines(void **state)
{
	static const struct refusal bad[] = {
		{ "abc  /x\n", "deny:1: a digest of 3 hex digits" },
		{ "\nsha256:abcd\n", "deny:2: sha256 digest of 4 hex digits" },
		{ "nope:00\n", "unknown algorithm 'nope'" },
		{ "SHA256 (x) = zz\n", "trailing characters after the digest" },
		{ "SHA256 (x) =\n", "not 'ALG (PATH) = HEX'" },
		{ "xyz\n", "expected 'HEX [PATH]'" },
		{ "00g0\n", "expected 'HEX [PATH]'" },
	};

	REFUSED_ALL(bad, deny_refuses);
}

static void test_keylime_policy(void **state)
{
	struct ima_denylist *d;
	char text[2048], err[256];

	snprintf(text, sizeof(text),
		 "{\"meta\": {\"version\": 1, \"x\": [1.5e3, -2, true, null]},\n"
		 " \"digests\": {\n"
		 "  \"/usr/bin/a\": [\"%s\"],\n"
		 "  \"/p\\\"q\": [\"%.40s\", \"%s\"]\n"
		 " },\n"
		 " \"excludes\": [], \"keyrings\": {}}\n",
		 h64('1'), h64('2'), h64('3'));
	d = parsed(text, 3);
	assert_int_equal(find(d, "sha256", '1'), 3);
	assert_int_equal(find(d, "sha1", '2'), 4);
	assert_int_equal(find(d, "sha256", '3'), 4);
	ima_deny_free(d);
	assert_null(parse("{\"excludes\": []}", err));
	assert_non_null(strstr(err, "no \"digests\" object"));
	assert_null(parse("{\"digests\": {\"/a\": \"00\"}}", err));
	assert_non_null(strstr(err, "not a JSON array"));
	assert_null(parse("{\"digests\": {\"/a\": [1]}}", err));
	assert_non_null(strstr(err, "not a JSON string"));
	assert_null(parse("{\"digests\": {}} x", err));
	assert_non_null(strstr(err, "bytes after the JSON object"));
	assert_null(parse("{\"digests\": {\"/a\": [\"00", err));
	assert_non_null(strstr(err, "unterminated"));
	/* nesting is bounded */
	snprintf(text, sizeof(text), "{\"x\": %.*s", 200,
		 "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[");
	assert_null(parse(text, err));
	assert_non_null(strstr(err, "nested too deep"));
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_line_forms),
	cmocka_unit_test(test_refused_lines),
	cmocka_unit_test(test_keylime_policy))
