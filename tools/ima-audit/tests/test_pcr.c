// SPDX-License-Identifier: GPL-2.0-only
/*
 * PCR value input formats, boot_aggregate and replay.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ima_pcr.h"
#include "unit_main.h"

#define S20 "000102030405060708090a0b0c0d0e0f10111213"
#define S32 "3F2A000000000000000000000000000000000000000000000000000000000001"

static int parse(struct ima_pcr_values *v, const char *text, char *err)
{
	memset(v, 0, sizeof(*v));
	return ima_pcr_parse_text(v, text, strlen(text), "t", err, 256);
}

static void test_format_a(void **state)
{
	struct ima_pcr_values v;
	char err[256];

	assert_int_equal(parse(&v, "# comment\nsha1:10 " S20 "\n"
			       "SHA256:10=0x" S32 "\n\n  sha256:3 " S32
			       "\r\n", err), 0);
	assert_int_equal(v.have[IMA_BANK_SHA1], 1u << 10);
	assert_int_equal(v.have[IMA_BANK_SHA256], 1u << 10 | 1u << 3);
	assert_int_equal(v.val[IMA_BANK_SHA1][10][19], 0x13);
	assert_int_equal(v.val[IMA_BANK_SHA256][10][0], 0x3f);
	assert_int_equal(v.val[IMA_BANK_SHA256][10][31], 0x01);
}

static void test_format_tpm2_pcrread(void **state)
{
	struct ima_pcr_values v;
	char err[256];

	assert_int_equal(parse(&v, "  sha1:\n    0 : 0x" S20 "\n"
			       "    10: 0x" S20 "\n  sha256:\n"
			       "    10: 0x" S32 "\n  sm3_256:\n"
			       "    10: 0x00\n", err), 0);
	assert_int_equal(v.have[IMA_BANK_SHA1], 1u << 10 | 1u);
	assert_int_equal(v.have[IMA_BANK_SHA256], 1u << 10);
	assert_int_equal(v.val[IMA_BANK_SHA256][10][0], 0x3f);
}

static void test_bad_lines(void **state)
{
	struct ima_pcr_values v;
	char err[256];

	assert_int_equal(parse(&v, "sha256:10 " S20 "\n", err), -1);
	assert_non_null(strstr(err, "t:1: sha256 PCR 10: expected 64"));
	assert_int_equal(parse(&v, "sha1:10 " S20 "\nmd5:10 00\n", err), -1);
	assert_non_null(strstr(err, "t:2: unknown PCR bank 'md5'"));
	assert_int_equal(parse(&v, "sha1:24 " S20 "\n", err), -1);
	assert_non_null(strstr(err, "out of range"));
	assert_int_equal(parse(&v, "10: 0x" S20 "\n", err), -1);
	assert_int_equal(parse(&v, "hello world\n", err), -1);
	assert_int_equal(parse(&v, "sha1:10 " S20 " trailing\n", err), -1);
	assert_int_equal(parse(&v, "sha1:10 zz" S20 "\n", err), -1);
}

static void test_sysfs(void **state)
{
	char dir[] = "/tmp/ima-audit-sysfsXXXXXX", path[128], err[256];
	struct ima_pcr_values v;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/pcr-sha256", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/pcr-sha256/10", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(S32 "\n", f);
	fclose(f);
	memset(&v, 0, sizeof(v));
	assert_int_equal(ima_pcr_load_sysfs(&v, dir, err, sizeof(err)), 1);
	assert_int_equal(v.have[IMA_BANK_SHA256], 1u << 10);
	remove(path);
	snprintf(path, sizeof(path), "%s/pcr-sha256", dir);
	rmdir(path);
	rmdir(dir);
}

static void test_boot_aggregate(void **state)
{
	struct ima_pcr_values v;
	uint8_t buf[10 * 32], out[32], want[32];
	int i;

	memset(&v, 0, sizeof(v));
	assert_int_equal(ima_boot_aggregate(&v, IMA_BANK_SHA256, out), -1);
	for (i = 0; i < 10; i++) {
		memset(v.val[IMA_BANK_SHA256][i], i, 32);
		memset(v.val[IMA_BANK_SHA1][i], i, 20);
		memset(buf + 32 * i, i, 32);
	}
	v.have[IMA_BANK_SHA256] = 0x3ff;
	v.have[IMA_BANK_SHA1] = 0xff;	/* sha1 uses PCR 0-7 only */
	ima_digest(ima_hash_by_name("sha256", 6), buf, sizeof(buf), want);
	assert_int_equal(ima_boot_aggregate(&v, IMA_BANK_SHA256, out), 0);
	assert_memory_equal(out, want, 32);
	for (i = 0; i < 8; i++)
		memset(buf + 20 * i, i, 20);
	ima_digest(ima_hash_by_name("sha1", 4), buf, 160, want);
	assert_int_equal(ima_boot_aggregate(&v, IMA_BANK_SHA1, out), 0);
	assert_memory_equal(out, want, 20);
	v.have[IMA_BANK_SHA256] = 0x1ff;	/* PCR 9 missing */
	assert_int_equal(ima_boot_aggregate(&v, IMA_BANK_SHA256, out), -1);
}

