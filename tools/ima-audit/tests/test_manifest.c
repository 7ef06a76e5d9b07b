// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reference manifest parsing and lookups.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ima_manifest.h"
#include "unit_main.h"

#define H1 "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"
#define H256X "0f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
#define H256 "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

static const struct ima_hash_algo *alg(const char *name)
{
	return ima_hash_by_name(name, strlen(name));
}

static void digest_of(const char *hex, uint8_t *out)
{
	ima_hex2bin(hex, strlen(hex), out, 64);
}

static int check(struct ima_manifest *m, const char *path, const char *a,
		 const char *hex)
{
	uint8_t d[64];

	digest_of(hex, d);
	return ima_manifest_check(m, path, strlen(path), alg(a), d,
				  strlen(hex) / 2);
}

/* text read whole (as "m"): a manifest of npaths paths */
static struct ima_manifest *parsed(const char *text, size_t len,
				   size_t npaths)
{
	struct ima_manifest *m = ima_manifest_new();
	char err[256];

	assert_non_null(m);
	if (ima_manifest_parse(m, text, len, "m", err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(ima_manifest_paths(m), npaths);
	return m;
}

static void test_formats(void **state)
{
	static const char text[] =
		"# reference\n"
		H256 "  /bin/sh\n"			/* sha256sum text */
		H256 " */bin/bash\n"			/* sha256sum binary */
		"sha1:" H1 " /bin/sh\n"			/* second digest */
		"SHA256:" H256 " /usr/bin/with space\n"
		"\\" H256 "  /odd\\nname\\\\x\n"	/* escaped name */
		"\n";
	struct ima_manifest *m = parsed(text, sizeof(text) - 1, 4);

	assert_int_equal(check(m, "/bin/sh", "sha256", H256), IMA_MF_MATCH);
	assert_int_equal(check(m, "/bin/sh", "sha1", H1), IMA_MF_MATCH);
	assert_int_equal(check(m, "/bin/bash", "sha256", H256), IMA_MF_MATCH);
	assert_int_equal(check(m, "/usr/bin/with space", "sha256", H256),
			 IMA_MF_MATCH);
	assert_int_equal(check(m, "/odd\nname\\x", "sha256", H256),
			 IMA_MF_MATCH);
	assert_int_equal(check(m, "/bin/bash", "sha1", H1), IMA_MF_NO_ALGO);
	assert_int_equal(check(m, "/bin/sh", "sha256",
			       H256X), IMA_MF_WRONG_DIGEST);
	assert_int_equal(check(m, "/bin/zsh", "sha256", H256),
			 IMA_MF_UNKNOWN_PATH);
	ima_manifest_free(m);
}

static void test_errors(void **state)
{
	static const char *bad[] = {
		"xyz /bin/sh\n",
		"md9:" H1 " /bin/sh\n",
		H1 "\n",
		"sha256:" H1 " /bin/sh\n",
	};
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ima_manifest *m = ima_manifest_new();

		assert_int_equal(ima_manifest_parse(m, bad[i], strlen(bad[i]),
						    "m", err, sizeof(err)),
				 -1);
		assert_non_null(strstr(err, "m:1:"));
		ima_manifest_free(m);
	}
}

/*
 * Names as coreutils' sha256sum writes them: on a line starting with '\',
 * "\\" "\n" and (9.0) "\r" are a backslash, a newline and a carriage
 * return; nothing else is an escape, so anything else is refused with the
 * line number, never read as another path. Before, "\t" read as "t" and
 * "\r" as "r" (another file's name), and a raw carriage return at the end
 * of a name was dropped.
 */
static void test_coreutils_escapes(void **state)
{
	static const char text[] =
		"\\" H256 "  /a\\rb\n"			/* coreutils 9 */
		"\\" H256 "  /c\\\\d\\ne\n"
		H256 "  /raw\\name\n"			/* not a '\'-line */
		H256 "  /mid\rcr\n";			/* raw CR inside */
	static const struct {
		const char *line, *err;
	} bad[] = {
		{ "\\" H256 "  /usr/bin/\\tool\n", "m:1: byte 77: escape '\\x5ct'" },
		{ "\\" H256 "  /x\\\n", "m:1: byte 70: escape '\\x5c'" },
		{ "\\" H256 "  /x\\x41\n", "escape '\\x5cx'" },
		{ "\\" H256 "  /x\\0\n", "escape '\\x5c0'" },
		{ H256 "  /crlf\r\n", "m:1: the path ends in a carriage return" },
		{ "\\" H256 "  /crlf\r\n", "m:1: the path ends in a carriage return" },
	};
	struct ima_manifest *m = parsed(text, sizeof(text) - 1, 4);
	char err[512];
	size_t i;

	assert_int_equal(check(m, "/a\rb", "sha256", H256), IMA_MF_MATCH);
	assert_int_equal(check(m, "/arb", "sha256", H256), IMA_MF_UNKNOWN_PATH);
	assert_int_equal(check(m, "/c\\d\ne", "sha256", H256), IMA_MF_MATCH);
	assert_int_equal(check(m, "/raw\\name", "sha256", H256), IMA_MF_MATCH);
	assert_int_equal(check(m, "/mid\rcr", "sha256", H256), IMA_MF_MATCH);
	ima_manifest_free(m);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		m = ima_manifest_new();
		assert_int_equal(ima_manifest_parse(m, bad[i].line,
						    strlen(bad[i].line), "m",
						    err, sizeof(err)), -1);
		if (!strstr(err, bad[i].err))
			fail_msg("line %zu: '%s' lacks '%s'", i, err,
				 bad[i].err);
		assert_int_equal(ima_manifest_paths(m), 0);
		ima_manifest_free(m);
	}
}

