/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TPM 2.0 quotes: TPMS_ATTEST (tpm2_quote -m), its signature (TPMT_SIGNATURE
 * or plain), the quoted PCR values, and the checks a verifier makes with an
 * attestation key's public part and its own nonce.
 *
 * All TPM structures are big-endian; every length is checked against the
 * bytes present and against the TPM 2.0 maximum for its type.
 */
#ifndef IMA_QUOTE_H
#define IMA_QUOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ima_pcr.h"
#include "ima_verdict.h"

#define TPM_GENERATED_VALUE	0xff544347u
#define TPM_ST_ATTEST_QUOTE	0x8018

#define TPM_ALG_RSASSA		0x0014
#define TPM_ALG_ECDSA		0x0018
#define TPM_ALG_SHA1		0x0004
#define TPM_ALG_SHA256		0x000b
#define TPM_ALG_SHA384		0x000c
#define TPM_ALG_SHA512		0x000d

#define IMA_QUOTE_MAX_NAME	66	/* sizeof(TPMU_NAME): TPMT_HA */
#define IMA_QUOTE_MAX_DATA	66	/* TPM2B_DATA: sizeof(TPMT_HA) */
#define IMA_QUOTE_MAX_SEL	16	/* TPML_PCR_SELECTION: HASH_COUNT */
#define IMA_QUOTE_MAX_SELECT	4	/* sizeofSelect: PCRs 0-31 */
#define IMA_QUOTE_MAX_REASONS	8

enum ima_quote_status {
	IMA_QUOTE_OK = 0,
	IMA_QUOTE_FAIL = 1,		/* a check failed: see reasons */
	IMA_QUOTE_MISSING = 2,		/* a quoted PCR's value not given */
	IMA_QUOTE_MALFORMED = 3,	/* cannot be parsed or not supported */
};

/* which input an IMA_QUOTE_MALFORMED error is about */
enum ima_quote_input {
	IMA_QUOTE_IN_MSG,
	IMA_QUOTE_IN_SIG,
	IMA_QUOTE_IN_VALUES,
};

struct ima_quote_sel {
	uint16_t hash;			/* TPM_ALG_ID of the bank */
	uint8_t size;			/* sizeofSelect */
	uint8_t select[IMA_QUOTE_MAX_SELECT];	/* bit n of byte n/8: PCR n */
};

/* TPMS_ATTEST; the attested part only when type is TPM_ST_ATTEST_QUOTE */
struct ima_quote {
	uint32_t magic;
	uint16_t type;
	uint16_t signer_len;
	uint8_t signer[IMA_QUOTE_MAX_NAME];	/* qualifiedSigner */
	uint16_t extra_len;
	uint8_t extra[IMA_QUOTE_MAX_DATA];	/* extraData: the nonce */
	uint64_t clock;
	uint32_t reset_count, restart_count;
	uint8_t safe;
	uint64_t firmware;
	uint32_t nsel;				/* TPMS_QUOTE_INFO.pcrSelect */
	struct ima_quote_sel sel[IMA_QUOTE_MAX_SEL];
	uint16_t digest_len;
	uint8_t digest[IMA_MAX_DIGEST];		/* TPMS_QUOTE_INFO.pcrDigest */
};

/* A signature: TPMT_SIGNATURE (RSASSA or ECDSA) or plain */
struct ima_quote_sig {
	uint16_t alg;		/* TPM_ALG_RSASSA, TPM_ALG_ECDSA, 0 plain */
	uint16_t hash;		/* TPM_ALG_SHA256, ...; sha256 for plain */
	const uint8_t *a;	/* RSA: the signature; ECDSA: r; plain: all */
	size_t a_len;
	const uint8_t *b;	/* ECDSA: s */
	size_t b_len;
};

/*
 * Parse TPMS_ATTEST. Any type is accepted (the verifier reports a type
 * other than a quote); for a quote the whole buffer must be consumed.
 * Returns 0, or -1 with the reason and byte offset in err.
 */
