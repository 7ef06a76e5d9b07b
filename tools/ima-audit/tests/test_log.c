// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parser tests: byte order, templates, chunked reads, hostile lengths.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ima_hash.h"
#include "ima_log.h"
#include "testbuf.h"
#include "unit_main.h"


/* An ima-ng record for path with a fake sha256 digest. */
static void add_ng(struct buf *b, uint32_t pcr, const char *path)
{
	static const uint8_t tdigest[20] = { 1 };
	uint8_t digest[32];
	uint32_t dng = 8 + 32, nng = (uint32_t)strlen(path) + 1;

	memset(digest, 0xab, sizeof(digest));
	put_header(b, pcr, tdigest, 20, "ima-ng", 4 + dng + 4 + nng);
	put32(b, dng);
	put(b, "sha256:", 8);
	put(b, digest, 32);
	put32(b, nng);
	put(b, path, nng);
}

static int read_all(struct buf *b, struct ima_reader_opts *o,
		    uint64_t *count, struct ima_reader *out)
{
	struct ima_record rec;
	int rc;

	ima_reader_init_mem(out, b->d, b->n, o);
	*count = 0;
	while ((rc = ima_reader_next(out, &rec)) == IMA_READ_RECORD)
		(*count)++;
	return rc;
}

static void test_little_and_big_endian(void **state)
{
	enum ima_byte_order orders[] = { IMA_BO_LITTLE, IMA_BO_BIG };
	size_t i;

	for (i = 0; i < 2; i++) {
		struct buf b = { .o = orders[i] };
		struct ima_reader r;
		struct ima_record rec;
		const char *algo;
		size_t alen;
		const uint8_t *d;
		uint32_t dlen;

		add_ng(&b, 10, "/bin/sh");
		add_ng(&b, 11, "/bin/ls");
		ima_reader_init_mem(&r, b.d, b.n, NULL);
		assert_int_equal(ima_reader_next(&r, &rec), IMA_READ_RECORD);
		assert_int_equal(r.order, orders[i]);
		assert_int_equal(rec.pcr, 10);
		assert_string_equal(rec.name, "ima-ng");
		assert_int_equal(rec.nfields, 2);
		assert_int_equal(rec.fields[0].id, IMA_F_D_NG);
		assert_int_equal(ima_split_digest_field(rec.fields[0].data,
							rec.fields[0].len, NULL,
							&algo, &alen, &d,
							&dlen), 0);
		assert_int_equal(alen, 6);
		assert_memory_equal(algo, "sha256", 6);
		assert_int_equal(dlen, 32);
		assert_string_equal((const char *)rec.fields[1].data,
				    "/bin/sh");
		assert_int_equal(ima_reader_next(&r, &rec), IMA_READ_RECORD);
		assert_int_equal(rec.pcr, 11);
		assert_int_equal(rec.index, 1);
		assert_int_equal(ima_reader_next(&r, &rec), IMA_READ_EOF);
		ima_reader_free(&r);
	}
}

static void test_legacy_ima_template(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE };
	uint8_t d[20] = { 7 };
	struct ima_reader r;
	struct ima_record rec;

	put_header(&b, 10, d, 20, "ima", -1);
	put(&b, d, 20);		/* d: no length */
	put32(&b, 7);		/* n: length, no NUL */
	put(&b, "/bin/sh", 7);
	ima_reader_init_mem(&r, b.d, b.n, NULL);
	assert_int_equal(ima_reader_next(&r, &rec), IMA_READ_RECORD);
	assert_true(rec.tmpl.legacy);
	assert_int_equal(rec.nfields, 2);
	assert_int_equal(rec.fields[0].len, 20);
	assert_int_equal(rec.fields[1].len, 7);
	assert_memory_equal(rec.fields[1].data, "/bin/sh", 7);
	assert_int_equal(rec.data_len, 31);
	assert_int_equal(ima_reader_next(&r, &rec), IMA_READ_EOF);
	ima_reader_free(&r);
}

static void test_chunked_pipe_read(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE };
	struct ima_reader_opts o = { .chunk = 3 };
	struct ima_reader r;
	struct ima_record rec;
	int fds[2], i, n = 0, rc;

	for (i = 0; i < 40; i++)
		add_ng(&b, 10, "/usr/lib/a/rather/long/path/name");
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], b.d, b.n), (ssize_t)b.n);
	close(fds[1]);
	ima_reader_init_fd(&r, fds[0], &o);
	while ((rc = ima_reader_next(&r, &rec)) == IMA_READ_RECORD) {
		assert_int_equal(rec.offset, (uint64_t)n * (b.n / 40));
		n++;
	}
	assert_int_equal(rc, IMA_READ_EOF);
	assert_int_equal(n, 40);
	ima_reader_free(&r);
	close(fds[0]);
}

