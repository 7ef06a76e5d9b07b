// SPDX-License-Identifier: GPL-2.0-only
/*
 * One polling round (att_poll) from a new state. The entries and the
 * quoted PCRs are built here: an ima-ng boot_aggregate entry, its template
 * hash and both banks' PCR 10 computed with OpenSSL from the bytes written,
 * boot_aggregate as sha256 over the quoted sha256 PCRs 0-9 (all zero).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "ima_attest.h"

struct buf {
	unsigned char b[512];
	size_t n;
};

static void put(struct buf *x, const void *p, size_t n)
{
	memcpy(x->b + x->n, p, n);
	x->n += n;
}

static void le32(struct buf *x, uint32_t v)
{
	unsigned char c[4] = { v, v >> 8, v >> 16, v >> 24 };

	put(x, c, 4);
}

/* PCR = H(PCR || H(data)) from a zero PCR */
static void extend0(const EVP_MD *md, const unsigned char *data, size_t len,
		    unsigned char *pcr)
{
	unsigned char in[64];
	unsigned int n, sz = (unsigned int)EVP_MD_get_size(md);

	memset(in, 0, sz);
	EVP_Digest(data, len, in + sz, &n, md, NULL);
	EVP_Digest(in, 2 * sz, pcr, &n, md, NULL);
}

/* the list's entry 0 as the kernel writes it (little-endian, ima-ng) */
static void boot_aggregate_entry(struct buf *e)
{
	unsigned char zero[320] = { 0 }, agg[32], th[20];
	struct buf d = { .n = 0 };
	unsigned int n;

	EVP_Digest(zero, sizeof(zero), agg, &n, EVP_sha256(), NULL);
	le32(&d, 7 + 1 + 32);
	put(&d, "sha256:", 8);		/* with its NUL */
	put(&d, agg, 32);
	le32(&d, 15);
	put(&d, "boot_aggregate", 15);
	EVP_Digest(d.b, d.n, th, &n, EVP_sha1(), NULL);
	e->n = 0;
	le32(e, ATT_POLL_PCR);
	put(e, th, 20);
	le32(e, 6);
	put(e, "ima-ng", 6);
	le32(e, (uint32_t)d.n);
	put(e, d.b, d.n);
}

/* the control: entry 0 covered by the quote, from a new state */
static void test_first_round_boot_aggregate(void **state)
{
	struct att_poll_state st = { 0 };
	struct att_poll_round r = { 0 };
	struct ima_pcr_values q;
	struct buf e;
	size_t dstart;

	boot_aggregate_entry(&e);
	dstart = 4 + 20 + 4 + 6 + 4;
	memset(&q, 0, sizeof(q));
	q.have[IMA_BANK_SHA1] = q.have[IMA_BANK_SHA256] = 0x7ff;
	extend0(EVP_sha1(), e.b + dstart, e.n - dstart, q.val[IMA_BANK_SHA1][10]);
	extend0(EVP_sha256(), e.b + dstart, e.n - dstart, q.val[IMA_BANK_SHA256][10]);
	r.quoted = &q;
	r.entries = e.b;
	r.entries_len = e.n;
	if (att_poll(&st, &r))
		fail_msg("the genuine first round was refused: %s", r.rs.r[0]);
	assert_int_equal(r.verified, 1);
	assert_int_equal(st.next_index, 1);
	assert_int_equal(st.next_offset, e.n);
	/* the same entry with another boot_aggregate: refused */
	memset(&st, 0, sizeof(st));
	memset(&r.rs, 0, sizeof(r.rs));
	q.val[IMA_BANK_SHA256][0][0] = 1;
	assert_true(att_poll(&st, &r) > 0);
	assert_false(st.have_boot);
}

/*
 * A first round whose quoted PCR 10 is zero in both banks and no entries:
 * nothing was ever measured (a running IMA extends boot_aggregate before
 * any process starts, so a quote taken from user space always covers
 * entry 0). It must be refused: the round would check no boot_aggregate
 * and every later round would pass with zero entries, forever.
 */
static void test_first_round_nothing_measured(void **state)
{
	struct att_poll_state st = { 0 };
	struct att_poll_round r = { 0 };
	struct ima_pcr_values q;

	memset(&q, 0, sizeof(q));
	q.have[IMA_BANK_SHA1] = q.have[IMA_BANK_SHA256] = 0x7ff;
	r.quoted = &q;
	r.entries = (const uint8_t *)"";
	r.entries_len = 0;
	if (att_poll(&st, &r) == 0)
		fail_msg("a first round with PCR 10 zero and no entry passed (%llu verified)",
			 (unsigned long long)r.verified);
	assert_non_null(strstr(r.rs.r[0], "boot_aggregate"));
	assert_false(st.have_boot);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_round_boot_aggregate),
		cmocka_unit_test(test_first_round_nothing_measured),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
