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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "ima_attest.h"
#include "ima_sig.h"
#include "testbuf.h"
#include "testcert.h"
#include "util.h"
#include "unit_main.h"

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
	unsigned char zero[320] = { 0 }, agg[32];
	unsigned int n;

	EVP_Digest(zero, sizeof(zero), agg, &n, EVP_sha256(), NULL);
	e->n = 0;
	put_ng_record(e, agg, "boot_aggregate", 14, NULL);	/* PCR 10 */
}

/* the control: entry 0 covered by the quote, from a new state */
static void test_first_round_boot_aggregate(void **state)
{
	struct att_poll_state st = { 0 };
	struct att_poll_round r = { 0 };
	struct ima_pcr_values q;
	struct buf e = { .n = 0 };
	size_t dstart;

	boot_aggregate_entry(&e);
	dstart = 4 + 20 + 4 + 6 + 4;
	memset(&q, 0, sizeof(q));
	q.have[IMA_BANK_SHA1] = q.have[IMA_BANK_SHA256] = 0x7ff;
	extend0(EVP_sha1(), e.d + dstart, e.n - dstart, q.val[IMA_BANK_SHA1][10]);
	extend0(EVP_sha256(), e.d + dstart, e.n - dstart, q.val[IMA_BANK_SHA256][10]);
	r.quoted = &q;
	r.entries = e.d;
	r.entries_len = e.n;
	if (att_poll(&st, &r))
		fail_msg("the genuine first round was refused: %s", r.rs.r[0]);
	assert_int_equal(r.verified, 1);
	assert_int_equal(st.next_index, 1);
	assert_int_equal(st.next_offset, e.n);
	/* the same entry with another boot_aggregate: refused */
	memset(&st, 0, sizeof(st));
	att_reasons_free(&r.rs);
	q.val[IMA_BANK_SHA256][0][0] = 1;
	assert_true(att_poll(&st, &r) > 0);
	assert_false(st.have_boot);
	att_reasons_free(&r.rs);
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
	att_reasons_free(&r.rs);
}

/* --- kexec hand-over ---------------------------------------------------- */

struct list {
	unsigned char b[4096];
	size_t n;
	size_t end[16];			/* each entry's end offset */
	int count;
};

/* PCR = H(PCR || H(data)) */
static void extend(const EVP_MD *md, const unsigned char *data, size_t len,
		   unsigned char *pcr)
{
	unsigned char in[64];
	unsigned int n, sz = (unsigned int)EVP_MD_get_size(md);

	memcpy(in, pcr, sz);
	EVP_Digest(data, len, in + sz, &n, md, NULL);
	EVP_Digest(in, 2 * sz, pcr, &n, md, NULL);
}

/* append a record of template tmpl with template data d */
static void add(struct list *l, const char *tmpl, const struct buf *d)
{
	struct buf e = { .n = 0 };
	unsigned char th[20];
	unsigned int n;

	EVP_Digest(d->d, d->n, th, &n, EVP_sha1(), NULL);
	put32(&e, ATT_POLL_PCR);
	put(&e, th, 20);
	put32(&e, (uint32_t)strlen(tmpl));
	put(&e, tmpl, strlen(tmpl));
	put32(&e, (uint32_t)d->n);
	put(&e, d->d, d->n);
	memcpy(l->b + l->n, e.d, e.n);
	l->n += e.n;
	l->end[l->count++] = l->n;
}

/* d-ng "sha256:" + digest, n-ng name (with its NUL) */
static void dng_nng(struct buf *d, const unsigned char *dig, const char *name)
{
	put32(d, 7 + 1 + 32);
	put(d, "sha256:", 8);
	put(d, dig, 32);
	put32(d, (uint32_t)strlen(name) + 1);
	put(d, name, strlen(name) + 1);
}