/*
 * Each definition a kernel has used: sha256 over PCRs 0-9 (5.8 and
 * later), over PCRs 0-7 (5.7 and the stable kernels with its change),
 * sha1 over PCRs 0-7; digests computed here with OpenSSL.
 */
static void test_boot_aggregate_definitions(void **state)
{
	const struct ima_hash_algo *sha256 = ima_hash_by_name("sha256", 6);
	struct ima_pcr_values v;
	uint8_t buf[10 * 32], d09[32], d07[32], d08[32], s07[20];
	int i;

	memset(&v, 0, sizeof(v));
	for (i = 0; i < 10; i++) {
		memset(v.val[IMA_BANK_SHA256][i], 0x10 + i, 32);
		memset(v.val[IMA_BANK_SHA1][i], 0x20 + i, 20);
		memset(buf + 32 * i, 0x10 + i, 32);
	}
	v.have[IMA_BANK_SHA256] = 0x3ff;
	v.have[IMA_BANK_SHA1] = 0x3ff;
	ima_digest(sha256, buf, 320, d09);
	ima_digest(sha256, buf, 256, d07);
	ima_digest(sha256, buf, 288, d08);
	for (i = 0; i < 8; i++)
		memset(buf + 20 * i, 0x20 + i, 20);
	ima_digest(ima_hash_by_name("sha1", 4), buf, 160, s07);
	assert_int_equal(ima_boot_aggregate_match(&v, IMA_BANK_SHA256, d09, 32),
			 IMA_BOOT_DEF_CURRENT);
	assert_int_equal(ima_boot_aggregate_match(&v, IMA_BANK_SHA256, d07, 32),
			 IMA_BOOT_DEF_PRE_5_8);
	/* PCRs 0-8 is no kernel's definition */
	assert_int_equal(ima_boot_aggregate_match(&v, IMA_BANK_SHA256, d08, 32),
			 IMA_BOOT_DEF_NONE);
	/* sha1: PCRs 0-7 under either definition */
	assert_int_equal(ima_boot_aggregate_match(&v, IMA_BANK_SHA1, s07, 20),
			 IMA_BOOT_DEF_CURRENT);
	/* a digest of another length matches nothing */
	assert_int_equal(ima_boot_aggregate_match(&v, IMA_BANK_SHA256, d09, 20),
			 IMA_BOOT_DEF_NONE);
	/* without PCRs 8-9: only the older definition can be checked */
	v.have[IMA_BANK_SHA256] = 0xff;
	assert_int_equal(ima_boot_aggregate_match(&v, IMA_BANK_SHA256, d07, 32),
			 IMA_BOOT_DEF_PRE_5_8);
	assert_int_equal(ima_boot_aggregate_match(&v, IMA_BANK_SHA256, d09, 32),
			 IMA_BOOT_DEF_MISSING);
}

