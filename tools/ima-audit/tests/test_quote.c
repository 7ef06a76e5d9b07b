// SPDX-License-Identifier: GPL-2.0-only
/*
 * TPM quote tests. Every quote is built here, as a TPM would marshal it,
 * and signed with a key made at test time (never stored): RSA-2048
 * (RSASSA-PKCS1-v1_5) and P-256 (ECDSA), sha256, PCRs 0-10 of the sha1
 * and sha256 banks. The pcrDigest is computed here with plain EVP calls,
 * independently of the library's own.
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
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "ima_quote.h"
#include "testcert.h"
#include "unit_main.h"

#define NPCR 11			/* PCRs 0-10 */
#define MAX_MSG 512

static EVP_PKEY *rsa, *ec, *rsa2;
static const uint8_t nonce[20] = {
	0x4c, 0x7e, 0xed, 0xf8, 0x77, 0x6c, 0x01, 0xd5, 0xca, 0x7b,
	0x9f, 0x47, 0xf1, 0x54, 0xcc, 0xa1, 0x3a, 0xbd, 0x72, 0x2d,
};

/* A quote under construction: the fields a test may change. */
struct tq {
	uint32_t magic;
	uint16_t type;
	const uint8_t *nonce;
	size_t nonce_len;
	uint8_t values[NPCR * (20 + 32)];	/* sha1 0-10, sha256 0-10 */
	bool corrupt_digest;
	/* output */
	uint8_t msg[MAX_MSG];
	size_t len;
	uint8_t sig[600];
	size_t sig_len;
};

static void put(struct tq *t, const void *p, size_t n)
{
	assert_true(t->len + n <= sizeof(t->msg));
	memcpy(t->msg + t->len, p, n);
	t->len += n;
}

static void put16(struct tq *t, uint16_t v)
{
	uint8_t b[2] = { v >> 8, v & 0xff };

	put(t, b, 2);
}

static void put32(struct tq *t, uint32_t v)
{
	put16(t, v >> 16);
	put16(t, v & 0xffff);
}

static void put64(struct tq *t, uint64_t v)
{
	put32(t, v >> 32);
	put32(t, v & 0xffffffff);
}

static void init_tq(struct tq *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->magic = TPM_GENERATED_VALUE;
	t->type = TPM_ST_ATTEST_QUOTE;
	t->nonce = nonce;
	t->nonce_len = sizeof(nonce);
	for (i = 0; i < sizeof(t->values); i++)
		t->values[i] = (uint8_t)(i * 7 + 1);
}

/* TPMS_ATTEST for t, selection sha1:0-10 + sha256:0-10 */
static void marshal(struct tq *t)
{
	static const uint8_t name[34] = { 0x00, 0x0b, 0xe0, 0x7c };
	static const uint8_t sel[3] = { 0xff, 0x07, 0x00 };
	uint8_t d[32];
	unsigned int dlen;

	t->len = 0;
	put32(t, t->magic);
	put16(t, t->type);
	put16(t, sizeof(name));
	put(t, name, sizeof(name));
	put16(t, (uint16_t)t->nonce_len);
	put(t, t->nonce, t->nonce_len);
	put64(t, 13330);		/* clock */
	put32(t, 2);			/* resetCount */
	put32(t, 0);			/* restartCount */
	put(t, "\x01", 1);		/* safe */
	put64(t, 0x2019102300163636ull);
	put32(t, 2);
	put16(t, TPM_ALG_SHA1);
	put(t, "\x03", 1);
	put(t, sel, 3);
	put16(t, TPM_ALG_SHA256);
	put(t, "\x03", 1);
	put(t, sel, 3);
	assert_true(EVP_Digest(t->values, sizeof(t->values), d, &dlen,
			       EVP_sha256(), NULL));
	if (t->corrupt_digest)
		d[0] ^= 1;
	put16(t, 32);
	put(t, d, 32);
}

/* plain signature (PKCS#1 v1.5, or ECDSA DER) over t->msg */
static size_t sign_plain(EVP_PKEY *k, const uint8_t *msg, size_t len,
			 uint8_t *out, size_t max)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	size_t n = max;

	assert_non_null(ctx);
	assert_int_equal(EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL,
					    k), 1);
	assert_int_equal(EVP_DigestSign(ctx, out, &n, msg, len), 1);
	EVP_MD_CTX_free(ctx);
	return n;
}

