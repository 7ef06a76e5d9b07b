// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sha256sum-line reader (ima_sumline.h) that --manifest and --deny
 * share: every form, the escapes coreutils writes, and what is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ima_sumline.h"
#include "unit_main.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define H64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define H40 "0123456789abcdef0123456789abcdef01234567"

static int parse(const char *line, unsigned int flags, struct ima_sumline *s,
		 char *pathbuf, char *err)
{
	return ima_sumline_parse(line, strlen(line), flags, s, pathbuf, err,
				 256);
}

static void test_forms(void **state)
{
	static const struct {
		const char *line, *alg, *path;
		bool binary, tag;
	} ok[] = {
		{ H64 "  /usr/bin/a", "sha256", "/usr/bin/a", false, false },
		{ H64 " *./b", "sha256", "./b", true, false },
		{ H40 " /c d", "sha1", "/c d", false, false },
		{ "sha512:" H64 H64 " /e", "sha512", "/e", false, false },
		{ "SHA256 (/odd ) = name) = " H64, "sha256", "/odd ) = name",
		  false, true },
		{ "\\SHA256 (/a\\nb) = " H64, "sha256", "/a\nb", false, true },
		{ "\\" H64 "  /x\\\\y\\rz", "sha256", "/x\\y\rz", false, false },
		{ "  \t" H64 "  /lead", "sha256", "/lead", false, false },
		{ "sm3:" H64 "  /s", "sm3", "/s", false, false },
	};
	struct ima_sumline s;
	char buf[512], err[256];
	size_t i;

	for (i = 0; i < N(ok); i++) {
		if (parse(ok[i].line, IMA_SUM_NEED_PATH, &s, buf, err) !=
		    IMA_SUM_ENTRY)
			fail_msg("'%s': %s", ok[i].line, err);
		assert_string_equal(s.alg->name, ok[i].alg);
		assert_int_equal(s.path_len, strlen(ok[i].path));
		assert_memory_equal(s.path, ok[i].path, s.path_len);
		assert_int_equal(s.binary, ok[i].binary);
		assert_int_equal(s.tag, ok[i].tag);
		assert_int_equal(s.digest[0], 0x01);
	}
	assert_int_equal(parse("", 0, &s, buf, err), IMA_SUM_EMPTY);
	assert_int_equal(parse("  # note", 0, &s, buf, err), IMA_SUM_EMPTY);
	assert_int_equal(parse(H64, 0, &s, buf, err), IMA_SUM_ENTRY);
	assert_null(s.path);
	assert_int_equal(parse("\r", IMA_SUM_CRLF, &s, buf, err),
			 IMA_SUM_EMPTY);
	assert_int_equal(parse(H64 "\r", IMA_SUM_CRLF, &s, buf, err),
			 IMA_SUM_ENTRY);
	assert_int_equal(parse(H64 "  /p\r", IMA_SUM_CRLF, &s, buf, err),
			 IMA_SUM_ENTRY);
	assert_int_equal(s.path_len, 2);
}

static void test_refused(void **state)
{
	static const struct {
		const char *line, *why;
		unsigned int flags;
	} bad[] = {
		{ H64, "missing path", IMA_SUM_NEED_PATH },
		{ "abc  /x", "a digest of 3 hex digits", 0 },
		{ "sha256:abcd", "sha256 digest of 4 hex digits", 0 },
		{ "nope:00", "unknown algorithm 'nope'", 0 },
		{ "md5:d41d8cd98f00b204e9800998ecf8427e  /x", "md5 digests are collision-prone", 0 },
		{ "MD5 (/x) = d41d8cd98f00b204e9800998ecf8427e", "md5 digests are collision-prone", 0 },
		{ "d41d8cd98f00b204e9800998ecf8427e  /x", "32 hex digits is of no algorithm", 0 },
		{ "SHA256 (x) = zz", "trailing characters after the digest", 0 },
		{ "SHA256 (x) =", "not 'ALG (PATH) = HEX'", 0 },
		{ "BLAKE2b (x) = " H64, "unknown algorithm 'BLAKE2b'", 0 },
		{ "xyz", "expected 'HEX [PATH]'", 0 },
		{ "\\" H64 "  /a\\tb", "byte 70: escape '\\x5ct'", 0 },
		{ "\\" H64 "  /a\\", "escape '\\x5c'", 0 },
		{ H64 "  /crlf\r", "the path ends in a carriage return", 0 },
	};
	struct ima_sumline s;
	char buf[512], err[256];
	size_t i;

	for (i = 0; i < N(bad); i++) {
		if (parse(bad[i].line, bad[i].flags, &s, buf, err) !=
		    IMA_SUM_ERROR)
			fail_msg("'%s' was accepted", bad[i].line);
		if (!strstr(err, bad[i].why))
			fail_msg("'%s': '%s' lacks '%s'", bad[i].line, err,
				 bad[i].why);
	}
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_forms),
	cmocka_unit_test(test_refused))