/* boot_aggregate of all-zero PCRs 0-9 (flip: a wrong one) */
static void add_boot(struct list *l, bool flip)
{
	unsigned char zero[320] = { 0 }, agg[32];
	struct buf d = { .n = 0 };
	unsigned int n;

	EVP_Digest(zero, sizeof(zero), agg, &n, EVP_sha256(), NULL);
	agg[0] ^= flip;
	dng_nng(&d, agg, "boot_aggregate");
	add(l, "ima-ng", &d);
}

/* critical data (ima-buf) NAME with its text as the buffer */
static void add_buf(struct list *l, const char *name, const char *text)
{
	struct buf d = { .n = 0 };
	unsigned char dig[32];
	unsigned int n;

	EVP_Digest(text, strlen(text), dig, &n, EVP_sha256(), NULL);
	dng_nng(&d, dig, name);
	put32(&d, (uint32_t)strlen(text));
	put(&d, text, strlen(text));
	add(l, "ima-buf", &d);
}

/* an ima-sig file record (no signature: rounds here have no verifier) */
static void add_file(struct list *l, const char *path)
{
	struct buf d = { .n = 0 };
	unsigned char dig[32];
	unsigned int n;

	EVP_Digest(path, strlen(path), dig, &n, EVP_sha256(), NULL);
	dng_nng(&d, dig, path);
	put32(&d, 0);
	add(l, "ima-sig", &d);
}

static const char exec_text[] = "kexec_segment_size=8192;ima_binary_runtime_size=300;ima_runtime_measurements_count=3;";

/*
 * One round over entries [from, to) of l, quoted after `quoted` entries
 * (PCRs 0-9 zero): the reasons' count; *st moves on success.
 */
/*
 * The quoted PCRs after the first `quoted` entries of l (PCRs 0-9 zero):
 * PCR 10 replayed again from the bytes, with OpenSSL
 */
static void quoted_pcrs(const struct list *l, int quoted,
			struct ima_pcr_values *q)
{
	unsigned char pcr1[20] = { 0 }, pcr256[32] = { 0 };
	int i;

	memset(q, 0, sizeof(*q));
	q->have[IMA_BANK_SHA1] = q->have[IMA_BANK_SHA256] = 0x7ff;
	for (i = 0; i < quoted; i++) {
		size_t s = i ? l->end[i - 1] : 0;
		uint32_t tl = l->b[s + 24] | l->b[s + 25] << 8;
		size_t dstart = s + 4 + 20 + 4 + tl + 4;

		extend(EVP_sha1(), l->b + dstart, l->end[i] - dstart, pcr1);
		extend(EVP_sha256(), l->b + dstart, l->end[i] - dstart, pcr256);
	}
	memcpy(q->val[IMA_BANK_SHA1][10], pcr1, 20);
	memcpy(q->val[IMA_BANK_SHA256][10], pcr256, 32);
}

static int round_over(struct att_poll_state *st, struct att_poll_round *r,
		      const struct list *l, int from, int to, int quoted)
{
	static struct ima_pcr_values q;
	size_t start = from ? l->end[from - 1] : 0;

	quoted_pcrs(l, quoted, &q);
	round_init(r, &q, l->b + start, (to ? l->end[to - 1] : 0) - start);
	r->offset = start;
	return att_poll(st, r);
}

/* a first round over all of l's entries, all quoted: refused for text */
static void expect_refused(const struct list *l, const char *text)
{
	struct att_poll_state st = { 0 };
	struct att_poll_round r = { 0 };

	assert_int_not_equal(round_over(&st, &r, l, 0, l->count, l->count), 0);
	assert_true(has_reason(&r.rs, text));
	att_reasons_free(&r.rs);
}

/*
 * A first round over l's entries 0-2 (boot, a file, kexec_execute), the
 * quote ending there: refused, the state keeps no boot
 */
