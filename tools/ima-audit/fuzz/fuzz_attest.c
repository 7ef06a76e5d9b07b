// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: a quote and a list together, as a verifier gets them.
 * The input is the list; its first bytes also choose the quoted PCRs and
 * banks and whether the quote is genuine. The harness replays the list
 * (a first audit), quotes the values it found, signs the quote with a
 * throwaway AK and runs the whole verdict with --jobs 2: quote checks,
 * binding, coverage, boot_aggregate, policy, reports.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "ima_audit.h"
#include "ima_quote.h"

static EVP_PKEY *ak;
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	ak = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	devnull = fopen("/dev/null", "w");
	return ak && devnull ? 0 : -1;
}

static size_t put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
	return 2;
}

/* TPMS_ATTEST over sel (bit p of sel[b]: bank b, PCR p) and its values */
static size_t attest(uint8_t *q, const uint32_t sel[2],
		     const struct ima_replay *rp, uint8_t *vals,
		     size_t *vlen, const uint8_t *nonce)
{
	static const uint16_t alg[2] = { TPM_ALG_SHA1, TPM_ALG_SHA256 };
	static const uint8_t clock[17] = { [8] = 1 };
	uint8_t d[32];
	size_t n = 0;
	unsigned int dl;
	int b, p;

	q[n++] = 0xff; q[n++] = 0x54; q[n++] = 0x43; q[n++] = 0x47;
	n += put16(q + n, TPM_ST_ATTEST_QUOTE);
	n += put16(q + n, 0);			/* qualifiedSigner */
	n += put16(q + n, 20);
	memcpy(q + n, nonce, 20);
	n += 20;
	memcpy(q + n, clock, sizeof(clock));
	n += sizeof(clock);
	memset(q + n, 0, 8);			/* firmwareVersion */
	n += 8;
	q[n++] = 0; q[n++] = 0; q[n++] = 0; q[n++] = 2;
	*vlen = 0;
	for (b = 0; b < 2; b++) {
		n += put16(q + n, alg[b]);
		q[n++] = 3;
		q[n++] = (uint8_t)sel[b];
		q[n++] = (uint8_t)(sel[b] >> 8);
		q[n++] = (uint8_t)(sel[b] >> 16);
		for (p = 0; p < IMA_NR_PCRS; p++) {
			unsigned int size = ima_bank_algo(b)->size;

			if (!(sel[b] & (1u << p)))
				continue;
			memcpy(vals + *vlen, rp->pcr[b][p].val, size);
			*vlen += size;
		}
	}
	EVP_Digest(vals, *vlen, d, &dl, EVP_sha256(), NULL);
	n += put16(q + n, 32);
	memcpy(q + n, d, 32);
	return n + 32;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ima_audit_opts opts;
	static struct ima_quote_check qc;
	static uint8_t vals[24 * 52];
	static const uint8_t nonce[20] = { 1, 2, 3 };
	uint8_t q[256], sig[80];
	struct ima_reader r;
	struct ima_audit a;
	uint32_t sel[2];
	size_t qlen, vlen, slen = sizeof(sig);
	EVP_MD_CTX *ctx;
	uint8_t mode = size ? data[0] : 0;

	/* 1: replay the list as it is (no values: nothing is bound) */
	memset(&opts, 0, sizeof(opts));
	opts.banks = 3;
	opts.reader.max_entry = 1 << 16;
	ima_reader_init_mem(&r, data, size, &opts.reader);
	if (ima_audit_init(&a, &opts)) {
		ima_reader_free(&r);
		return 0;
	}
	ima_audit_run(&a, &r);
	ima_reader_free(&r);

	/* 2: a quote of what the TPM would hold */
	sel[0] = size > 1 ? (uint32_t)data[1] << 4 : 0x7ff;
	sel[1] = size > 2 ? 0x7ff ^ ((uint32_t)data[2] & 0x3) << 9 : 0x7ff;
	if (mode & 4)
		sel[1] |= 1u << 11;
	qlen = attest(q, sel, &a.replay, vals, &vlen, nonce);
	ima_audit_free(&a);
	if (mode & 8)
		q[qlen - 1] ^= 1;		/* altered after signing */
	ctx = EVP_MD_CTX_new();
	if (!ctx || EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, ak) != 1 ||
	    EVP_DigestSign(ctx, sig, &slen, q, mode & 8 ? qlen - 1 : qlen) != 1)
		slen = 0;
	EVP_MD_CTX_free(ctx);
	if (mode & 8)
		q[qlen - 1] ^= 1;

	/* 3: the verdict, as the command makes it */
	memset(&qc, 0, sizeof(qc));
	qc.msg = q;
	qc.msg_len = qlen;
	qc.sig = sig;
	qc.sig_len = slen;
	qc.ak = ak;
	qc.nonce = nonce;
	qc.nonce_len = mode & 16 ? 19 : 20;
	qc.values = vals;
	qc.values_len = mode & 32 && vlen ? vlen - 1 : vlen;
	if (ima_quote_verify(&qc) == IMA_QUOTE_MALFORMED)
		return 0;
	memset(&opts, 0, sizeof(opts));
	opts.banks = 3;
	opts.pcr_mask = 1u << 10;
	opts.quote = &qc;
	opts.allow_uncovered = mode & 64;
	opts.allow_unverified_boot = mode & 128;
	opts.jobs = 2;
	opts.expect_policy = (const uint8_t *)"measure\n";
	opts.expect_policy_len = 8;
	opts.expect_policy_name = "p";
	opts.reader.max_entry = 1 << 16;
	ima_reader_init_mem(&r, data, size, &opts.reader);
	if (!ima_audit_init(&a, &opts)) {
		ima_audit_run(&a, &r);
		ima_report_json(&a, devnull);
		ima_report_text(&a, devnull);
		ima_audit_free(&a);
	}
	ima_reader_free(&r);
	return 0;
}