static void expect_malformed(struct buf *b, struct ima_reader_opts *o,
			     uint64_t offset, const char *msg)
{
	struct ima_reader r;
	uint64_t count;

	assert_int_equal(read_all(b, o, &count, &r), IMA_READ_MALFORMED);
	assert_int_equal(r.err_offset, offset);
	assert_non_null(strstr(r.err, msg));
	ima_reader_free(&r);
}

static void test_hostile_name_length(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE };
	uint8_t d[20] = { 0 };

	size_t first;

	add_ng(&b, 10, "/a");
	first = b.n;
	put32(&b, 10);
	put(&b, d, 20);
	put32(&b, 0x7fffff00);
	put(&b, "ima-ng", 6);
	expect_malformed(&b, NULL, first + 24, "exceeds");
}

static void test_zero_name_and_data_length(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE };
	uint8_t d[20] = { 0 };
	size_t first;

	put_header(&b, 10, d, 20, "ima-ng", 0);
	expect_malformed(&b, NULL, 34, "zero-length template data");

	b.n = 0;
	add_ng(&b, 10, "/a");
	first = b.n;
	put32(&b, 10);
	put(&b, d, 20);
	put32(&b, 0);
	expect_malformed(&b, NULL, first + 24, "zero-length template name");
}

static void test_field_past_end(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE };
	uint8_t d[20] = { 0 };

	put_header(&b, 10, d, 20, "ima-ng", 12);	/* data: 12 bytes */
	put32(&b, 4);		/* d-ng: 4 bytes */
	put(&b, "sha1", 4);
	put32(&b, 0xfffffff0);	/* n-ng: far past the end */
	expect_malformed(&b, NULL, 38 + 8, "runs past");
}

static void test_trailing_and_missing_fields(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE };
	uint8_t d[20] = { 0 };

	put_header(&b, 10, d, 20, "ima-ng", 8);
	put32(&b, 4);
	put(&b, "sha1", 4);
	expect_malformed(&b, NULL, 38 + 8, "ends before field 2");

	b.n = 0;
	put_header(&b, 10, d, 20, "ima-ng", 10);
	put32(&b, 1);
	put(&b, "x", 1);
	put32(&b, 0);
	put(&b, "z", 1);
	expect_malformed(&b, NULL, 38 + 9, "trailing");
}

static void test_truncated(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE };
	size_t full;

	add_ng(&b, 10, "/bin/sh");
	full = b.n;
	b.n = 10;
	expect_malformed(&b, NULL, 0, "truncated record header");
	b.n = full - 1;
	expect_malformed(&b, NULL, 38, "truncated record: template data");
	b.n = 30;
	expect_malformed(&b, NULL, 28, "truncated record");
}

static void test_limits(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE };
	struct ima_reader_opts o = { .max_entry = 16 };
	struct ima_reader r;
	struct ima_record rec;
	int fds[2];

	add_ng(&b, 10, "/bin/sh");
	expect_malformed(&b, &o, 34, "exceeds the limit");

	/* max_size applies to streamed input */
	add_ng(&b, 10, "/bin/sh");
	o.max_entry = 0;
	o.max_size = b.n - 1;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], b.d, b.n), (ssize_t)b.n);
	close(fds[1]);
	ima_reader_init_fd(&r, fds[0], &o);
	assert_int_equal(ima_reader_next(&r, &rec), IMA_READ_MALFORMED);
	assert_non_null(strstr(r.err, "maximum size"));
	ima_reader_free(&r);
	close(fds[0]);
}

static void test_pcr_and_order_detection(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE };
	uint8_t junk[40];
	size_t first;

	/* below 0x20 the first byte is a PCR index's: binary */
	memset(junk, 0x11, sizeof(junk));
	put(&b, junk, sizeof(junk));
	expect_malformed(&b, NULL, 0, "cannot detect byte order");
	/* text is read as the ASCII list, and refused as one */
	memset(junk, 0x41, sizeof(junk));
	b.n = 0;
	put(&b, junk, sizeof(junk));
	put(&b, "\n", 1);
	expect_malformed(&b, NULL, 0, "line 1: not a measurement line");

	b.n = 0;
	add_ng(&b, 10, "/a");
	first = b.n;
	add_ng(&b, 99, "/b");
	expect_malformed(&b, NULL, first, "pcr index 99");
}

static void test_template_lookup(void **state)
{
	struct ima_template t;

	assert_true(ima_template_lookup("ima-sig", &t));
	assert_int_equal(t.nfields, 3);
	assert_int_equal(t.ids[2], IMA_F_SIG);
	assert_true(ima_template_lookup("ima-modsig", &t));
	assert_int_equal(t.ids[4], IMA_F_MODSIG);
	assert_true(ima_template_lookup("ima", &t));
	assert_true(t.legacy);
	assert_true(ima_template_lookup("d-ng|n-ng|buf", &t));
	assert_false(t.legacy);
	assert_int_equal(t.ids[2], IMA_F_BUF);
	assert_false(ima_template_lookup("ima-foo", &t));
	assert_false(ima_template_lookup("d-ng||n-ng", &t));
	assert_false(ima_template_lookup("d-ng|", &t));
	assert_false(ima_template_lookup("d-ng|bogus", &t));
}