static void ends_at_kexec(struct att_poll_state *st, struct att_poll_round *r,
			  const struct list *l)
{
	assert_int_not_equal(round_over(st, r, l, 0, 3, 3), 0);
	assert_true(has_reason(&r->rs, "the quoted PCR 10 ends at kexec_execute (entry 2)"));
	assert_false(st->have_boot);
}

/* control: boot, a file, kexec_execute, the next kernel's boot_aggregate */
static void test_kexec_handover_genuine(void **state)
{
	struct att_poll_state st = { 0 };
	struct att_poll_round r = { 0 };
	struct list l = { .n = 0 };

	add_boot(&l, false);
	add_file(&l, "/usr/bin/true");
	add_buf(&l, "kexec_execute", exec_text);
	add_boot(&l, false);
	add_file(&l, "/usr/bin/false");
	if (round_over(&st, &r, &l, 0, 2, 2))
		fail_msg("round 1 refused: %s", r.rs.r[0]);
	if (round_over(&st, &r, &l, 2, 5, 5))
		fail_msg("the round over the hand-over refused: %s", r.rs.r[0]);
	assert_int_equal(r.verified, 3);
	assert_int_equal(st.next_index, 5);
	att_reasons_free(&r.rs);
}

/*
 * The attack: kexec into a kernel without IMA. The old kernel's last
 * record is kexec_execute; nothing follows, and every quote from the new
 * kernel's user space shows PCR 10 ending there. Before, that round passed
 * (and every later one, with no entries).
 */
static void test_kexec_into_unmeasured_kernel(void **state)
{
	struct att_poll_state st = { 0 }, saved;
	struct att_poll_round r = { 0 };
	struct list l = { .n = 0 };

	add_boot(&l, false);
	add_file(&l, "/usr/bin/true");
	add_buf(&l, "kexec_execute", exec_text);
	if (round_over(&st, &r, &l, 0, 2, 2))
		fail_msg("round 1 refused: %s", r.rs.r[0]);
	saved = st;
	assert_int_not_equal(round_over(&st, &r, &l, 2, 3, 3), 0);
	assert_true(has_reason(&r.rs, "the quoted PCR 10 ends at kexec_execute (entry 2)"));
	assert_memory_equal(&st, &saved, sizeof(st));
	/* the same in one round from a new state */
	memset(&st, 0, sizeof(st));
	ends_at_kexec(&st, &r, &l);
	att_reasons_free(&r.rs);
}

/* kexec_execute followed by a file record, not a boot_aggregate */
static void test_kexec_not_followed_by_boot(void **state)
{
	struct list l = { .n = 0 };

	add_boot(&l, false);
	add_buf(&l, "kexec_execute", exec_text);
	add_file(&l, "/usr/bin/true");
	expect_refused(&l, "entry 2: kexec_execute (entry 1) is not followed by the next kernel's boot_aggregate");
}

/*
 * A record named boot_aggregate after entry 0 with no kexec_execute before
 * it: a file IMA logged under that bare name (no path), whose signature
 * the poller skips for the name; refused.
 */
static void test_later_boot_without_kexec(void **state)
{
	struct list l = { .n = 0 };

	add_boot(&l, false);
	add_file(&l, "/usr/bin/true");
	add_boot(&l, false);
	expect_refused(&l, "entry 2: a boot_aggregate after entry 0 without a kexec_execute record just before it");
}

/* the next kernel's boot_aggregate is not the quoted PCRs 0-9's */
static void test_kexec_wrong_next_boot(void **state)
{
	struct list l = { .n = 0 };

	add_boot(&l, false);
	add_buf(&l, "kexec_execute", exec_text);
	add_boot(&l, true);
	expect_refused(&l, "entry 2: the next kernel's boot_aggregate is not the one of the quoted PCRs 0-9");
}

/* --- records renamed: no bank hashes the template name --------------- */

/* a file record: d-ng of content, n-ng path, the sig field sig (may be
 * empty), logged under template name tmpl */