/* TPMT_SIGNATURE, as tpm2_quote -f tss writes it */
static void sign_tss(struct tq *t, EVP_PKEY *k)
{
	static const uint8_t rsassa[4] = { 0x00, 0x14, 0x00, 0x0b };
	static const uint8_t ecdsa[4] = { 0x00, 0x18, 0x00, 0x0b };
	static const uint8_t size32[2] = { 0x00, 32 };
	uint8_t raw[600];
	size_t n = sign_plain(k, t->msg, t->len, raw, sizeof(raw));
	uint8_t *p = t->sig;

	if (EVP_PKEY_base_id(k) == EVP_PKEY_RSA) {
		memcpy(p, rsassa, 4);
		p[4] = (uint8_t)(n >> 8);
		p[5] = (uint8_t)n;
		memcpy(p + 6, raw, n);
		t->sig_len = 6 + n;
	} else {
		const uint8_t *q = raw;
		ECDSA_SIG *es = d2i_ECDSA_SIG(NULL, &q, (long)n);

		assert_non_null(es);
		memcpy(p, ecdsa, 4);
		memcpy(p + 4, size32, 2);
		BN_bn2binpad(ECDSA_SIG_get0_r(es), p + 6, 32);
		memcpy(p + 38, size32, 2);
		BN_bn2binpad(ECDSA_SIG_get0_s(es), p + 40, 32);
		t->sig_len = 4 + 2 * 34;
		ECDSA_SIG_free(es);
	}
}

static void make(struct tq *t, EVP_PKEY *k)
{
	marshal(t);
	sign_tss(t, k);
}

static int verify(struct tq *t, EVP_PKEY *ak, struct ima_quote_check *c)
{
	memset(c, 0, sizeof(*c));
	c->msg = t->msg;
	c->msg_len = t->len;
	c->sig = t->sig;
	c->sig_len = t->sig_len;
	c->ak = ak;
	c->nonce = nonce;
	c->nonce_len = sizeof(nonce);
	c->values = t->values;
	c->values_len = sizeof(t->values);
	return ima_quote_verify(c);
}

/* t's message refused by the parser, the error holding why */
static void parse_refused(const struct tq *t, const char *why)
{
	struct ima_quote q;
	char err[200] = "";

	assert_int_equal(ima_quote_parse(&q, t->msg, t->len, err, sizeof(err)),
			 -1);
	if (!strstr(err, why))
		fail_msg("error '%s' lacks '%s'", err, why);
}

/* t marshalled, signed by signer, verified with ak */
static int signed_verified(struct tq *t, EVP_PKEY *signer, EVP_PKEY *ak,
			   struct ima_quote_check *c)
{
	make(t, signer);
	return verify(t, ak, c);
}

/* a genuine quote (init_tq's) signed by signer, verified with ak */
static int quoted(struct tq *t, EVP_PKEY *signer, EVP_PKEY *ak,
		  struct ima_quote_check *c)
{
	init_tq(t);
	return signed_verified(t, signer, ak, c);
}

static bool has_reason(const struct ima_quote_check *c, const char *text)
{
	int i;

	for (i = 0; i < c->nreasons; i++)
		if (strstr(c->reasons[i], text))
			return true;
	return false;
}

static int setup(void **state)
{
	rsa = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	rsa2 = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	ec = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	return rsa && rsa2 && ec ? 0 : -1;
}

static int teardown(void **state)
{
	EVP_PKEY_free(rsa);
	EVP_PKEY_free(rsa2);
	EVP_PKEY_free(ec);
	return 0;
}

static void test_parse_fields(void **state)
{
	struct ima_quote q;
	struct tq t;
	char err[200];

	init_tq(&t);
	marshal(&t);
	assert_int_equal(ima_quote_parse(&q, t.msg, t.len, err, sizeof(err)),
			 0);
	assert_int_equal(q.magic, TPM_GENERATED_VALUE);
	assert_int_equal(q.type, TPM_ST_ATTEST_QUOTE);
	assert_int_equal(q.signer_len, 34);
	assert_int_equal(q.extra_len, 20);
	assert_memory_equal(q.extra, nonce, 20);
	assert_int_equal(q.clock, 13330);
	assert_int_equal(q.reset_count, 2);
	assert_int_equal(q.safe, 1);
	assert_int_equal(q.nsel, 2);
	assert_int_equal(q.sel[0].hash, TPM_ALG_SHA1);
	assert_int_equal(q.sel[1].hash, TPM_ALG_SHA256);
	assert_int_equal(q.digest_len, 32);
	assert_int_equal(ima_quote_values_len(&q), NPCR * (20 + 32));
}

