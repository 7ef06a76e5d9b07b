// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ASCII list read back into binary records: every field kind against
 * the bytes the kernel holds for it (built here by hand, from
 * ima_template_lib.c), the reader over memory and a pipe, and every line
 * the kernel cannot have written refused with its line number.
 */
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ima_ascii.h"
#include "ima_log.h"
#include "testbuf.h"
#include "unit_main.h"


static void field(struct buf *b, const void *p, size_t n)
{
	put32(b, (uint32_t)n);
	put(b, p, n);
}

/* the hex of a digest of n bytes, each byte v (4 buffers in turn) */
static const char *hexrep(unsigned int v, size_t n)
{
	static char bufs[4][2 * 64 + 1];
	static int next;
	char *s = bufs[next++ % 4];
	size_t i;

	s[0] = '\0';
	for (i = 0; i < n; i++)
		snprintf(s + 2 * i, 3, "%02x", v & 0xff);
	return s;
}

/* A record's header into b; its data (dlen bytes) is put by the caller. */
static void header(struct buf *b, uint32_t pcr, unsigned int tdv,
		   size_t tdlen, const char *name, int dlen)
{
	uint8_t d[64];

	memset(d, (int)tdv, sizeof(d));
	put_header(b, pcr, d, tdlen, name, dlen);
}

static long line(const char *s, enum ima_byte_order o, unsigned int *dlen,
		 uint8_t *out, size_t outmax, char *err)
{
	return ima_ascii_line(s, strlen(s), o, dlen, 1u << 20, out, outmax,
			      err, 200);
}

static void expect_record(const char *s, const struct buf *want,
			  enum ima_byte_order o, unsigned int dlen_in)
{
	uint8_t out[4096];
	unsigned int dlen = dlen_in;
	char err[200] = "";
	long n = line(s, o, &dlen, out, sizeof(out), err);

	if (n < 0)
		fail_msg("%s: %s", s, err);
	assert_int_equal(n, want->n);
	assert_memory_equal(out, want->d, want->n);
}

static void expect_refused(const char *s, unsigned int dlen, const char *why)
{
	uint8_t out[4096];
	char err[200] = "";

	assert_int_equal(line(s, IMA_BO_LITTLE, &dlen, out, sizeof(out), err),
			 -1);
	if (!strstr(err, why))
		fail_msg("'%s': error '%s' lacks '%s'", s, err, why);
}

static void test_ima_ng(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE }, d = { .o = IMA_BO_LITTLE };
	uint8_t dig[32];
	char s[512];

	memset(dig, 0xab, sizeof(dig));
	put(&d, "sha256:", 8);		/* "sha256:\0" */
	put(&d, dig, 32);
	header(&b, 10, 0x11, 20, "ima-ng", 4 + 40 + 4 + 10);
	field(&b, d.d, d.n);
	field(&b, "/bin/true", 10);	/* with its NUL */
	snprintf(s, sizeof(s), "10 %s ima-ng sha256:%s /bin/true",
		 hexrep(0x11, 20), hexrep(0xab, 32));
	expect_record(s, &b, IMA_BO_LITTLE, 0);
}

/* An empty field prints nothing but its ' ': ima-sig unsigned. */
static void test_empty_sig_and_pcr_pad(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE }, d = { .o = IMA_BO_LITTLE };
	uint8_t dig[20];
	char s[512];

	memset(dig, 0x22, sizeof(dig));
	put(&d, "sha1:", 6);
	put(&d, dig, 20);
	header(&b, 9, 0x33, 20, "ima-sig", 4 + 26 + 4 + 15 + 4);
	field(&b, d.d, d.n);
	field(&b, "boot_aggregate", 15);
	field(&b, "", 0);
	snprintf(s, sizeof(s), " 9 %s ima-sig sha1:%s boot_aggregate ",
		 hexrep(0x33, 20), hexrep(0x22, 20));
	expect_record(s, &b, IMA_BO_LITTLE, 0);
}

/* "ima": d has no length, n no NUL, in the binary list. */
static void test_legacy(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE };
	uint8_t dig[20];
	char s[512];

	memset(dig, 0x44, sizeof(dig));
	header(&b, 10, 0x55, 20, "ima", -1);
	put(&b, dig, 20);
	field(&b, "/sbin/init", 10);
	snprintf(s, sizeof(s), "10 %s ima %s /sbin/init", hexrep(0x55, 20),
		 hexrep(0x44, 20));
	expect_record(s, &b, IMA_BO_LITTLE, 0);
	snprintf(s, sizeof(s), "10 %s ima %s /sbin/init", hexrep(0x55, 20),
		 hexrep(0x44, 19));
	expect_refused(s, 0, "not 40");
}

