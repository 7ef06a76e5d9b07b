// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: TPM quote parsing and verification. Each input is
 * used twice: as raw bytes (TPMS_ATTEST, TPMT_SIGNATURE, PCR values) and
 * XORed onto a well-formed quote, so that short runs reach the fields
 * behind the magic and the length checks.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "ima_quote.h"

static EVP_PKEY *key;
static struct ima_pcr_values known;
static uint8_t tmpl[160];
static size_t tmpl_len;

static void put(const void *p, size_t n)
{
	memcpy(tmpl + tmpl_len, p, n);
	tmpl_len += n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* TPMS_ATTEST: quote, 20-byte nonce, sha1+sha256 PCRs 0-10 */
	static const uint8_t head[] = {
		0xff, 0x54, 0x43, 0x47, 0x80, 0x18,
		0x00, 0x02, 0x00, 0x0b,			/* name */
		0x00, 0x14, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
		11, 12, 13, 14, 15, 16, 17, 18, 19, 20,	/* extraData */
		0, 0, 0, 0, 0, 0, 0x34, 0x12, 0, 0, 0, 2, 0, 0, 0, 0, 1,
		0, 0, 0, 0, 0, 0, 0, 1,			/* firmware */
		0, 0, 0, 2, 0x00, 0x04, 3, 0xff, 0x07, 0x00,
		0x00, 0x0b, 3, 0xff, 0x07, 0x00, 0x00, 0x20,
	};
	int b, p;

	(void)argc;
	(void)argv;
	put(head, sizeof(head));
	memset(tmpl + tmpl_len, 0xa5, 32);	/* pcrDigest */
	tmpl_len += 32;
	key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	for (b = 0; b < IMA_NR_BANKS; b++)
		for (p = 0; p < IMA_NR_PCRS; p++) {
			known.have[b] |= 1u << p;
			known.val[b][p][0] = (uint8_t)p;
		}
	return key ? 0 : -1;
}

static void one(const uint8_t *msg, size_t len, const uint8_t *rest,
		size_t rlen)
{
	static struct ima_quote_check c;
	struct ima_quote_sig s;
	struct ima_pcr_values v;
	char err[200];

	memset(&c, 0, sizeof(c));
	if (!ima_quote_parse(&c.quote, msg, len, err, sizeof(err))) {
		ima_quote_values_len(&c.quote);
		ima_quote_split_values(&c.quote, rest, rlen, &v, err,
				       sizeof(err));
	}
	ima_quote_sig_parse(&s, rest, rlen, err, sizeof(err));

	c.msg = msg;
	c.msg_len = len;
	c.sig = rest;
	c.sig_len = rlen;
	c.ak = key;
	c.nonce = tmpl + 12;
	c.nonce_len = 20;
	c.known = &known;
	ima_quote_verify(&c);
	c.values = rest;
	c.values_len = rlen;
	ima_quote_verify(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t q[sizeof(tmpl)];
	size_t i, cut;

	/* raw: the first byte says where the message ends */
	cut = size ? data[0] % size : 0;
	one(data, cut, data + cut, size - cut);

	/* mutated template, possibly truncated; the rest is the signature */
	memcpy(q, tmpl, tmpl_len);
	for (i = 0; i < size && i < 2 * tmpl_len; i++)
		q[i % tmpl_len] ^= data[i];
	cut = tmpl_len - (size ? data[size - 1] % 8 : 0);
	one(q, cut, data, size);
	return 0;
}
