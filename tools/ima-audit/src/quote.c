// SPDX-License-Identifier: GPL-2.0-only
/*
 * TPM 2.0 quote verification (TPM 2.0 Library, Part 2: Structures):
 *
 *	TPMS_ATTEST	magic u32, type u16, qualifiedSigner TPM2B_NAME,
 *			extraData TPM2B_DATA, clockInfo (clock u64,
 *			resetCount u32, restartCount u32, safe u8),
 *			firmwareVersion u64, attested TPMU_ATTEST
 *	TPMS_QUOTE_INFO	pcrSelect TPML_PCR_SELECTION (count u32, then
 *			count x { hash u16, sizeofSelect u8, pcrSelect[] }),
 *			pcrDigest TPM2B_DIGEST
 *	TPMT_SIGNATURE	sigAlg u16, then RSASSA: hash u16, TPM2B sig;
 *			ECDSA: hash u16, TPM2B r, TPM2B s
 *
 * pcrDigest is the hash, with the signing scheme's hash algorithm, of the
 * selected PCR values concatenated in selection order: banks as listed,
 * PCRs in ascending order within a bank. The signature is over the
 * TPMS_ATTEST bytes, hashed with the same algorithm.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "ima_quote.h"
#include "ima_sig.h"
#include "ima_text.h"

#define MAX_SIG_BYTES	1024	/* RSA-8192; more than any TPM makes */
#define MAX_ECC_PARAM	66	/* MAX_ECC_KEY_BYTES: P-521 */

struct rd {
	const uint8_t *p;
	size_t len, off;
	char *err;
	size_t errlen;
};

/* "message at byte N" (N where r reads) into r's err; -1 */
#define rd_fail(r, fmt, ...)						\
	ima_errf((r)->err, (r)->errlen, fmt " at byte %zu", ##__VA_ARGS__, \
		 (r)->off)

static int rd_need(struct rd *r, size_t n, const char *what)
{
	if (r->len - r->off < n)
		return rd_fail(r, "truncated %s: needs %zu bytes, %zu left",
			       what, n, r->len - r->off);
	return 0;
}

static int rd_u8(struct rd *r, uint8_t *v, const char *what)
{
	if (rd_need(r, 1, what))
		return -1;
	*v = r->p[r->off++];
	return 0;
}

static int rd_u16(struct rd *r, uint16_t *v, const char *what)
{
	if (rd_need(r, 2, what))
		return -1;
	*v = (uint16_t)(r->p[r->off] << 8 | r->p[r->off + 1]);
	r->off += 2;
	return 0;
}

static int rd_u32(struct rd *r, uint32_t *v, const char *what)
{
	const uint8_t *p;

	if (rd_need(r, 4, what))
		return -1;
	p = r->p + r->off;
	*v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	     (uint32_t)p[2] << 8 | p[3];
	r->off += 4;
	return 0;
}