static void add_file_as(struct list *l, const char *tmpl, const char *path,
			const unsigned char *content, size_t clen,
			const unsigned char *sig, size_t slen)
{
	struct buf d = { .n = 0 };
	unsigned char dig[32];
	unsigned int n;

	EVP_Digest(content, clen, dig, &n, EVP_sha256(), NULL);
	dng_nng(&d, dig, path);
	put32(&d, (uint32_t)slen);
	put(&d, sig, slen);
	add(l, tmpl, &d);
}

/* round_over with a verifier that knows no key: every file needs a
 * signature, none verifies */
static int round_keyed(struct att_poll_state *st, struct att_poll_round *r,
		       const struct list *l, int to)
{
	static struct ima_keyring kr;
	static struct ima_pcr_values q;
	struct ima_verifier *v = ima_verifier_new(&kr);
	int ret;

	assert_non_null(v);
	quoted_pcrs(l, to, &q);
	round_init(r, &q, l->b, l->end[to - 1]);
	r->verifier = v;
	ret = att_poll(st, r);
	ima_verifier_free(v);
	return ret;
}

/*
 * The attack: an unsigned program's ima-sig record sent under the name
 * "ima-buf" (same length, same layout, same template hash and PCR 10):
 * its third field reads as a buffer, and buffers carry no signature.
 * Before, the round passed with a verifier. The control: a genuine
 * ima-buf record (its digest the hash of its buffer) passes.
 */
static void test_unsigned_file_renamed_buffer(void **state)
{
	struct att_poll_state st = { 0 };
	struct att_poll_round r = { 0 };
	struct list l = { .n = 0 };
	static const char evil[] = "#!/bin/sh\nevil\n";

	add_boot(&l, false);
	add_buf(&l, "ima_policy_loaded", "measure func=BPRM_CHECK\n");
	if (round_keyed(&st, &r, &l, 2))
		fail_msg("a genuine buffer record was refused: %s", r.rs.r[0]);
	memset(&st, 0, sizeof(st));
	add_file_as(&l, "ima-buf", "/tmp/evil", (const unsigned char *)evil,
		    strlen(evil), (const unsigned char *)"", 0);
	assert_int_not_equal(round_keyed(&st, &r, &l, 3), 0);
	assert_true(has_reason(&r.rs, "entry 2 (/tmp/evil): unsigned: a file the verifier does not know"));
	assert_false(st.have_boot);
	/* the same under a custom format with a buf field */
	memset(&st, 0, sizeof(st));
	l.n = l.end[1];
	l.count = 2;
	add_file_as(&l, "d-ng|n-ng|buf", "/tmp/evil", (const unsigned char *)evil,
		    strlen(evil), (const unsigned char *)"", 0);
	assert_int_not_equal(round_keyed(&st, &r, &l, 3), 0);
	assert_true(has_reason(&r.rs, "entry 2 (/tmp/evil): unsigned"));
	att_reasons_free(&r.rs);
}

/*
 * A file whose content is the bytes of its own security.ima (a type 0x03
 * signature header, the rest garbage) has digest = hash(third field):
 * renamed ima-buf it reads as a genuine buffer by its digest alone. The
 * third field starts with a signature's type, so it is a signature, and
 * it verifies with no key.
 */
static void test_file_equal_to_its_signature(void **state)
{
	struct att_poll_state st = { 0 };
	struct att_poll_round r = { 0 };
	struct list l = { .n = 0 };
	static const unsigned char x[] = { 0x03, 0x02, 0x04, 0xde, 0xad, 0xbe,
					   0xef, 0x00, 0x04, 'e', 'v', 'i', 'l' };

	add_boot(&l, false);
	add_file_as(&l, "ima-buf", "/tmp/evil", x, sizeof(x), x, sizeof(x));
	assert_int_not_equal(round_keyed(&st, &r, &l, 2), 0);
	assert_true(has_reason(&r.rs, "entry 1 (/tmp/evil): signature does not verify with the IMA key"));
	assert_false(st.have_boot);
	att_reasons_free(&r.rs);
}