/* evm-sig: numbers as the kernel holds them, xattrnames without a NUL. */
static void test_evm_sig_numbers(void **state)
{
	enum ima_byte_order orders[] = { IMA_BO_LITTLE, IMA_BO_BIG };
	static const char names[] = "security.ima|security.evm";
	int i;

	for (i = 0; i < 2; i++) {
		struct buf b = { .o = orders[i] }, d = { .o = orders[i] };
		struct buf u = { .o = orders[i] };
		uint8_t dig[32], mode[2];
		char s[1024];

		memset(dig, 0x66, sizeof(dig));
		put(&d, "sha256:", 8);
		put(&d, dig, 32);
		if (orders[i] == IMA_BO_BIG) {
			mode[0] = 0x81; mode[1] = 0xa4;
		} else {
			mode[0] = 0xa4; mode[1] = 0x81;
		}
		put32(&u, 0);		/* iuid */
		put32(&u, 1000);	/* igid */
		header(&b, 10, 0x77, 32, "evm-sig",
		       4 + 40 + 4 + 5 + 4 + 0 + 4 + 25 + 4 + 2 + 4 + 0 +
		       4 + 4 + 4 + 4 + 4 + 2);
		field(&b, d.d, d.n);
		field(&b, "/etc", 5);
		field(&b, "", 0);			/* evmsig */
		field(&b, names, sizeof(names) - 1);	/* no NUL */
		field(&b, "\x01\x02", 2);		/* xattrlengths */
		field(&b, "", 0);			/* xattrvalues */
		field(&b, u.d, 4);
		field(&b, u.d + 4, 4);
		field(&b, mode, 2);
		snprintf(s, sizeof(s),
			 "10 %s evm-sig sha256:%s /etc  %s 0102  0 1000 33188",
			 hexrep(0x77, 32), hexrep(0x66, 32), names);
		expect_record(s, &b, orders[i], 32);
	}
	expect_refused("10 0000000000000000000000000000000000000000 evm-sig sha256: /x     0 0 70000",
		       0, "does not fit");
	expect_refused("10 0000000000000000000000000000000000000000 evm-sig sha256: /x     0 007 1",
		       0, "decimal");
	expect_refused("10 0000000000000000000000000000000000000000 evm-sig sha256: /x     0 -1 1",
		       0, "decimal");
}

/* d-ngv2 keeps its type: "ima:sha256:\0" + digest. */
static void test_ngv2_and_custom(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE }, d = { .o = IMA_BO_LITTLE };
	uint8_t dig[32];
	char s[512];

	memset(dig, 0x88, sizeof(dig));
	put(&d, "ima:sha256:", 12);
	put(&d, dig, 32);
	header(&b, 10, 0x99, 20, "d-ngv2|n-ng|buf", 4 + 44 + 4 + 2 + 4 + 3);
	field(&b, d.d, d.n);
	field(&b, "x", 2);
	field(&b, "\xde\xad\x01", 3);
	snprintf(s, sizeof(s), "10 %s d-ngv2|n-ng|buf ima:sha256:%s x dead01",
		 hexrep(0x99, 20), hexrep(0x88, 32));
	expect_record(s, &b, IMA_BO_LITTLE, 0);
}

static void test_digest_length(void **state)
{
	uint8_t out[4096];
	unsigned int dlen = 0;
	char err[200], s[512];

	snprintf(s, sizeof(s), "10 %s ima-ng sha256:%s /a", hexrep(1, 48),
		 hexrep(2, 32));
	assert_true(line(s, IMA_BO_LITTLE, &dlen, out, sizeof(out), err) > 0);
	assert_int_equal(dlen, 48);	/* sha384's list */
	snprintf(s, sizeof(s), "10 %s ima-ng sha256:%s /a", hexrep(1, 20),
		 hexrep(2, 32));
	expect_refused(s, 48, "the list's have 96");
	snprintf(s, sizeof(s), "10 %s ima-ng sha256:%s /a", hexrep(1, 28),
		 hexrep(2, 32));
	expect_refused(s, 0, "not sha1, sha256, sha384 or sha512");
}