static int rd_u64(struct rd *r, uint64_t *v, const char *what)
{
	uint32_t hi, lo;

	if (rd_u32(r, &hi, what) || rd_u32(r, &lo, what))
		return -1;
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

/* A TPM2B: u16 size, then size bytes, size <= max; copied when out. */
static int rd_tpm2b(struct rd *r, size_t max, uint8_t *out, uint16_t *outlen,
		    const uint8_t **ptr, const char *what)
{
	uint16_t n;

	if (rd_u16(r, &n, what))
		return -1;
	if (n > max)
		return rd_fail(r, "%s size %u exceeds its maximum %zu", what,
			       n, max);
	if (rd_need(r, n, what))
		return -1;
	if (out)
		memcpy(out, r->p + r->off, n);
	if (ptr)
		*ptr = r->p + r->off;
	*outlen = n;
	r->off += n;
	return 0;
}

int ima_quote_parse(struct ima_quote *q, const uint8_t *buf, size_t len,
		    char *err, size_t errlen)
{
	struct rd r = { buf, len, 0, err, errlen };
	uint32_t i;

	memset(q, 0, sizeof(*q));
	if (rd_u32(&r, &q->magic, "magic") ||
	    rd_u16(&r, &q->type, "type") ||
	    rd_tpm2b(&r, IMA_QUOTE_MAX_NAME, q->signer, &q->signer_len, NULL,
		     "qualifiedSigner") ||
	    rd_tpm2b(&r, IMA_QUOTE_MAX_DATA, q->extra, &q->extra_len, NULL,
		     "extraData") ||
	    rd_u64(&r, &q->clock, "clockInfo") ||
	    rd_u32(&r, &q->reset_count, "clockInfo") ||
	    rd_u32(&r, &q->restart_count, "clockInfo") ||
	    rd_u8(&r, &q->safe, "clockInfo") ||
	    rd_u64(&r, &q->firmware, "firmwareVersion"))
		return -1;
	if (q->safe > 1)
		return rd_fail(&r, "clockInfo.safe is %u, not YES or NO",
			       q->safe);
	if (q->type != TPM_ST_ATTEST_QUOTE)
		return 0;	/* the verifier names the type */

	if (rd_u32(&r, &q->nsel, "pcrSelect count"))
		return -1;
	if (q->nsel > IMA_QUOTE_MAX_SEL)
		return rd_fail(&r, "pcrSelect count %u exceeds %d", q->nsel,
			       IMA_QUOTE_MAX_SEL);
	for (i = 0; i < q->nsel; i++) {
		struct ima_quote_sel *s = &q->sel[i];

		if (rd_u16(&r, &s->hash, "pcrSelect hash") ||
		    rd_u8(&r, &s->size, "pcrSelect sizeofSelect"))
			return -1;
		if (s->size > IMA_QUOTE_MAX_SELECT)
			return rd_fail(&r, "sizeofSelect %u exceeds %d",
				       s->size, IMA_QUOTE_MAX_SELECT);
		if (rd_need(&r, s->size, "pcrSelect bitmap"))
			return -1;
		memcpy(s->select, buf + r.off, s->size);
		r.off += s->size;
	}
	if (rd_tpm2b(&r, IMA_MAX_DIGEST, q->digest, &q->digest_len, NULL,
		     "pcrDigest"))
		return -1;
	if (r.off != len)
		return rd_fail(&r, "%zu bytes after TPMS_QUOTE_INFO",
			       len - r.off);
	return 0;
}

int ima_quote_sig_parse(struct ima_quote_sig *sig, const uint8_t *buf,
			size_t len, char *err, size_t errlen)
{
	struct rd r = { buf, len, 0, err, errlen };
	uint16_t alg = 0, hash = 0, n1, n2;
	const uint8_t *p1, *p2;

	memset(sig, 0, sizeof(*sig));
	if (!len) {
		snprintf(err, errlen, "empty signature");
		return -1;
	}
	if (len > MAX_SIG_BYTES + 8) {
		snprintf(err, errlen, "signature of %zu bytes is too large",
			 len);
		return -1;
	}
	/*
	 * TPMT_SIGNATURE when it starts with RSASSA or ECDSA: then it must
	 * parse exactly (a truncated or padded one is malformed, not a
	 * plain signature that fails); else plain bytes.
	 */
	if (!rd_u16(&r, &alg, "sigAlg") && !rd_u16(&r, &hash, "hash")) {
		if (alg == TPM_ALG_RSASSA &&
		    !rd_tpm2b(&r, MAX_SIG_BYTES, NULL, &n1, &p1, "sig") &&
		    n1 && r.off == len) {
			sig->alg = alg;
			sig->hash = hash;
			sig->a = p1;
			sig->a_len = n1;
			return 0;
		}
		if (alg == TPM_ALG_ECDSA &&
		    !rd_tpm2b(&r, MAX_ECC_PARAM, NULL, &n1, &p1, "r") &&
		    !rd_tpm2b(&r, MAX_ECC_PARAM, NULL, &n2, &p2, "s") &&
		    n1 && n2 && r.off == len) {
			sig->alg = alg;
			sig->hash = hash;
			sig->a = p1;
			sig->a_len = n1;
			sig->b = p2;
			sig->b_len = n2;
			return 0;
		}
		if (alg == TPM_ALG_RSASSA || alg == TPM_ALG_ECDSA) {
			snprintf(err, errlen,
				 "TPMT_SIGNATURE (%s) of %zu bytes is not one complete signature (truncated, padded or with an empty part)",
				 alg == TPM_ALG_RSASSA ? "RSASSA" : "ECDSA",
				 len);
			return -1;
		}
	}
	if (len > MAX_SIG_BYTES) {
		snprintf(err, errlen, "signature of %zu bytes is too large",
			 len);
		return -1;
	}
	sig->alg = 0;
	sig->hash = TPM_ALG_SHA256;
	sig->a = buf;
	sig->a_len = len;
	return 0;
}

int ima_quote_bank(uint16_t tpm_alg)
{
	switch (tpm_alg) {
	case TPM_ALG_SHA1:
		return IMA_BANK_SHA1;
	case TPM_ALG_SHA256:
		return IMA_BANK_SHA256;
	case TPM_ALG_SHA384:
		return IMA_BANK_SHA384;
	case TPM_ALG_SHA512:
		return IMA_BANK_SHA512;
	}
	return -1;
}

static bool selected(const struct ima_quote_sel *s, int pcr)
{
	return pcr / 8 < s->size && (s->select[pcr / 8] >> (pcr % 8) & 1);
}

/* Every selection in a known bank, each bank once, PCRs 0-23 only. */
static int check_selection(const struct ima_quote *q, char *err,
			   size_t errlen)
{
	uint32_t seen = 0, i;
	int b, p;

	for (i = 0; i < q->nsel; i++) {
		b = ima_quote_bank(q->sel[i].hash);
		if (b < 0) {
			snprintf(err, errlen,
				 "quote selects PCRs of bank 0x%04x, which is not supported",
				 q->sel[i].hash);
			return -1;
		}
		if (seen & (1u << b)) {
			snprintf(err, errlen,
				 "quote selects the %s bank twice",
				 ima_bank_name(b));
			return -1;
		}
		seen |= 1u << b;
		for (p = IMA_NR_PCRS; p < 8 * IMA_QUOTE_MAX_SELECT; p++)
			if (selected(&q->sel[i], p)) {
				snprintf(err, errlen,
					 "quote selects %s PCR %d; only 0-%d are supported",
					 ima_bank_name(b), p, IMA_NR_PCRS - 1);
				return -1;
			}
	}
	return 0;
}

long ima_quote_values_len(const struct ima_quote *q)
{
	long n = 0;
	uint32_t i;
	int b, p;

	for (i = 0; i < q->nsel; i++) {
		b = ima_quote_bank(q->sel[i].hash);
		if (b < 0)
			return -1;
		for (p = 0; p < 8 * q->sel[i].size; p++)
			if (selected(&q->sel[i], p))
				n += ima_bank_algo(b)->size;
	}
	return n;
}

int ima_quote_split_values(const struct ima_quote *q, const uint8_t *buf,
			   size_t len, struct ima_pcr_values *out, char *err,
			   size_t errlen)
{
	long want;
	size_t off = 0;
	unsigned int size;
	uint32_t i;
	int b, p;

	memset(out, 0, sizeof(*out));
	if (check_selection(q, err, errlen))
		return -1;
	want = ima_quote_values_len(q);
	if (want < 0 || (size_t)want != len) {
		/*
		 * tpm2_quote -F serialized writes a TPML_PCR_SELECTION (132
		 * bytes), a count and TPML_DIGESTs (532 bytes each) as laid
		 * out in memory
		 */
		bool serialized = len >= 136 + 532 && (len - 136) % 532 == 0;

		snprintf(err, errlen,
			 "PCR values file has %zu bytes; the quote's selection needs %ld%s",
			 len, want, serialized ?
			 " (the size of tpm2_quote's -F serialized output: write -F values)" :
			 "");
		return -1;
	}
	for (i = 0; i < q->nsel; i++) {
		b = ima_quote_bank(q->sel[i].hash);
		size = ima_bank_algo(b)->size;
		for (p = 0; p < IMA_NR_PCRS; p++) {
			if (!selected(&q->sel[i], p))
				continue;
			memcpy(out->val[b][p], buf + off, size);
			out->have[b] |= 1u << p;
			off += size;
		}
	}
	return 0;
}

int ima_quote_pick_values(const struct ima_quote *q,
			  const struct ima_pcr_values *in,
			  struct ima_pcr_values *out, char *err,
			  size_t errlen)
{
	uint32_t i;
	int b, p;

	memset(out, 0, sizeof(*out));
	if (check_selection(q, err, errlen))
		return -1;
	for (i = 0; i < q->nsel; i++) {
		b = ima_quote_bank(q->sel[i].hash);
		for (p = 0; p < IMA_NR_PCRS; p++) {
			if (!selected(&q->sel[i], p))
				continue;
			if (!(in->have[b] & (1u << p))) {
				snprintf(err, errlen,
					 "the quote covers %s PCR %d but no value was given for it",
					 ima_bank_name(b), p);
				return -1;
			}
			memcpy(out->val[b][p], in->val[b][p],
			       ima_bank_algo(b)->size);
			out->have[b] |= 1u << p;
		}
	}
	return 0;
}

static const EVP_MD *tpm_md(uint16_t hash)
{
	int b = ima_quote_bank(hash);

	return b < 0 ? NULL : EVP_get_digestbyname(ima_bank_algo(b)->evp);
}

int ima_quote_pcr_digest(const struct ima_quote *q,
			 const struct ima_pcr_values *v, uint16_t hash,
			 uint8_t *out, unsigned int *outlen)
{
	const EVP_MD *md = tpm_md(hash);
	EVP_MD_CTX *ctx = NULL;
	uint32_t i;
	int b, p, rc = -1;

	if (!md)
		goto out;
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, md, NULL))
		goto out;
	for (i = 0; i < q->nsel; i++) {
		b = ima_quote_bank(q->sel[i].hash);
		if (b < 0)
			goto out;
		for (p = 0; p < IMA_NR_PCRS; p++) {
			if (!selected(&q->sel[i], p))
				continue;
			if (!(v->have[b] & (1u << p)) ||
			    !EVP_DigestUpdate(ctx, v->val[b][p],
					      ima_bank_algo(b)->size))
				goto out;
		}
	}
	if (!EVP_DigestFinal_ex(ctx, out, outlen))
		goto out;
	rc = 0;