static void test_verify_rsa(void **state)
{
	struct ima_quote_check c;
	struct tq t;

	assert_int_equal(quoted(&t, rsa, rsa, &c), IMA_QUOTE_OK);
	assert_int_equal(c.nreasons, 0);
	assert_true(c.sig_ok && c.nonce_ok && c.pcrs_ok);
	/* values landed per bank, in selection order */
	assert_int_equal(c.pcrs.have[IMA_BANK_SHA1], 0x7ff);
	assert_int_equal(c.pcrs.have[IMA_BANK_SHA256], 0x7ff);
	assert_memory_equal(c.pcrs.val[IMA_BANK_SHA1][10], t.values + 200,
			    20);
	assert_memory_equal(c.pcrs.val[IMA_BANK_SHA256][0], t.values + 220,
			    32);
	assert_memory_equal(c.pcrs.val[IMA_BANK_SHA256][10],
			    t.values + 220 + 320, 32);
}

static void test_verify_ecdsa(void **state)
{
	struct ima_quote_check c;
	struct tq t;

	assert_int_equal(quoted(&t, ec, ec, &c), IMA_QUOTE_OK);
	assert_true(c.sig_ok);
}

static void test_verify_plain(void **state)
{
	struct ima_quote_check c;
	struct tq t;
	EVP_PKEY *keys[2] = { rsa, ec };
	int i;

	for (i = 0; i < 2; i++) {
		init_tq(&t);
		marshal(&t);
		t.sig_len = sign_plain(keys[i], t.msg, t.len, t.sig,
				       sizeof(t.sig));
		assert_int_equal(verify(&t, keys[i], &c), IMA_QUOTE_OK);
	}
}

static void test_wrong_nonce(void **state)
{
	static const uint8_t old[20] = { 1, 2, 3 };
	struct ima_quote_check c;
	struct tq t;

	init_tq(&t);
	t.nonce = old;
	assert_int_equal(signed_verified(&t, rsa, rsa, &c), IMA_QUOTE_FAIL);
	assert_false(c.nonce_ok);
	assert_true(c.sig_ok);		/* a genuine quote, but stale */
	assert_int_equal(c.nreasons, 1);
	assert_true(has_reason(&c, "does not match the nonce"));
	/* a shorter nonce that is a prefix is no match either */
	init_tq(&t);
	t.nonce_len = 19;
	assert_int_equal(signed_verified(&t, rsa, rsa, &c), IMA_QUOTE_FAIL);
	assert_true(has_reason(&c, "does not match the nonce"));
}

static void test_other_key(void **state)
{
	struct ima_quote_check c;
	struct tq t;

	/* signed by a key that is not the AK, same algorithm */
	assert_int_equal(quoted(&t, rsa2, rsa, &c), IMA_QUOTE_FAIL);
	assert_false(c.sig_ok);
	assert_true(has_reason(&c, "does not verify with the AK"));
	/* an ECDSA signature presented for an RSA AK */
	assert_int_equal(quoted(&t, ec, rsa, &c), IMA_QUOTE_FAIL);
	assert_true(has_reason(&c, "signed by another key"));
	/* a plain signature by another key */
	init_tq(&t);
	marshal(&t);
	t.sig_len = sign_plain(rsa2, t.msg, t.len, t.sig, sizeof(t.sig));
	assert_int_equal(verify(&t, rsa, &c), IMA_QUOTE_FAIL);
	assert_true(has_reason(&c, "does not verify with the AK"));
}

static void test_altered_message(void **state)
{
	struct ima_quote_check c;
	struct tq t;
	size_t i;

	/* any byte changed after signing breaks the signature */
	for (i = 0; i < 120; i += 7) {
		init_tq(&t);
		make(&t, ec);
		t.msg[i] ^= 0x10;
		if (verify(&t, ec, &c) == IMA_QUOTE_MALFORMED)
			continue;	/* e.g. a length byte */
		assert_false(c.sig_ok);
		assert_true(has_reason(&c, "does not verify with the AK"));
	}
}

static void test_magic_and_type(void **state)
{
	struct ima_quote_check c;
	struct tq t;

	/* signed by the AK, but not a TPM-generated structure */
	init_tq(&t);
	t.magic = 0xff544348;
	assert_int_equal(signed_verified(&t, rsa, rsa, &c), IMA_QUOTE_FAIL);
	assert_true(c.sig_ok);
	assert_true(has_reason(&c, "not TPM_GENERATED_VALUE"));
	/* a certify structure (TPM_ST_ATTEST_CERTIFY), not a quote */
	init_tq(&t);
	t.type = 0x8017;
	assert_int_equal(signed_verified(&t, rsa, rsa, &c), IMA_QUOTE_FAIL);
	assert_true(has_reason(&c, "not TPM_ST_ATTEST_QUOTE"));
	assert_false(c.pcrs_ok);
}