/* the line of printf's format and arguments, refused with an error
 * holding why */
#define refused(why, ...) do {						\
	char line_[512];						\
									\
	snprintf(line_, sizeof(line_), __VA_ARGS__);			\
	expect_refused(line_, 0, (why));				\
} while (0)

static void test_refused_lines(void **state)
{
	char z[41];

	snprintf(z, sizeof(z), "%s", hexrep(0, 20));
	refused("CRLF", "10 %s ima-ng sha1:%s /a\r", z, z);
	refused("has 2 fields, the line 1", "10 %s ima-ng sha1:%s", z, z);
	refused("a space in a field", "10 %s ima-ng sha1:%s /a b", z, z);
	refused("unknown template 'ima-nope'", "10 %s ima-nope sha1:%s /a", z,
		z);
	refused("field sig is not hex", "10 %s ima-sig sha1:%s /a 030", z, z);
	refused("field sig is not hex", "10 %s ima-sig sha1:%s /a 03zz", z, z);
	refused("no 'algorithm:'", "10 %s ima-ng %s /a", z, z);
	refused("PCR 24 out of range", "24 %s ima-ng sha1:%s /a", z, z);
	refused("not a measurement line", "x10 %s ima-ng sha1:%s /a", z, z);
	expect_refused("", 0, "not a measurement line");
	refused("no template name", "10 %s", z);
	refused("template name of 0 bytes", "10 %s  sha1:%s /a", z, z);
}

/* a NUL byte inside a name: no string the kernel printed holds one */
static void test_nul_in_line(void **state)
{
	uint8_t out[4096];
	unsigned int dlen = 0;
	char err[200], s[512];
	int n;

	n = snprintf(s, sizeof(s), "10 %s ima-ng sha1:%s /a", hexrep(0, 20),
		     hexrep(0, 20));
	s[n - 1] = '\0';
	assert_int_equal(ima_ascii_line(s, (size_t)n, IMA_BO_LITTLE, &dlen,
					1 << 20, out, sizeof(out), err,
					sizeof(err)), -1);
	assert_non_null(strstr(err, "NUL"));
}

static void test_max_entry(void **state)
{
	uint8_t out[4096];
	unsigned int dlen = 0;
	char err[200], s[512];

	snprintf(s, sizeof(s), "10 %s ima-buf sha1:%s x 00112233445566778899",
		 hexrep(0, 20), hexrep(0, 20));
	assert_int_equal(ima_ascii_line(s, strlen(s), IMA_BO_LITTLE, &dlen,
					40, out, sizeof(out), err,
					sizeof(err)), -1);
	assert_non_null(strstr(err, "exceeds the limit of 40"));
}

/* Two lines of a sha256 list read as records, offsets the binary list's. */
static const char *two_lines(void)
{
	static char s[1024];

	snprintf(s, sizeof(s), "10 %s ima-ng sha256:%s boot_aggregate\n",
		 hexrep(0xa1, 32), hexrep(0xb2, 32));
	snprintf(s + strlen(s), sizeof(s) - strlen(s),
		 " 9 %s ima-ng sha256:%s /init\n", hexrep(0xc3, 32),
		 hexrep(0xd4, 32));
	return s;
}

static void check_two(struct ima_reader *r)
{
	struct ima_record rec;

	assert_int_equal(ima_reader_next(r, &rec), IMA_READ_RECORD);
	assert_int_equal(r->format, IMA_FMT_ASCII);
	assert_non_null(r->digest_alg);
	assert_string_equal(r->digest_alg->name, "sha256");
	assert_int_equal(rec.digest_len, 32);
	assert_int_equal(rec.digest[31], 0xa1);
	assert_int_equal(rec.offset, 0);
	assert_int_equal(rec.line, 1);
	assert_string_equal(rec.name, "ima-ng");
	assert_int_equal(rec.fields[1].len, 15);
	/* pcr, digest, name length, name, data length, data */
	assert_int_equal(rec.data_offset, 4 + 32 + 4 + 6 + 4);
	assert_int_equal(ima_reader_next(r, &rec), IMA_READ_RECORD);
	assert_int_equal(rec.offset, 4 + 32 + 4 + 6 + 4 + 4 + 40 + 4 + 15);
	assert_int_equal(rec.pcr, 9);
	assert_int_equal(rec.line, 2);
	assert_int_equal(ima_reader_next(r, &rec), IMA_READ_EOF);
	assert_int_equal(ima_reader_ascii_lines(r), 2);
	assert_int_equal(ima_reader_ascii_bytes(r), strlen(two_lines()));
}