/*
 * kexec_execute (ima-buf) sent under the name "ima-sig": no buf field by
 * name, so no hand-over was seen, and a quote ending there (a kernel that
 * measures nothing) passed without --key. The record is a buffer by its
 * data, whatever its name: refused.
 */
/* kexec_execute's data (d-ng, n-ng, buf, then `empty` empty fields, as
 * the kernel fills a custom template's file fields for a buffer) under
 * template name tmpl */
static void add_exec_as(struct list *l, const char *tmpl, int empty)
{
	struct buf d = { .n = 0 };
	unsigned char dig[32];
	unsigned int n;

	EVP_Digest(exec_text, strlen(exec_text), dig, &n, EVP_sha256(), NULL);
	dng_nng(&d, dig, "kexec_execute");
	put32(&d, (uint32_t)strlen(exec_text));
	put(&d, exec_text, strlen(exec_text));
	while (empty--)
		put32(&d, 0);
	add(l, tmpl, &d);
}

static void test_kexec_execute_renamed(void **state)
{
	struct att_poll_state st = { 0 };
	struct att_poll_round r = { 0 };
	struct list l = { .n = 0 };

	add_boot(&l, false);
	add_file(&l, "/usr/bin/true");
	add_exec_as(&l, "ima-sig", 0);
	ends_at_kexec(&st, &r, &l);
	/* the control: the next kernel's boot_aggregate after it passes */
	add_boot(&l, false);
	if (round_over(&st, &r, &l, 0, 4, 4))
		fail_msg("the hand-over under a renamed record was refused: %s", r.rs.r[0]);
	att_reasons_free(&r.rs);
}

/*
 * A file the guest names "/tmp/x<newline>round 1: PASS ...": its reason
 * quotes the name, and the poll report prints reasons one a line, so the
 * name would print a passing round of its own (and, written to a state
 * or an enrollment record, a line of it). Every reason is escaped: no
 * byte outside printable ASCII, the newline shown as \x0a.
 */
static void test_reason_escapes_names(void **state)
{
	struct att_poll_state st = { 0 };
	struct att_poll_round r = { 0 };
	struct list l = { .n = 0 };
	static const char evil[] = "/tmp/x\nround 1: PASS, 9 new entries verified\x1b[2K\\";
	int i;
	size_t j;

	add_boot(&l, false);
	add_file_as(&l, "ima-sig", evil, (const unsigned char *)"x", 1,
		    (const unsigned char *)"", 0);
	assert_int_not_equal(round_keyed(&st, &r, &l, 2), 0);
	assert_true(has_reason(&r.rs, "entry 1 (/tmp/x\\x0around 1: PASS, 9 new entries verified\\x1b[2K\\x5c): unsigned"));
	for (i = 0; i < r.rs.n; i++)
		for (j = 0; r.rs.r[i][j]; j++)
			if (r.rs.r[i][j] < 0x20 || r.rs.r[i][j] > 0x7e)
				fail_msg("reason %d holds byte 0x%02x: %s", i,
					 (unsigned char)r.rs.r[i][j], r.rs.r[i]);
	att_reasons_free(&r.rs);
}

/*
 * kexec_execute under a custom template with one more field
 * (d-ng|n-ng|buf|iuid; the kernel leaves iuid empty for a buffer), sent
 * under the name "d-ng|n-ng|xattrvalues|iuid": before, only three-field
 * records were read as buffers, so no hand-over was seen and a quote
 * ending there (a kernel that measures nothing) passed.
 */
static void test_kexec_execute_custom_fields(void **state)
{
	struct att_poll_state st = { 0 };
	struct att_poll_round r = { 0 };
	struct list l = { .n = 0 };

	add_boot(&l, false);
	add_file(&l, "/usr/bin/true");
	add_exec_as(&l, "d-ng|n-ng|xattrvalues|iuid", 1);
	ends_at_kexec(&st, &r, &l);
	att_reasons_free(&r.rs);
}