static void test_pcr_values(void **state)
{
	struct ima_quote_check c;
	struct ima_pcr_values known;
	struct tq t;
	char err[200];

	/* one bit of one value changed */
	init_tq(&t);
	make(&t, rsa);
	t.values[220 + 10 * 32] ^= 1;
	assert_int_equal(verify(&t, rsa, &c), IMA_QUOTE_FAIL);
	assert_false(c.pcrs_ok);
	assert_true(c.sig_ok);
	assert_true(has_reason(&c, "do not match the quoted pcrDigest"));
	assert_int_equal(c.pcrs.have[IMA_BANK_SHA256], 0);

	/* the quote's digest itself altered (and re-signed) */
	init_tq(&t);
	t.corrupt_digest = true;
	assert_int_equal(signed_verified(&t, rsa, rsa, &c), IMA_QUOTE_FAIL);
	assert_true(has_reason(&c, "pcrDigest"));

	/* values file of the wrong length: malformed */
	init_tq(&t);
	make(&t, rsa);
	memset(&c, 0, sizeof(c));
	verify(&t, rsa, &c);
	c.values_len--;
	assert_int_equal(ima_quote_verify(&c), IMA_QUOTE_MALFORMED);
	assert_non_null(strstr(c.error, "selection needs 572"));

	/* values picked from known ones (--pcrs); a missing one is named */
	assert_int_equal(quoted(&t, rsa, rsa, &c), IMA_QUOTE_OK);
	known = c.pcrs;
	known.have[IMA_BANK_SHA1] |= 1u << 16;	/* extra ones are ignored */
	c.values = NULL;
	c.known = &known;
	assert_int_equal(ima_quote_verify(&c), IMA_QUOTE_OK);
	assert_int_equal(c.pcrs.have[IMA_BANK_SHA1], 0x7ff);
	known.have[IMA_BANK_SHA256] &= ~(1u << 9);
	assert_int_equal(ima_quote_verify(&c), IMA_QUOTE_MISSING);
	assert_non_null(strstr(c.error, "sha256 PCR 9"));
	assert_int_equal(ima_quote_pick_values(&c.quote, &known, &c.pcrs,
					       err, sizeof(err)), -1);
}

static void test_truncated(void **state)
{
	struct ima_quote q;
	struct tq t;
	char err[200];
	size_t n;

	init_tq(&t);
	marshal(&t);
	for (n = 0; n < t.len; n++) {
		assert_int_equal(ima_quote_parse(&q, t.msg, n, err,
						 sizeof(err)), -1);
		assert_non_null(strstr(err, "at byte"));
	}
	assert_int_equal(ima_quote_parse(&q, t.msg, t.len, err, sizeof(err)),
			 0);
	/* one trailing byte */
	t.msg[t.len] = 0;
	assert_int_equal(ima_quote_parse(&q, t.msg, t.len + 1, err,
					 sizeof(err)), -1);
	assert_non_null(strstr(err, "1 bytes after"));
}

static void test_hostile_lengths(void **state)
{
	struct ima_quote q;
	struct tq t;
	char err[200];
	/* offsets in the marshalled quote */
	const size_t signer = 6, extra = 6 + 2 + 34;
	const size_t count = extra + 2 + 20 + 17 + 8;
	const size_t size0 = count + 4 + 2;

	init_tq(&t);
	marshal(&t);
	t.msg[signer] = 0xff;		/* qualifiedSigner 0xff22 */
	parse_refused(&t, "qualifiedSigner size");

	marshal(&t);
	t.msg[extra] = 0x00;
	t.msg[extra + 1] = 67;		/* one more than TPM2B_DATA holds */
	parse_refused(&t, "extraData size 67");

	marshal(&t);
	t.msg[count] = 0xff;		/* pcrSelect count 0xff000002 */
	parse_refused(&t, "pcrSelect count");

	marshal(&t);
	t.msg[size0] = 5;		/* sizeofSelect 5 */
	parse_refused(&t, "sizeofSelect 5");

	marshal(&t);
	t.msg[t.len - 33] = 65;		/* pcrDigest size 65 */
	parse_refused(&t, "pcrDigest size 65");

	marshal(&t);
	t.msg[5] = 0x17;		/* type 0x8018 -> 0x8017 */
	assert_int_equal(ima_quote_parse(&q, t.msg, t.len, err, sizeof(err)),
			 0);			/* the verifier names it */
	assert_int_equal(q.type, 0x8017);
}