int ima_quote_parse(struct ima_quote *q, const uint8_t *buf, size_t len,
		    char *err, size_t errlen);

/*
 * Parse a signature file: a TPMT_SIGNATURE (tpm2_quote -f tss, the
 * default) when its first two bytes name RSASSA or ECDSA and its lengths
 * account for every byte; otherwise plain bytes (tpm2_quote -f plain, or
 * openssl dgst -sign: RSA PKCS#1 v1.5, ECDSA DER), taken as sha256.
 * Pointers in sig point into buf. Returns 0, or -1 with err.
 */
int ima_quote_sig_parse(struct ima_quote_sig *sig, const uint8_t *buf,
			size_t len, char *err, size_t errlen);

/* The ima_pcr bank of a TPM_ALG_ID; -1 if not one. */
int ima_quote_bank(uint16_t tpm_alg);
/* Bytes of PCR values the selection needs; -1 for an unknown bank. */
long ima_quote_values_len(const struct ima_quote *q);

/*
 * The quoted PCR values from a file in selection order (tpm2_quote -o
 * FILE -F values): exactly ima_quote_values_len() bytes. Stores them in
 * out (which is cleared first). Returns 0, or -1 with err.
 */
int ima_quote_split_values(const struct ima_quote *q, const uint8_t *buf,
			   size_t len, struct ima_pcr_values *out, char *err,
			   size_t errlen);
/*
 * The same from values already known (--pcrs): every selected PCR must be
 * present in in. Returns 0, or -1 with err naming the missing one.
 */
int ima_quote_pick_values(const struct ima_quote *q,
			  const struct ima_pcr_values *in,
			  struct ima_pcr_values *out, char *err,
			  size_t errlen);
/* Hash of the selected values in selection order, with hash alg. */
int ima_quote_pcr_digest(const struct ima_quote *q,
			 const struct ima_pcr_values *v, uint16_t hash,
			 uint8_t *out, unsigned int *outlen);

struct ima_quote_check {
	/* inputs */
	const uint8_t *msg;		/* TPMS_ATTEST */
	size_t msg_len;
	const uint8_t *sig;		/* signature file contents */
	size_t sig_len;
	void *ak;			/* EVP_PKEY *: the AK's public key */
	const uint8_t *nonce;
	size_t nonce_len;
	const uint8_t *values;		/* tpm2_quote -o -F values, or NULL */
	size_t values_len;
	const struct ima_pcr_values *known;	/* used when values is NULL */

	/* outputs */
	struct ima_quote quote;
	struct ima_pcr_values pcrs;	/* the quoted values */
	bool sig_ok, nonce_ok, pcrs_ok;	/* pcrs_ok: digest matched */
	int nreasons;
	char reasons[IMA_QUOTE_MAX_REASONS][200];
	int reason_class[IMA_QUOTE_MAX_REASONS];	/* ima_fail_class */
	char error[200];		/* MALFORMED or MISSING: why */
	int error_input;		/* enum ima_quote_input */
};

/*
 * Every check on one quote: magic, type, extraData = nonce, the signature
 * with the AK (its scheme's hash over the TPMS_ATTEST bytes), and the PCR
 * values against pcrDigest. Each failed check adds a reason; all checks
 * run even after one fails. pcrs holds the values only when pcrs_ok.
 * Returns an enum ima_quote_status: MALFORMED when an input cannot be
 * parsed (error, error_input), MISSING when values is NULL and known
 * lacks a quoted PCR (error), FAIL when a check failed (reasons).
 */
int ima_quote_verify(struct ima_quote_check *c);

/* An AK public key from a PEM or DER file (SubjectPublicKeyInfo), or a
 * certificate; NULL with err on failure. Free with ima_quote_key_free. */
void *ima_quote_key_load(const char *path, char *err, size_t errlen);
void ima_quote_key_free(void *pkey);

#endif