/*
 * A later kernel's boot_aggregate under a custom template with its
 * fields reordered (n-ng|d-ng), no kexec_execute before it: before, the
 * name was read at the second field only, so no boundary was seen (the
 * round passed without a key).
 */
static void test_boot_aggregate_reordered(void **state)
{
	struct list l = { .n = 0 };
	struct buf d = { .n = 0 };
	unsigned char zero[320] = { 0 }, agg[32];
	unsigned int n;

	add_boot(&l, false);
	add_file(&l, "/usr/bin/true");
	EVP_Digest(zero, sizeof(zero), agg, &n, EVP_sha256(), NULL);
	put32(&d, 15);
	put(&d, "boot_aggregate", 15);
	put32(&d, 7 + 1 + 32);
	put(&d, "sha256:", 8);
	put(&d, agg, 32);
	add(&l, "n-ng|d-ng", &d);
	expect_refused(&l, "entry 2: a boot_aggregate after entry 0 without a kexec_execute record just before it");
}

/* --- what a signature attests: one rule with ima-audit ------------- */

static EVP_PKEY *ima_key;
static struct ima_keyring ima_kr;

/* a throwaway IMA key, loaded as a bare public key (evmctl's key id) */
static void ima_key_setup(void)
{
	char path[64];
	char err[256];

	if (ima_key)
		return;
	ima_key = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	assert_non_null(ima_key);
	test_pubkey_pem(ima_key, "poll", path, sizeof(path));
	assert_int_equal(ima_keyring_load(&ima_kr, path, err, sizeof(err)), 0);
	remove(path);
}

/* a sig field: type/version, md over tbs (a digest of md's size) */
static size_t sign_field(const char *md, int algo, int type, int version,
			 const unsigned char *tbs, size_t tlen,
			 unsigned char *out)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(ima_key, NULL);
	size_t siglen = 300;
	uint32_t id = ima_kr.keys[0].keyid;

	assert_true(EVP_PKEY_sign_init(ctx) > 0);
	assert_true(EVP_PKEY_CTX_set_signature_md(ctx, EVP_get_digestbyname(md)) > 0);
	assert_true(EVP_PKEY_sign(ctx, out + 9, &siglen, tbs, tlen) > 0);
	EVP_PKEY_CTX_free(ctx);
	out[0] = (unsigned char)type;
	out[1] = (unsigned char)version;
	out[2] = (unsigned char)algo;
	out[3] = id >> 24;
	out[4] = id >> 16;
	out[5] = id >> 8;
	out[6] = id;
	out[7] = siglen >> 8;
	out[8] = siglen & 0xff;
	return siglen + 9;
}

/* a file record "ALGOFIELD\0digest", path, sig; a round over boot + it
 * with a verifier holding the IMA key */
static int signed_round(const char *algofield, const unsigned char *dig,
			size_t dlen, const unsigned char *sig, size_t slen,
			struct att_poll_round *r)
{
	static struct ima_pcr_values q;
	struct att_poll_state st = { 0 };
	struct list l = { .n = 0 };
	struct buf d = { .n = 0 };
	struct ima_verifier *v = ima_verifier_new(&ima_kr);
	int ret;

	add_boot(&l, false);
	put32(&d, (uint32_t)(strlen(algofield) + 1 + dlen));
	put(&d, algofield, strlen(algofield) + 1);
	put(&d, dig, dlen);
	put32(&d, 10);
	put(&d, "/bin/file", 10);
	put32(&d, (uint32_t)slen);
	put(&d, sig, slen);
	add(&l, "ima-sigv2", &d);
	quoted_pcrs(&l, 2, &q);
	round_init(r, &q, l.b, l.n);
	r->verifier = v;
	ret = att_poll(&st, r);
	ima_verifier_free(v);
	return ret;
}