static void test_unknown_template_is_framed(void **state)
{
	struct buf b = { .o = IMA_BO_LITTLE };
	uint8_t d[20] = { 0 };
	struct ima_reader r;
	struct ima_record rec;

	put_header(&b, 10, d, 20, "ima-foo", 3);
	put(&b, "abc", 3);
	add_ng(&b, 10, "/a");
	ima_reader_init_mem(&r, b.d, b.n, NULL);
	assert_int_equal(ima_reader_next(&r, &rec), IMA_READ_RECORD);
	assert_false(rec.tmpl.known);
	assert_int_equal(rec.nfields, 0);
	assert_int_equal(ima_reader_next(&r, &rec), IMA_READ_RECORD);
	assert_true(rec.tmpl.known);
	ima_reader_free(&r);
}

static void test_split_digest_field(void **state)
{
	const char *algo;
	size_t alen;
	const uint8_t *d;
	uint32_t dlen;
	int type;
	static const uint8_t v2[] = "ima:sha512:\0ABCD";
	static const uint8_t verity[] = "verity:sha256:\0AB";
	static const uint8_t ng[] = "sha1:\0AB";
	static const uint8_t bad1[] = "sha256\0AB";
	static const uint8_t bad2[] = ":\0AB";
	/* a type other than ima/verity, or two of them: malformed (before,
	 * anything before the algorithm was dropped) */
	static const uint8_t bad3[] = "evil:sha256:\0AB";
	static const uint8_t bad4[] = "verity:ima:sha256:\0AB";
	static const uint8_t bad5[] = ":sha256:\0AB";

	assert_int_equal(ima_split_digest_field(v2, sizeof(v2) - 1, &type,
						&algo, &alen, &d, &dlen), 0);
	assert_int_equal(type, IMA_DT_IMA);
	assert_int_equal(alen, 6);
	assert_memory_equal(algo, "sha512", 6);
	assert_int_equal(dlen, 4);
	assert_int_equal(ima_split_digest_field(verity, sizeof(verity) - 1,
						&type, &algo, &alen, &d,
						&dlen), 0);
	assert_int_equal(type, IMA_DT_VERITY);
	assert_memory_equal(algo, "sha256", 6);
	assert_int_equal(ima_split_digest_field(ng, sizeof(ng) - 1, &type,
						&algo, &alen, &d, &dlen), 0);
	assert_int_equal(type, IMA_DT_NONE);
	assert_int_equal(alen, 4);
	assert_int_equal(ima_split_digest_field(bad1, sizeof(bad1) - 1, NULL,
						&algo, &alen, &d, &dlen), -1);
	assert_int_equal(ima_split_digest_field(bad2, sizeof(bad2) - 1, NULL,
						&algo, &alen, &d, &dlen), -1);
	assert_int_equal(ima_split_digest_field(bad1, 0, NULL, &algo, &alen,
						&d, &dlen), -1);
	assert_int_equal(ima_split_digest_field(bad3, sizeof(bad3) - 1, NULL,
						&algo, &alen, &d, &dlen), -1);
	assert_int_equal(ima_split_digest_field(bad4, sizeof(bad4) - 1, NULL,
						&algo, &alen, &d, &dlen), -1);
	assert_int_equal(ima_split_digest_field(bad5, sizeof(bad5) - 1, NULL,
						&algo, &alen, &d, &dlen), -1);
}

/* template data: one field per (bytes, len) pair, little-endian */
static void fields(struct buf *b, int n, ...)
{
	va_list ap;
	int i;

	b->n = 0;
	b->o = IMA_BO_LITTLE;
	va_start(ap, n);
	for (i = 0; i < n; i++) {
		const void *p = va_arg(ap, const void *);
		size_t len = va_arg(ap, size_t);

		put32(b, (uint32_t)len);
		put(b, p, len);
	}
	va_end(ap);
}

static void view(struct buf *b, struct ima_data_view *v)
{
	assert_true(ima_data_view(b->d, (uint32_t)b->n, IMA_BO_LITTLE, v));
}

/* b's data read as a buffer in field k, the record identified as ident */
static void buffer_at(struct buf *b, int k, unsigned int ident)
{
	struct ima_data_view v;

	view(b, &v);
	assert_true(v.buf);
	assert_int_equal(v.buf_field, k);
	assert_int_equal(v.ident, ident);
}