static void extend(uint8_t *pcr, const uint8_t *d, int bank)
{
	const struct ima_hash_algo *alg = ima_bank_algo(bank);
	uint8_t buf[128];

	memcpy(buf, pcr, alg->size);
	memcpy(buf + alg->size, d, alg->size);
	ima_digest(alg, buf, 2 * alg->size, pcr);
}

static void test_replay_prefix_and_violation(void **state)
{
	uint8_t d[IMA_NR_BANKS][IMA_MAX_DIGEST];
	uint8_t ff[IMA_NR_BANKS][IMA_MAX_DIGEST];
	static struct ima_pcr_values want;
	static struct ima_replay rp;
	uint8_t p1[32] = { 0 }, p256[32] = { 0 };

	memset(d, 0x11, sizeof(d));
	memset(ff, 0xff, sizeof(ff));
	/* expected: two entries, then a violation; log has four */
	extend(p1, d[0], IMA_BANK_SHA1);
	extend(p1, d[0], IMA_BANK_SHA1);
	extend(p1, ff[0], IMA_BANK_SHA1);
	extend(p256, d[1], IMA_BANK_SHA256);
	memcpy(want.val[IMA_BANK_SHA1][10], p1, 20);
	memcpy(want.val[IMA_BANK_SHA256][10], p256, 32);
	want.have[IMA_BANK_SHA1] = 1u << 10;
	want.have[IMA_BANK_SHA256] = 1u << 10;

	ima_replay_init(&rp, 3, &want);
	assert_false(rp.pcr[IMA_BANK_SHA1][10].matched);
	ima_replay_extend(&rp, 10, d, 0);
	ima_replay_extend(&rp, 11, d, 1);	/* other PCR */
	ima_replay_extend(&rp, 10, d, 2);
	ima_replay_extend(&rp, 10, ff, 3);
	ima_replay_extend(&rp, 10, d, 4);
	assert_true(rp.pcr[IMA_BANK_SHA1][10].matched);
	assert_int_equal(rp.pcr[IMA_BANK_SHA1][10].match_count, 3);
	assert_int_equal(rp.pcr[IMA_BANK_SHA1][10].match_index, 3);
	assert_int_equal(rp.count[10], 4);
	assert_int_equal(rp.last_index[10], 4);
	assert_true(rp.pcr[IMA_BANK_SHA256][10].matched);
	assert_int_equal(rp.pcr[IMA_BANK_SHA256][10].match_count, 1);
	assert_int_equal(rp.count[11], 1);
	/* the banks match different prefixes: no common coverage */
	assert_false(rp.cover_ok[10]);
	assert_int_equal(rp.npending[10], 4);
	/* PCR 11 has no expected value: not tracked */
	assert_int_equal(rp.npending[11], 0);
	ima_replay_free(&rp);

	/* an all-zero expected value matches the empty prefix */
	memset(&want, 0, sizeof(want));
	want.have[IMA_BANK_SHA1] = 1u << 12;
	ima_replay_init(&rp, 1, &want);
	assert_true(rp.pcr[IMA_BANK_SHA1][12].matched);
	assert_int_equal(rp.pcr[IMA_BANK_SHA1][12].match_count, 0);
	assert_true(rp.cover_ok[12]);
	assert_int_equal(rp.cover_count[12], 0);
	assert_int_equal(rp.cover_index[12], -1);
	ima_replay_free(&rp);
}

