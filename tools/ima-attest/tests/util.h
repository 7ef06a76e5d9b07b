/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers of the unit tests: fixtures from tests/data, a poll round, its reasons, hex, an ECC EK area. */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>

#include "ima_attest.h"

#ifndef DATA_DIR
#define DATA_DIR "tests/data"
#endif

/* tests/data/NAME, whole (at most 16 MiB); NULL when it cannot be read */
static inline unsigned char *fixture(const char *name, size_t *len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", DATA_DIR, name);
	return att_slurp(path, 16u << 20, len);
}

/*
 * r made ready for a poll round over entries (len bytes) quoted as q: the
 * last round's reasons freed, every other field cleared.
 */
static inline void round_init(struct att_poll_round *r,
			      const struct ima_pcr_values *q,
			      const uint8_t *entries, size_t len)
{
	att_reasons_free(&r->rs);
	memset(r, 0, sizeof(*r));
	r->quoted = q;
	r->entries = entries;
	r->entries_len = len;
}

/* whether one of the reasons in rs contains text */
static inline bool has_reason(const struct att_reasons *rs, const char *text)
{
	int i;

	for (i = 0; i < rs->n; i++)
		if (strstr(rs->r[i], text))
			return true;
	return false;
}

static inline size_t unhex(const char *h, unsigned char *out, size_t max)
{
	size_t n = 0;

	while (h[0] && h[1] && n < max) {
		unsigned int b;

		sscanf(h, "%2x", &b);
		out[n++] = (unsigned char)b;
		h += 2;
	}
	return n;
}

/*
 * The EK public area of an ECC key (key's curve given as curve) with the
 * TCG EK template of that curve: NIST P-256 the low range's (sha256,
 * 0x000300b2, PolicyA, AES-128-CFB), otherwise the high range's H-3
 * (sha384, 0x000300f2, PolicyB, AES-256-CFB); scheme and kdf NULL. 0, or
 * -1 when the key's point cannot be read.
 */
static inline int ecc_public(EVP_PKEY *key, uint16_t curve,
			     struct att_public *pub)
{
	static const char policy_a_sha256[] =
		"837197674484b3f81a90cc8d46a5d724fd52d76e06520b64f2a1da1b331469aa";
	static const char policy_b_sha384[] =
		"b26e7d28d11a50bc53d882bcf5fd3a1a074148bb35d3b4e4cb1c0ad9bde419ca"
		"cb47ba09699646150f9fc000f3f80e12";
	unsigned char pt[1 + 2 * ATT_MAX_ECC];
	bool low = curve == ATT_ECC_NIST_P256;
	size_t len = 0, fb;

	memset(pub, 0, sizeof(*pub));
	if (!EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
					     pt, sizeof(pt), &len) ||
	    len < 3 || pt[0] != 0x04)
		return -1;
	fb = (len - 1) / 2;
	pub->type = ATT_ALG_ECC;
	pub->name_alg = low ? ATT_ALG_SHA256 : ATT_ALG_SHA384;
	pub->attrs = low ? 0x000300b2 : 0x000300f2;
	pub->policy_len = (uint16_t)unhex(low ? policy_a_sha256 : policy_b_sha384,
					  pub->policy, sizeof(pub->policy));
	pub->sym_alg = ATT_ALG_AES;
	pub->sym_bits = low ? 128 : 256;
	pub->sym_mode = ATT_ALG_CFB;
	pub->scheme = ATT_ALG_NULL;
	pub->kdf = ATT_ALG_NULL;
	pub->curve = curve;
	pub->x_len = pub->y_len = (uint16_t)fb;
	memcpy(pub->x, pt + 1, fb);
	memcpy(pub->y, pt + 1 + fb, fb);
	return 0;
}

#endif
