// SPDX-License-Identifier: GPL-2.0-only
/*
 * TPM2_MakeCredential in software (TPM 2.0 part 1, 24 "Credential
 * Protection"): a seed encrypted to the EK with RSA-OAEP (label
 * "IDENTITY"), the secret encrypted with AES-CFB under KDFa(seed,
 * "STORAGE", name), and an HMAC under KDFa(seed, "INTEGRITY") over the
 * ciphertext and the AK name. Only the TPM holding the EK recovers the seed,
 * and it releases the secret only when an object with that name is loaded
 * beside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

#include "ima_attest.h"

static void put16(uint8_t *p, size_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

int att_kdfa(uint16_t hash, const uint8_t *key, size_t key_len,
	     const char *label, const uint8_t *u, size_t u_len,
	     const uint8_t *v, size_t v_len, uint8_t *out, size_t bits)
{
	const EVP_MD *md = hash == ATT_ALG_SHA256 ? EVP_sha256() : NULL;
	size_t want = bits / 8, done = 0, llen = strlen(label) + 1;
	uint8_t blk[EVP_MAX_MD_SIZE], ctr[4], nbits[4];
	uint32_t i = 0;
	int ret = -1;
	EVP_MAC_CTX *c = NULL;
	EVP_MAC *mac = NULL;
	OSSL_PARAM params[2];

	if (!md || bits % 8 || !want || want > 1024)
		return -1;
	mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	if (!mac)
		return -1;
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
						     (char *)"SHA256", 0);
	params[1] = OSSL_PARAM_construct_end();
	put32(nbits, (uint32_t)bits);
	while (done < want) {
		size_t n;

		put32(ctr, ++i);
		c = EVP_MAC_CTX_new(mac);
		if (!c || !EVP_MAC_init(c, key, key_len, params) ||
		    !EVP_MAC_update(c, ctr, 4) ||
		    !EVP_MAC_update(c, (const uint8_t *)label, llen) ||
		    (u_len && !EVP_MAC_update(c, u, u_len)) ||
		    (v_len && !EVP_MAC_update(c, v, v_len)) ||
		    !EVP_MAC_update(c, nbits, 4) ||
		    !EVP_MAC_final(c, blk, &n, sizeof(blk)))
			goto out;
		EVP_MAC_CTX_free(c);
		c = NULL;
		if (n > want - done)
			n = want - done;
		memcpy(out + done, blk, n);
		done += n;
	}
	ret = 0;
out:
	EVP_MAC_CTX_free(c);
	EVP_MAC_free(mac);
	return ret;
}

long att_make_credential(const struct att_public *ek, const uint8_t *secret,
			 size_t secret_len, const uint8_t *name,
			 size_t name_len, uint8_t *out, size_t outmax,
			 char *err, size_t errlen)
{
	uint8_t seed[32], symkey[16], hmackey[32], iv[16] = { 0 };
	uint8_t plain[2 + 32], enc[2 + 32], hmac[32];
	uint8_t encseed[ATT_MAX_RSA];
	size_t encseed_len = sizeof(encseed), plain_len = 2 + secret_len;
	uint8_t hin[2 + 32 + ATT_MAX_NAME];
	size_t hlen = sizeof(hmac);
	EVP_PKEY_CTX *pctx = NULL;
	EVP_CIPHER_CTX *cctx = NULL;
	EVP_PKEY *pkey = NULL;
	char *label = NULL;
	long total = -1;
	int n1 = 0, n2 = 0;
	size_t off;

	if (ek->name_alg != ATT_ALG_SHA256 || ek->sym_alg != ATT_ALG_AES ||
	    ek->sym_bits != 128 || ek->sym_mode != ATT_ALG_CFB) {
		snprintf(err, errlen, "EK template not supported for MakeCredential");
		return -1;
	}
	if (secret_len == 0 || secret_len > 32 || name_len > ATT_MAX_NAME) {
		snprintf(err, errlen, "secret of %zu bytes or name of %zu bytes out of range",
			 secret_len, name_len);
		return -1;
	}
	if (RAND_bytes(seed, sizeof(seed)) != 1) {
		snprintf(err, errlen, "no random bytes for the seed");
		return -1;
	}
	pkey = att_public_pkey(ek, err, errlen);
	if (!pkey)
		return -1;
	/* the seed, to the EK: OAEP with the EK's nameAlg, label "IDENTITY\0" */
	label = OPENSSL_memdup("IDENTITY", 9);
	pctx = EVP_PKEY_CTX_new(pkey, NULL);
	if (!label || !pctx || EVP_PKEY_encrypt_init(pctx) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_OAEP_PADDING) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_oaep_md(pctx, EVP_sha256()) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, EVP_sha256()) <= 0 ||
	    EVP_PKEY_CTX_set0_rsa_oaep_label(pctx, label, 9) <= 0) {
		snprintf(err, errlen, "cannot set up RSA-OAEP for the EK");
		goto out;
	}
	label = NULL;	/* owned by pctx */
	if (EVP_PKEY_encrypt(pctx, encseed, &encseed_len, seed,
			     sizeof(seed)) <= 0) {
		snprintf(err, errlen, "RSA-OAEP encryption to the EK failed");
		goto out;
	}
	if (att_kdfa(ATT_ALG_SHA256, seed, sizeof(seed), "STORAGE", name,
		     name_len, NULL, 0, symkey, 128) ||
	    att_kdfa(ATT_ALG_SHA256, seed, sizeof(seed), "INTEGRITY", NULL, 0,
		     NULL, 0, hmackey, 256)) {
		snprintf(err, errlen, "KDFa failed");
		goto out;
	}
	/* encIdentity: the TPM2B_DIGEST credential, AES-128-CFB, IV 0 */
	put16(plain, secret_len);
	memcpy(plain + 2, secret, secret_len);
	cctx = EVP_CIPHER_CTX_new();
	if (!cctx ||
	    !EVP_EncryptInit_ex(cctx, EVP_aes_128_cfb(), NULL, symkey, iv) ||
	    !EVP_EncryptUpdate(cctx, enc, &n1, plain, (int)plain_len) ||
	    !EVP_EncryptFinal_ex(cctx, enc + n1, &n2) ||
	    (size_t)(n1 + n2) != plain_len) {
		snprintf(err, errlen, "AES-128-CFB failed");
		goto out;
	}
	/* outerHMAC over encIdentity || name */
	memcpy(hin, enc, plain_len);
	memcpy(hin + plain_len, name, name_len);
	if (!EVP_Q_mac(NULL, "HMAC", NULL, "SHA256", NULL, hmackey,
		       sizeof(hmackey), hin, plain_len + name_len, hmac,
		       sizeof(hmac), &hlen)) {
		snprintf(err, errlen, "HMAC failed");
		goto out;
	}
	/* tpm2-tools' file: magic, version, TPM2B_ID_OBJECT, TPM2B_ENCRYPTED_SECRET */
	total = (long)(8 + 2 + 2 + hlen + plain_len + 2 + encseed_len);
	if ((size_t)total > outmax) {
		snprintf(err, errlen, "credential buffer too small");
		total = -1;
		goto out;
	}
	put32(out, 0xbadcc0de);
	put32(out + 4, 1);
	put16(out + 8, 2 + hlen + plain_len);
	put16(out + 10, hlen);
	memcpy(out + 12, hmac, hlen);
	off = 12 + hlen;
	memcpy(out + off, enc, plain_len);
	off += plain_len;
	put16(out + off, encseed_len);
	memcpy(out + off + 2, encseed, encseed_len);
out:
	OPENSSL_cleanse(seed, sizeof(seed));
	OPENSSL_cleanse(symkey, sizeof(symkey));
	OPENSSL_cleanse(hmackey, sizeof(hmackey));
	OPENSSL_free(label);
	EVP_CIPHER_CTX_free(cctx);
	EVP_PKEY_CTX_free(pctx);
	EVP_PKEY_free(pkey);
	return total;
}