static void test_selection_limits(void **state)
{
	struct ima_pcr_values v;
	struct ima_quote q;
	struct tq t;
	char err[200];
	uint8_t buf[600] = { 0 };

	init_tq(&t);
	marshal(&t);
	assert_int_equal(ima_quote_parse(&q, t.msg, t.len, err, sizeof(err)),
			 0);
	/* an unknown bank (sm3_256) */
	q.sel[1].hash = 0x0012;
	assert_int_equal(ima_quote_values_len(&q), -1);
	assert_int_equal(ima_quote_split_values(&q, buf, 572, &v, err,
						sizeof(err)), -1);
	assert_non_null(strstr(err, "bank 0x0012"));
	/* the same bank twice */
	q.sel[1].hash = TPM_ALG_SHA1;
	assert_int_equal(ima_quote_split_values(&q, buf, 440, &v, err,
						sizeof(err)), -1);
	assert_non_null(strstr(err, "twice"));
	/* PCR 24 */
	q.sel[1].hash = TPM_ALG_SHA256;
	q.sel[1].size = 4;
	q.sel[1].select[3] = 1;
	assert_int_equal(ima_quote_split_values(&q, buf, 604, &v, err,
						sizeof(err)), -1);
	assert_non_null(strstr(err, "PCR 24"));
}

static void test_sig_parse(void **state)
{
	struct ima_quote_sig s;
	uint8_t b[300] = { 0x00, 0x14, 0x00, 0x0b, 0x01, 0x00 };
	char err[200];

	assert_int_equal(ima_quote_sig_parse(&s, b, 262, err, sizeof(err)),
			 0);
	assert_int_equal(s.alg, TPM_ALG_RSASSA);
	assert_int_equal(s.a_len, 256);
	/* a byte too many: starts as a TPMT_SIGNATURE, so malformed */
	assert_int_equal(ima_quote_sig_parse(&s, b, 263, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "not one complete signature"));
	/* a byte short: malformed too (was: a plain signature that fails) */
	assert_int_equal(ima_quote_sig_parse(&s, b, 261, err, sizeof(err)),
			 -1);
	/* ECDSA with an r longer than P-521's: malformed */
	b[1] = 0x18;
	b[4] = 0x00;
	b[5] = 67;
	assert_int_equal(ima_quote_sig_parse(&s, b, 4 + 2 + 67 + 2 + 1, err,
					     sizeof(err)), -1);
	/* bytes that do not start like one: plain */
	b[0] = 0x30;
	assert_int_equal(ima_quote_sig_parse(&s, b, 72, err, sizeof(err)), 0);
	assert_int_equal(s.alg, 0);
	assert_int_equal(s.hash, TPM_ALG_SHA256);
	assert_int_equal(s.a_len, 72);
	assert_int_equal(ima_quote_sig_parse(&s, b, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "empty"));
}

static void test_key_load(void **state)
{
	struct ima_quote_check c;
	struct tq t;
	char path[64], err[300];
	EVP_PKEY *k;

	test_pubkey_pem(ec, "ak", path, sizeof(path));
	k = ima_quote_key_load(path, err, sizeof(err));
	assert_non_null(k);
	assert_int_equal(quoted(&t, ec, k, &c), IMA_QUOTE_OK);
	ima_quote_key_free(k);
	unlink(path);
	assert_null(ima_quote_key_load(path, err, sizeof(err)));
	assert_non_null(strstr(err, path));
}

UNIT_TEST_MAIN(setup, teardown,
	cmocka_unit_test(test_parse_fields),
	cmocka_unit_test(test_verify_rsa),
	cmocka_unit_test(test_verify_ecdsa),
	cmocka_unit_test(test_verify_plain),
	cmocka_unit_test(test_wrong_nonce),
	cmocka_unit_test(test_other_key),
	cmocka_unit_test(test_altered_message),
	cmocka_unit_test(test_magic_and_type),
	cmocka_unit_test(test_pcr_values),
	cmocka_unit_test(test_truncated),
	cmocka_unit_test(test_hostile_lengths),
	cmocka_unit_test(test_selection_limits),
	cmocka_unit_test(test_sig_parse),
	cmocka_unit_test(test_key_load))