/*
 * md4 and md5 are collision-prone: a manifest line naming them is refused
 * (before, "md5:HEX PATH" was a reference that a file with the same md5
 * matched). A bare 32-digit digest was never taken as md5.
 */
static void test_weak_digests_refused(void **state)
{
	static const char *bad[] = {
		"md5:d41d8cd98f00b204e9800998ecf8427e  /bin/sh\n",
		"MD5:d41d8cd98f00b204e9800998ecf8427e  /bin/sh\n",
		"md4:31d6cfe0d16ae931b73c59d7e0c089c0  /bin/sh\n",
		"d41d8cd98f00b204e9800998ecf8427e  /bin/sh\n",
	};
	char err[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ima_manifest *m = ima_manifest_new();

		assert_int_equal(ima_manifest_parse(m, bad[i], strlen(bad[i]),
						    "m", err, sizeof(err)), -1);
		assert_non_null(strstr(err, "m:1:"));
		if (i < 3)
			assert_non_null(strstr(err, "collision-prone"));
		assert_int_equal(ima_manifest_paths(m), 0);
		ima_manifest_free(m);
	}
	assert_true(ima_hash_collision_prone(alg("md5")));
	assert_true(ima_hash_collision_prone(alg("md4")));
	assert_false(ima_hash_collision_prone(alg("sha1")));
	assert_false(ima_hash_collision_prone(alg("sha256")));
}

static void test_100k_paths(void **state)
{
	struct ima_manifest *m = ima_manifest_new();
	uint8_t d[32] = { 0 };
	char path[64], err[256], line[160];
	int i;

	for (i = 0; i < 100000; i++) {
		int n = snprintf(line, sizeof(line),
				 "sha256:%064x /usr/lib/file%06d\n", i, i);

		assert_int_equal(ima_manifest_parse(m, line, (size_t)n, "m",
						    err, sizeof(err)), 0);
	}
	assert_int_equal(ima_manifest_paths(m), 100000);
	for (i = 0; i < 100000; i += 997) {
		snprintf(path, sizeof(path), "/usr/lib/file%06d", i);
		d[28] = (uint8_t)(i >> 24);
		d[29] = (uint8_t)(i >> 16);
		d[30] = (uint8_t)(i >> 8);
		d[31] = (uint8_t)i;
		assert_int_equal(ima_manifest_check(m, path, strlen(path),
						    alg("sha256"), d, 32),
				 IMA_MF_MATCH);
	}
	ima_manifest_free(m);
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_formats),
	cmocka_unit_test(test_errors),
	cmocka_unit_test(test_coreutils_escapes),
	cmocka_unit_test(test_weak_digests_refused),
	cmocka_unit_test(test_100k_paths))