/*
 * What a record's data can be read as, whatever its name, under any of
 * the kernel's fields in any order and number. Before, only the three
 * templates we use were read: a policy record in a custom template with
 * one more field (d-ng|n-ng|buf|iuid), or its fields reordered, was no
 * buffer and no policy, and a boot_aggregate with the legacy d digest
 * (ima_template_fmt=d|n-ng) was no boundary.
 */
static void test_data_view_readings(void **state)
{
	static const char pol[] = "measure func=BPRM_CHECK\n";
	uint8_t dng[8 + 32], sha1[20], agg[20];
	struct ima_data_view v;
	struct buf b;

	memcpy(dng, "sha256:", 8);
	assert_int_equal(ima_digest(ima_hash_by_name("sha256", 6), pol,
				    strlen(pol), dng + 8), 0);
	/* ima-buf, the control */
	fields(&b, 3, dng, sizeof(dng), "ima_policy_loaded", (size_t)18, pol,
	       strlen(pol));
	buffer_at(&b, 2, IMA_ID_POLICY);
	/* d-ng|n-ng|buf|iuid: the kernel leaves iuid empty for a buffer */
	fields(&b, 4, dng, sizeof(dng), "ima_policy_loaded", (size_t)18, pol,
	       strlen(pol), "", (size_t)0);
	buffer_at(&b, 2, IMA_ID_POLICY);
	/* reordered: buf|d-ng|iuid|n-ng */
	fields(&b, 4, pol, strlen(pol), dng, sizeof(dng), "", (size_t)0,
	       "kexec_execute", (size_t)14);
	buffer_at(&b, 0, IMA_ID_KEXEC_EXECUTE);
	/* a fourth non-empty field: no buffer the kernel writes, but still
	 * readable as the policy record (so a renamed one is seen) */
	fields(&b, 4, dng, sizeof(dng), "ima_policy", (size_t)11, pol,
	       strlen(pol), "\x01\0\0\0", (size_t)4);
	view(&b, &v);
	assert_false(v.buf);
	assert_int_equal(v.ident, IMA_ID_POLICY);
	/* the legacy d digest (sha1, 20 raw bytes) hashes a buffer too */
	assert_int_equal(ima_digest(ima_hash_by_name("sha1", 4), pol,
				    strlen(pol), sha1), 0);
	fields(&b, 3, sha1, sizeof(sha1), "ima_policy_loaded", (size_t)18,
	       pol, strlen(pol));
	view(&b, &v);
	assert_true(v.buf);
	assert_int_equal(v.ident, IMA_ID_POLICY);
	/* boot_aggregate under d|n-ng, or named without a digest at all */
	memset(agg, 0x42, sizeof(agg));
	fields(&b, 2, agg, sizeof(agg), "boot_aggregate", (size_t)15);
	view(&b, &v);
	assert_int_equal(v.ident, IMA_ID_BOOT);
	assert_false(v.buf);
	assert_null(v.alg);	/* by position: no d-ng */
	fields(&b, 2, "boot_aggregate", (size_t)15, "x", (size_t)1);
	view(&b, &v);
	assert_int_equal(v.ident, IMA_ID_BOOT);
	/* not a buffer: a third field that starts as a signature, one that
	 * does not hash to the digest, a name with a NUL inside */
	fields(&b, 3, dng, sizeof(dng), "/bin/f", (size_t)7, "\x03rest",
	       (size_t)5);
	view(&b, &v);
	assert_false(v.buf);
	fields(&b, 3, dng, sizeof(dng), "/bin/f", (size_t)7, "other",
	       (size_t)5);
	view(&b, &v);
	assert_false(v.buf);
	assert_int_equal(v.ident, 0);
	fields(&b, 3, dng, sizeof(dng), "/bin\0f", (size_t)7, pol,
	       strlen(pol));
	view(&b, &v);
	assert_false(v.buf);
	/* a name that only starts as the policy's is not it */
	fields(&b, 3, dng, sizeof(dng), "ima_policy_x", (size_t)13, pol,
	       strlen(pol));
	view(&b, &v);
	assert_true(v.buf);
	assert_int_equal(v.ident, 0);
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_little_and_big_endian),
	cmocka_unit_test(test_legacy_ima_template),
	cmocka_unit_test(test_chunked_pipe_read),
	cmocka_unit_test(test_hostile_name_length),
	cmocka_unit_test(test_zero_name_and_data_length),
	cmocka_unit_test(test_field_past_end),
	cmocka_unit_test(test_trailing_and_missing_fields),
	cmocka_unit_test(test_truncated),
	cmocka_unit_test(test_limits),
	cmocka_unit_test(test_pcr_and_order_detection),
	cmocka_unit_test(test_template_lookup),
	cmocka_unit_test(test_unknown_template_is_framed),
	cmocka_unit_test(test_split_digest_field),
	cmocka_unit_test(test_data_view_readings))