/* Coverage: the last prefix where both banks match; the rest pending. */
static void test_replay_coverage(void **state)
{
	static struct ima_pcr_values want;
	struct ima_replay rp;
	uint8_t d[IMA_NR_BANKS][IMA_MAX_DIGEST];
	uint8_t p1[32] = { 0 }, p256[32] = { 0 };
	int i;

	memset(d, 0x22, sizeof(d));
	for (i = 0; i < 2; i++) {
		extend(p1, d[0], IMA_BANK_SHA1);
		extend(p256, d[1], IMA_BANK_SHA256);
	}
	memset(&want, 0, sizeof(want));
	memcpy(want.val[IMA_BANK_SHA1][10], p1, 20);
	memcpy(want.val[IMA_BANK_SHA256][10], p256, 32);
	want.have[IMA_BANK_SHA1] = 1u << 10;
	want.have[IMA_BANK_SHA256] = 1u << 10;
	ima_replay_init(&rp, 3, &want);
	assert_false(rp.cover_ok[10]);
	for (i = 0; i < 5; i++)
		ima_replay_extend_at(&rp, 10, d, (uint64_t)i * 2,
				     (uint64_t)i * 100);
	assert_true(rp.cover_ok[10]);
	assert_int_equal(rp.cover_count[10], 2);
	assert_int_equal(rp.cover_index[10], 2);
	assert_int_equal(rp.npending[10], 3);
	assert_int_equal(rp.pending[10][0].index, 4);
	assert_int_equal(rp.pending[10][0].offset, 200);
	assert_int_equal(rp.pending[10][2].index, 8);
	ima_replay_free(&rp);

	/* only the sha1 value given: tracked on sha1 alone */
	want.have[IMA_BANK_SHA256] = 0;
	ima_replay_init(&rp, 3, &want);
	ima_replay_extend_at(&rp, 10, d, 0, 0);
	ima_replay_extend_at(&rp, 10, d, 1, 0);
	assert_true(rp.cover_ok[10]);
	assert_int_equal(rp.npending[10], 0);
	ima_replay_free(&rp);
}

/* evmctl's --pcrs ALG,FILE format */
static void test_evmctl_file(void **state)
{
	static struct ima_pcr_values v;
	char path[64], err[200];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/ima-audit-evm-%d", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "PCR-00: %s\nPCR-10: %s\n", "00" "11" "22" "33" "44"
		"55" "66" "77" "88" "99" "aa" "bb" "cc" "dd" "ee" "ff" "00"
		"11" "22" "33", "ab" "ab" "ab" "ab" "ab" "ab" "ab" "ab" "ab"
		"ab" "ab" "ab" "ab" "ab" "ab" "ab" "ab" "ab" "ab" "ab");
	fclose(f);
	memset(&v, 0, sizeof(v));
	assert_int_equal(ima_pcr_load_evmctl(&v, IMA_BANK_SHA1, path, err,
					     sizeof(err)), 0);
	assert_int_equal(v.have[IMA_BANK_SHA1], 1u << 0 | 1u << 10);
	assert_int_equal(v.val[IMA_BANK_SHA1][10][19], 0xab);
	assert_int_equal(v.val[IMA_BANK_SHA1][0][1], 0x11);
	/* sha256 needs 64 digits: refused, line named */
	assert_int_equal(ima_pcr_load_evmctl(&v, IMA_BANK_SHA256, path, err,
					     sizeof(err)), -1);
	assert_non_null(strstr(err, ":1:"));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("PCR-1x: 00\n", f);
	fclose(f);
	assert_int_equal(ima_pcr_load_evmctl(&v, IMA_BANK_SHA1, path, err,
					     sizeof(err)), -1);
	assert_non_null(strstr(err, "PCR-NN"));
	unlink(path);
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_format_a),
	cmocka_unit_test(test_format_tpm2_pcrread),
	cmocka_unit_test(test_bad_lines),
	cmocka_unit_test(test_sysfs),
	cmocka_unit_test(test_boot_aggregate),
	cmocka_unit_test(test_boot_aggregate_definitions),
	cmocka_unit_test(test_replay_prefix_and_violation),
	cmocka_unit_test(test_replay_coverage),
	cmocka_unit_test(test_evmctl_file))