/*
 * A file measured with md5 and signed over that digest, the signature
 * valid: ima-audit refused it (the signature attests nothing), poll
 * accepted it. The rule is now in the library's verification, which both
 * use. The control: the same over sha256.
 */
static void test_md5_signature(void **state)
{
	struct att_poll_round r = { 0 };
	unsigned char md5[16], s256[32], sig[400];
	size_t n;

	ima_key_setup();
	memset(md5, 0x35, sizeof(md5));
	memset(s256, 0x36, sizeof(s256));
	n = sign_field("SHA256", 4, 3, 2, s256, 32, sig);
	if (signed_round("sha256:", s256, 32, sig, n, &r))
		fail_msg("the control (sha256, signed) was refused: %s", r.rs.r[0]);
	n = sign_field("MD5", 1, 3, 2, md5, 16, sig);
	assert_int_not_equal(signed_round("md5:", md5, 16, sig, n, &r), 0);
	assert_true(has_reason(&r.rs, "entry 1 (/bin/file): a signature over an md5 digest attests nothing"));
	att_reasons_free(&r.rs);
}

/*
 * ima-sigv2 records say what their digest is: "verity:" an fs-verity
 * digest, which only a verity signature (type 6, v3, over sha256 of
 * {6, algo, digest}) signs; a file-hash signature (type 3) over it is
 * one the kernel refuses, and poll verified it as one over a file hash.
 * The controls: a type 6 signature over the verity digest, a type 3 over
 * an "ima:" digest.
 */
static void test_signature_type(void **state)
{
	struct att_poll_round r = { 0 };
	unsigned char dig[32], id[34], idd[32], sig[400];
	size_t n;

	ima_key_setup();
	memset(dig, 0x76, sizeof(dig));
	n = sign_field("SHA256", 4, 3, 2, dig, 32, sig);
	if (signed_round("ima:sha256:", dig, 32, sig, n, &r))
		fail_msg("the control (ima:, type 3) was refused: %s", r.rs.r[0]);
	assert_int_not_equal(signed_round("verity:sha256:", dig, 32, sig, n, &r), 0);
	assert_true(has_reason(&r.rs, "entry 1 (/bin/file): a file-hash signature over an fs-verity digest: the kernel refuses it"));
	id[0] = 6;
	id[1] = 4;
	memcpy(id + 2, dig, 32);
	EVP_Digest(id, sizeof(id), idd, NULL, EVP_sha256(), NULL);
	n = sign_field("SHA256", 4, 6, 3, idd, 32, sig);
	if (signed_round("verity:sha256:", dig, 32, sig, n, &r))
		fail_msg("the control (verity:, type 6) was refused: %s", r.rs.r[0]);
	assert_int_not_equal(signed_round("ima:sha256:", dig, 32, sig, n, &r), 0);
	assert_true(has_reason(&r.rs, "an fs-verity signature over a file-hash digest: the kernel refuses it"));
	att_reasons_free(&r.rs);
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_first_round_boot_aggregate),
	cmocka_unit_test(test_first_round_nothing_measured),
	cmocka_unit_test(test_kexec_handover_genuine),
	cmocka_unit_test(test_kexec_into_unmeasured_kernel),
	cmocka_unit_test(test_kexec_not_followed_by_boot),
	cmocka_unit_test(test_later_boot_without_kexec),
	cmocka_unit_test(test_kexec_wrong_next_boot),
	cmocka_unit_test(test_unsigned_file_renamed_buffer),
	cmocka_unit_test(test_file_equal_to_its_signature),
	cmocka_unit_test(test_kexec_execute_renamed),
	cmocka_unit_test(test_reason_escapes_names),
	cmocka_unit_test(test_kexec_execute_custom_fields),
	cmocka_unit_test(test_boot_aggregate_reordered),
	cmocka_unit_test(test_md5_signature),
	cmocka_unit_test(test_signature_type))