static void test_reader_memory(void **state)
{
	const char *s = two_lines();
	struct ima_reader r;

	ima_reader_init_mem(&r, s, strlen(s), NULL);
	check_two(&r);
	ima_reader_free(&r);
}

/* Through a pipe, 7 bytes a read: lines and records cross reads. */
static void test_reader_pipe(void **state)
{
	struct ima_reader_opts o = { .chunk = 7 };
	const char *s = two_lines();
	struct ima_reader r;
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], s, strlen(s)), (ssize_t)strlen(s));
	close(fds[1]);
	assert_int_equal(ima_reader_init_fd(&r, fds[0], &o), 0);
	check_two(&r);
	ima_reader_free(&r);
	close(fds[0]);
}

static void test_reader_errors(void **state)
{
	struct ima_reader_opts sha1 = { .digest_alg = ima_hash_by_name("sha1", 4) };
	struct ima_reader_opts ascii = { .format = IMA_FMT_ASCII };
	struct ima_record rec;
	struct ima_reader r;
	char s[1024];
	size_t n;

	/* the last line without its newline: a truncated list */
	snprintf(s, sizeof(s), "%s", two_lines());
	n = strlen(s) - 1;
	ima_reader_init_mem(&r, s, n, NULL);
	assert_int_equal(ima_reader_next(&r, &rec), IMA_READ_RECORD);
	assert_int_equal(ima_reader_next(&r, &rec), IMA_READ_MALFORMED);
	assert_non_null(strstr(r.err, "line 2: no newline"));
	assert_int_equal(r.err_offset, strchr(s, '\n') + 1 - s);
	ima_reader_free(&r);
	/* --list-bank sha1 and a sha256 list: refused at line 1 */
	ima_reader_init_mem(&r, s, strlen(s), &sha1);
	assert_int_equal(ima_reader_next(&r, &rec), IMA_READ_MALFORMED);
	assert_non_null(strstr(r.err, "line 1: template digest of 64"));
	ima_reader_free(&r);
	/* empty input: no record, no error */
	ima_reader_init_mem(&r, s, 0, &ascii);
	assert_int_equal(ima_reader_next(&r, &rec), IMA_READ_EOF);
	ima_reader_free(&r);
	/* a binary list's first byte is below 0x20: never read as ASCII */
	s[0] = 0x0a;
	ima_reader_init_mem(&r, s, strlen(s), NULL);
	assert_int_not_equal(ima_reader_next(&r, &rec), IMA_READ_RECORD);
	assert_int_equal(r.format, IMA_FMT_BINARY);
	ima_reader_free(&r);
}

static void test_list_name_bank(void **state)
{
	const struct ima_hash_algo *alg = NULL;
	char err[200];

	assert_int_equal(ima_list_name_bank("/sys/kernel/security/ima/binary_runtime_measurements",
					    &alg, err, sizeof(err)), 0);
	assert_null(alg);
	assert_int_equal(ima_list_name_bank("x/ascii_runtime_measurements_sha384",
					    &alg, err, sizeof(err)), 0);
	assert_string_equal(alg->name, "sha384");
	alg = NULL;
	assert_int_equal(ima_list_name_bank("binary_runtime_measurements_sha256.bin",
					    &alg, err, sizeof(err)), 0);
	assert_null(alg);	/* not a name the kernel gives */
	assert_int_equal(ima_list_name_bank("binary_runtime_measurements_sm3",
					    &alg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a bank read here"));
	assert_int_equal(ima_list_name_bank("binary_runtime_measurements_tpm_alg_12",
					    &alg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "zero-padded"));
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_ima_ng),
	cmocka_unit_test(test_empty_sig_and_pcr_pad),
	cmocka_unit_test(test_legacy),
	cmocka_unit_test(test_evm_sig_numbers),
	cmocka_unit_test(test_ngv2_and_custom),
	cmocka_unit_test(test_digest_length),
	cmocka_unit_test(test_refused_lines),
	cmocka_unit_test(test_nul_in_line),
	cmocka_unit_test(test_max_entry),
	cmocka_unit_test(test_reader_memory),
	cmocka_unit_test(test_reader_pipe),
	cmocka_unit_test(test_reader_errors),
	cmocka_unit_test(test_list_name_bank))
