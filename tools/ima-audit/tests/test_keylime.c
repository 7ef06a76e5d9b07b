// SPDX-License-Identifier: GPL-2.0-only
/*
 * Keylime's runtime policy (ima_keylime.h): read into the manifest
 * tables and exclude patterns, and written back so that reading it gives
 * the same tables.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ima_keylime.h"
#include "unit_main.h"

#define H64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define G64 "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"

static const struct ima_hash_algo *sha256(void)
{
	return ima_hash_by_name("sha256", 6);
}

static int check(const struct ima_manifest *m, const char *name,
		 const char *hex)
{
	uint8_t d[32];

	ima_hex2bin(hex, 64, d, sizeof(d));
	return ima_manifest_check(m, name, strlen(name), sha256(), d, 32);
}

static void test_read(void **state)
{
	static const char text[] =
		"{\"meta\": {\"version\": 1, \"generator\": 3},\n"
		" \"release\": 0,\n"
		" \"digests\": {\"/bin/a\": [\"" H64 "\", \"" G64 "\"],\n"
		"             \"boot_aggregate\": [\"" H64 "\"]},\n"
		" \"excludes\": [\"/tmp/.*\", \"(?:/var)?/log/\\\\w+\"],\n"
		" \"keyrings\": {\".ima\": [\"" G64 "\"]},\n"
		" \"ima\": {\"ignored_keyrings\": [\".evm\"], \"log_hash_alg\": \"sha256\", \"dm_policy\": null},\n"
		" \"ima-buf\": {\"kexec-cmdline\": [\"" H64 "\"]},\n"
		" \"verification-keys\": \"\", \"unknown\": [1]}\n";
	struct ima_keylime kl = { 0 };
	struct ima_manifest *m = ima_manifest_new();
	struct ima_excludes *x = ima_excludes_new();
	char err[512];
	size_t which;

	if (ima_keylime_parse(&kl, m, x, text, sizeof(text) - 1, "p", err,
			      sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(kl.version, 1);
	assert_true(kl.has_boot_aggregate);
	assert_int_equal(kl.npaths, 2);
	assert_int_equal(kl.nkeyrings, 1);
	assert_int_equal(kl.nbufs, 1);
	assert_int_equal(kl.nexcludes, 2);
	assert_string_equal(kl.log_hash_alg->name, "sha256");
	assert_int_equal(check(m, "/bin/a", G64), IMA_MF_MATCH);
	assert_int_equal(check(m, "/bin/b", G64), IMA_MF_UNKNOWN_PATH);
	assert_int_equal(check(kl.keyrings, ".ima", G64), IMA_MF_MATCH);
	assert_int_equal(check(kl.keyrings, ".ima", H64),
			 IMA_MF_WRONG_DIGEST);
	assert_int_equal(check(kl.bufs, "kexec-cmdline", H64), IMA_MF_MATCH);
	assert_true(ima_keylime_ignores_keyring(&kl, ".evm", 4));
	assert_false(ima_keylime_ignores_keyring(&kl, ".ima", 4));
	assert_int_equal(ima_excludes_match(x, "/log/x1", 7, &which),
			 IMA_EXCLUDE_YES);
	assert_int_equal(which, 1);
	assert_int_equal(ima_excludes_match(x, "/var/log/", 9, &which),
			 IMA_EXCLUDE_NO);
	ima_keylime_free(&kl);
	ima_manifest_free(m);
	ima_excludes_free(x);
}

/* What the writer writes, the reader reads back: the same tables. */
static void test_write_read(void **state)
{
	struct ima_keylime_out *o = ima_keylime_out_new();
	struct ima_keylime kl = { 0 };
	struct ima_manifest *m = ima_manifest_new();
	struct ima_excludes *x = ima_excludes_new();
	uint8_t h[32], g[32];
	char *text = NULL, err[512];
	size_t len = 0;
	FILE *f;

	ima_hex2bin(H64, 64, h, 32);
	ima_hex2bin(G64, 64, g, 32);
	assert_int_equal(ima_keylime_out_add(o, IMA_KL_DIGESTS, "/b", 2,
					     sha256(), g), 0);
	assert_int_equal(ima_keylime_out_add(o, IMA_KL_DIGESTS, "/a\"\\\n\xc3\xa9", 7,
					     sha256(), h), 0);
	assert_int_equal(ima_keylime_out_add(o, IMA_KL_DIGESTS, "/b", 2,
					     sha256(), h), 0);
	assert_int_equal(ima_keylime_out_add(o, IMA_KL_DIGESTS, "/b", 2,
					     sha256(), g), 0);
	assert_int_equal(ima_keylime_out_add(o, IMA_KL_KEYRINGS, ".ima", 4,
					     sha256(), g), 0);
	assert_int_equal(ima_keylime_out_add(o, IMA_KL_BUFS, "kexec-cmdline",
					     13, sha256(), h), 0);
	/* not UTF-8: a JSON string cannot hold it */
	assert_int_equal(ima_keylime_out_add(o, IMA_KL_DIGESTS, "/x\xff", 3,
					     sha256(), h), 1);
	f = open_memstream(&text, &len);
	assert_int_equal(ima_keylime_write(o, ima_hash_by_name("sha1", 4), f),
			 0);
	fclose(f);
	assert_non_null(strstr(text, "\"/a\\\"\\\\\\n\\u00e9\": [\n   \"" H64 "\"\n  ]"));
	assert_non_null(strstr(text, "\"/b\": [\n   \"" H64 "\",\n   \"" G64 "\"\n  ]"));
	if (ima_keylime_parse(&kl, m, x, text, len, "w", err, sizeof(err)))
		fail_msg("%s: %s", err, text);
	assert_int_equal(kl.npaths, 2);
	assert_int_equal(check(m, "/b", H64), IMA_MF_MATCH);
	assert_int_equal(check(m, "/b", G64), IMA_MF_MATCH);
	assert_int_equal(check(m, "/a\"\\\n\xc3\xa9", H64), IMA_MF_MATCH);
	assert_int_equal(check(kl.keyrings, ".ima", G64), IMA_MF_MATCH);
	assert_int_equal(check(kl.bufs, "kexec-cmdline", H64), IMA_MF_MATCH);
	assert_string_equal(kl.log_hash_alg->name, "sha1");
	free(text);
	ima_keylime_out_free(o);
	ima_keylime_free(&kl);
	ima_manifest_free(m);
	ima_excludes_free(x);
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_read),
	cmocka_unit_test(test_write_read))