out:
	EVP_MD_CTX_free(ctx);
	return rc;
}

static void reason(struct ima_quote_check *c, int cls, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void reason(struct ima_quote_check *c, int cls, const char *fmt, ...)
{
	va_list ap;

	if (c->nreasons >= IMA_QUOTE_MAX_REASONS)
		return;
	c->reason_class[c->nreasons] = cls;
	va_start(ap, fmt);
	vsnprintf(c->reasons[c->nreasons++], sizeof(c->reasons[0]), fmt, ap);
	va_end(ap);
}

/* Up to 8 bytes as hex, "..." when longer. */
static const char *short_hex(const uint8_t *p, size_t len, char *buf)
{
	size_t n = len > 8 ? 8 : len;

	ima_bin2hex(p, n, buf);
	if (len > n)
		strcpy(buf + 2 * n, "...");
	return buf;
}

static const char *alg_name(uint16_t hash)
{
	int b = ima_quote_bank(hash);

	return b < 0 ? "unknown hash" : ima_bank_name(b);
}

/* ECDSA r and s (TPM2B, big-endian) as the DER ECDSA-Sig-Value. */
static int ecdsa_der(const struct ima_quote_sig *s, uint8_t **der, int *len)
{
	ECDSA_SIG *es = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(s->a, (int)s->a_len, NULL);
	BIGNUM *bs = BN_bin2bn(s->b, (int)s->b_len, NULL);
	int rc = -1;

	*der = NULL;
	if (!es || !r || !bs || !ECDSA_SIG_set0(es, r, bs))
		goto out;
	r = bs = NULL;		/* owned by es */
	*len = i2d_ECDSA_SIG(es, der);
	if (*len <= 0)
		goto out;
	rc = 0;
out:
	BN_free(r);
	BN_free(bs);
	ECDSA_SIG_free(es);
	return rc;
}

static void check_signature(struct ima_quote_check *c,
			    const struct ima_quote_sig *s)
{
	EVP_PKEY *pkey = c->ak;
	int kt = pkey ? EVP_PKEY_base_id(pkey) : EVP_PKEY_NONE;
	const EVP_MD *md = tpm_md(s->hash);
	EVP_MD_CTX *ctx = NULL;
	const uint8_t *sig = s->a;
	uint8_t *der = NULL;
	size_t slen = s->a_len;
	int dlen;

	if (!pkey) {
		reason(c, IMA_FC_QUOTE_SIGNATURE, "quote: no AK public key to verify the signature");
		goto out;
	}
	if (!md) {
		reason(c, IMA_FC_QUOTE_SIGNATURE, "quote: signature hash 0x%04x is not supported",
		       s->hash);
		goto out;
	}
	if (kt != EVP_PKEY_RSA && kt != EVP_PKEY_EC) {
		reason(c, IMA_FC_QUOTE_SIGNATURE, "quote: the AK public key is neither RSA nor EC");
		goto out;
	}
	if ((s->alg == TPM_ALG_RSASSA && kt != EVP_PKEY_RSA) ||
	    (s->alg == TPM_ALG_ECDSA && kt != EVP_PKEY_EC)) {
		reason(c, IMA_FC_QUOTE_SIGNATURE, "quote: signature is %s but the AK public key is %s: signed by another key",
		       s->alg == TPM_ALG_RSASSA ? "RSASSA" : "ECDSA",
		       kt == EVP_PKEY_RSA ? "RSA" : "EC");
		goto out;
	}
	if (s->alg == TPM_ALG_ECDSA) {
		if (ecdsa_der(s, &der, &dlen)) {
			reason(c, IMA_FC_QUOTE_SIGNATURE, "quote: ECDSA signature cannot be encoded");
			goto out;
		}
		sig = der;
		slen = (size_t)dlen;
	}
	ctx = EVP_MD_CTX_new();
	if (!ctx || EVP_DigestVerifyInit(ctx, NULL, md, NULL, pkey) != 1) {
		reason(c, IMA_FC_QUOTE_SIGNATURE, "quote: cannot set up signature verification");
		goto out;
	}
	/* RSA: PKCS#1 v1.5 is the default padding, which RSASSA is */
	if (EVP_DigestVerify(ctx, sig, slen, c->msg, c->msg_len) == 1)
		c->sig_ok = true;
	else
		reason(c, IMA_FC_QUOTE_SIGNATURE, "quote: signature (%s, %s) does not verify with the AK public key: signed by another key or altered",
		       s->alg == TPM_ALG_RSASSA ? "RSASSA" :
		       s->alg == TPM_ALG_ECDSA ? "ECDSA" : "plain",
		       alg_name(s->hash));
out:
	ERR_clear_error();
	EVP_MD_CTX_free(ctx);
	OPENSSL_free(der);
}

/*
 * A signature whose size cannot be the AK's is malformed (exit 3), not a
 * signature that fails: RSA signatures are as long as the modulus, ECDSA
 * r and s at most the order's size, a plain ECDSA signature one complete
 * DER structure. A scheme the key cannot make is left to the check.
 */
static int sig_size_check(void *ak, const struct ima_quote_sig *s, char *err,
			  size_t errlen)
{
	EVP_PKEY *pkey = ak;
	int kt = pkey ? EVP_PKEY_base_id(pkey) : EVP_PKEY_NONE;
	size_t n;

	if (kt == EVP_PKEY_RSA && s->alg != TPM_ALG_ECDSA) {
		n = (size_t)EVP_PKEY_get_size(pkey);
		if (s->a_len != n) {
			snprintf(err, errlen,
				 "RSA signature of %zu bytes; the AK's modulus has %zu",
				 s->a_len, n);
			return -1;
		}
	}
	if (kt == EVP_PKEY_EC && s->alg == TPM_ALG_ECDSA) {
		n = ((size_t)EVP_PKEY_get_bits(pkey) + 7) / 8;
		if (s->a_len > n || s->b_len > n) {
			snprintf(err, errlen,
				 "ECDSA r/s of %zu/%zu bytes; the AK's order has %zu",
				 s->a_len, s->b_len, n);
			return -1;
		}
	}
	if (kt == EVP_PKEY_EC && !s->alg) {
		const unsigned char *p = s->a;
		ECDSA_SIG *es = d2i_ECDSA_SIG(NULL, &p, (long)s->a_len);

		ECDSA_SIG_free(es);
		ERR_clear_error();
		if (!es || p != s->a + s->a_len) {
			snprintf(err, errlen,
				 "plain ECDSA signature of %zu bytes is not one DER ECDSA-Sig-Value",
				 s->a_len);
			return -1;
		}
	}
	return 0;
}

int ima_quote_verify(struct ima_quote_check *c)
{
	struct ima_quote *q = &c->quote;
	struct ima_quote_sig sig;
	uint8_t d[IMA_MAX_DIGEST];
	unsigned int dlen = 0;
	char h1[20], h2[20];

	c->nreasons = 0;
	c->sig_ok = c->nonce_ok = c->pcrs_ok = false;
	c->error[0] = '\0';
	memset(&c->pcrs, 0, sizeof(c->pcrs));

	c->error_input = IMA_QUOTE_IN_MSG;
	if (ima_quote_parse(q, c->msg, c->msg_len, c->error,
			    sizeof(c->error)))
		return IMA_QUOTE_MALFORMED;
	c->error_input = IMA_QUOTE_IN_SIG;
	if (ima_quote_sig_parse(&sig, c->sig, c->sig_len, c->error,
				sizeof(c->error)))
		return IMA_QUOTE_MALFORMED;
	if (sig_size_check(c->ak, &sig, c->error, sizeof(c->error)))
		return IMA_QUOTE_MALFORMED;
	if (q->type == TPM_ST_ATTEST_QUOTE) {
		c->error_input = IMA_QUOTE_IN_MSG;
		if (check_selection(q, c->error, sizeof(c->error)))
			return IMA_QUOTE_MALFORMED;
		c->error_input = IMA_QUOTE_IN_VALUES;
		if (c->values &&
		    ima_quote_split_values(q, c->values, c->values_len,
					   &c->pcrs, c->error,
					   sizeof(c->error)))
			return IMA_QUOTE_MALFORMED;
		if (!c->values && c->known &&
		    ima_quote_pick_values(q, c->known, &c->pcrs, c->error,
					  sizeof(c->error)))
			return IMA_QUOTE_MISSING;
	}

	if (q->magic != TPM_GENERATED_VALUE)
		reason(c, IMA_FC_QUOTE_MAGIC, "quote: magic 0x%08x is not TPM_GENERATED_VALUE 0x%08x: not made by a TPM",
		       q->magic, TPM_GENERATED_VALUE);
	if (q->type != TPM_ST_ATTEST_QUOTE)
		reason(c, IMA_FC_QUOTE_TYPE, "quote: type 0x%04x is not TPM_ST_ATTEST_QUOTE 0x%04x",
		       q->type, TPM_ST_ATTEST_QUOTE);
	if (q->extra_len == c->nonce_len &&
	    !memcmp(q->extra, c->nonce, c->nonce_len))
		c->nonce_ok = true;
	else
		reason(c, IMA_FC_QUOTE_NONCE, "quote: extraData %s does not match the nonce %s: stale or replayed quote",
		       short_hex(q->extra, q->extra_len, h1),
		       short_hex(c->nonce, c->nonce_len, h2));
	check_signature(c, &sig);

	if (q->type == TPM_ST_ATTEST_QUOTE && (c->values || c->known)) {
		if (ima_quote_pcr_digest(q, &c->pcrs, sig.hash, d, &dlen)) {
			reason(c, IMA_FC_QUOTE_PCR_DIGEST, "quote: cannot compute the PCR digest (%s)",
			       alg_name(sig.hash));
		} else if (dlen != q->digest_len ||
			   memcmp(d, q->digest, dlen)) {
			reason(c, IMA_FC_QUOTE_PCR_DIGEST, "quote: PCR values do not match the quoted pcrDigest (%s %s)",
			       alg_name(sig.hash),
			       short_hex(q->digest, q->digest_len, h1));
		} else {
			c->pcrs_ok = true;
		}
	}
	if (!c->pcrs_ok)
		memset(&c->pcrs, 0, sizeof(c->pcrs));
	return c->nreasons ? IMA_QUOTE_FAIL : IMA_QUOTE_OK;
}

void *ima_quote_key_load(const char *path, char *err, size_t errlen)
{
	struct ima_keyring kr = { NULL, 0 };
	EVP_PKEY *pkey = NULL;
	int kt;

	if (ima_keyring_load(&kr, path, err, errlen))
		goto out;
	if (kr.n != 1) {
		snprintf(err, errlen, "%s: %zu keys; an AK file holds one",
			 path, kr.n);
		goto out;
	}
	kt = EVP_PKEY_base_id(kr.keys[0].pkey);
	if (kt != EVP_PKEY_RSA && kt != EVP_PKEY_EC) {
		snprintf(err, errlen, "%s: not an RSA or EC public key", path);
		goto out;
	}
	pkey = kr.keys[0].pkey;
	kr.keys[0].pkey = NULL;
out:
	ima_keyring_free(&kr);
	return pkey;
}

void ima_quote_key_free(void *pkey)
{
	EVP_PKEY_free(pkey);
}
