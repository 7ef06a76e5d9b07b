// SPDX-License-Identifier: GPL-2.0-only
/*
 * TPM2_MakeCredential in software (TPM 2.0 part 1, 24 "Credential
 * Protection"): a seed shared with the EK (part 1, 11.4.10 "Secret
 * Sharing"), the secret encrypted with AES-CFB under KDFa(seed, "STORAGE",
 * name), and an HMAC under KDFa(seed, "INTEGRITY") over the ciphertext and
 * the AK name, each with the EK's nameAlg and symmetric. An RSA EK gets
 * the seed encrypted with RSA-OAEP (label "IDENTITY"); for an ECC EK the
 * seed is KDFe(nameAlg, Z, "IDENTITY", ephemeral x, EK x), Z the x of the
 * point an ephemeral key on the EK's curve shares with it (ECDH), and
 * the ephemeral point is sent. Only the TPM holding the EK recovers the
 * seed, and it releases the secret only when an object with that name is
 * loaded beside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/ec.h>
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

/* the hashes the KDFs and the credential's HMAC are made with */
static const EVP_MD *kdf_md(uint16_t hash)
{
	return hash == ATT_ALG_SHA1 ? NULL : att_md(hash);
}

int att_kdfe(uint16_t hash, const uint8_t *z, size_t z_len,
	     const char *label, const uint8_t *u, size_t u_len,
	     const uint8_t *v, size_t v_len, uint8_t *out, size_t bits)
{
	const EVP_MD *md = kdf_md(hash);
	size_t want = bits / 8, done = 0, llen = strlen(label) + 1;
	uint8_t blk[EVP_MAX_MD_SIZE], ctr[4];
	EVP_MD_CTX *c = NULL;
	unsigned int n;
	uint32_t i = 0;
	int ret = -1;

	if (!md || bits % 8 || !want || want > 1024)
		return -1;
	c = EVP_MD_CTX_new();
	if (!c)
		return -1;
	/* K(i) = H(i || Z || label with its NUL || partyUInfo || partyVInfo) */
	while (done < want) {
		put32(ctr, ++i);
		if (!EVP_DigestInit_ex(c, md, NULL) ||
		    !EVP_DigestUpdate(c, ctr, 4) ||
		    !EVP_DigestUpdate(c, z, z_len) ||
		    !EVP_DigestUpdate(c, label, llen) ||
		    (u_len && !EVP_DigestUpdate(c, u, u_len)) ||
		    (v_len && !EVP_DigestUpdate(c, v, v_len)) ||
		    !EVP_DigestFinal_ex(c, blk, &n))
			goto out;
		if (n > want - done)
			n = (unsigned int)(want - done);
		memcpy(out + done, blk, n);
		done += n;
	}
	ret = 0;
out:
	OPENSSL_cleanse(blk, sizeof(blk));
	EVP_MD_CTX_free(c);
	return ret;
}

int att_kdfa(uint16_t hash, const uint8_t *key, size_t key_len,
	     const char *label, const uint8_t *u, size_t u_len,
	     const uint8_t *v, size_t v_len, uint8_t *out, size_t bits)
{
	const EVP_MD *md = kdf_md(hash);
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
						     (char *)EVP_MD_get0_name(md), 0);
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

/* the seed to an RSA EK: OAEP with the EK's nameAlg, label "IDENTITY\0" */
static int seed_rsa(EVP_PKEY *pkey, const EVP_MD *md, const uint8_t *seed,
		    size_t seed_len, uint8_t *enc, size_t *enc_len, char *err,
		    size_t errlen)
{
	char *label = OPENSSL_memdup("IDENTITY", 9);
	EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new(pkey, NULL);
	int ret = -1;

	if (!label || !pctx || EVP_PKEY_encrypt_init(pctx) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_OAEP_PADDING) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_oaep_md(pctx, md) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, md) <= 0 ||
	    EVP_PKEY_CTX_set0_rsa_oaep_label(pctx, label, 9) <= 0) {
		snprintf(err, errlen, "cannot set up RSA-OAEP for the EK");
		goto out;
	}
	label = NULL;	/* owned by pctx */
	if (EVP_PKEY_encrypt(pctx, enc, enc_len, seed, seed_len) <= 0) {
		snprintf(err, errlen, "RSA-OAEP encryption to the EK failed");
		goto out;
	}
	ret = 0;
out:
	OPENSSL_free(label);
	EVP_PKEY_CTX_free(pctx);
	return ret;
}

/*
 * The seed shared with an ECC EK (part 1, 11.4.10.3, and "Secret
 * Sharing" with ECDH): an ephemeral key on the EK's curve, Z the x coordinate
 * of the shared point (the field's size), seed = KDFe(nameAlg, Z,
 * "IDENTITY", ephemeral x, EK x, the digest's bits); enc the ephemeral
 * point as the TPM reads it, a TPMS_ECC_POINT.
 */
static int seed_ecc(const struct att_public *ek, EVP_PKEY *pkey,
		    uint8_t *seed, size_t seed_len, uint8_t *enc,
		    size_t *enc_len, char *err, size_t errlen)
{
	uint8_t pt[1 + 2 * ATT_MAX_ECC], z[ATT_MAX_ECC];
	size_t fb, pt_len = 0, z_len = sizeof(z);
	EVP_PKEY_CTX *dctx = NULL;
	EVP_PKEY *eph = NULL;
	const char *group;
	int ret = -1;

	group = att_curve(ek->curve, &fb);
	if (!group || *enc_len < 4 + 2 * fb) {
		snprintf(err, errlen, "EK curve 0x%04x not supported for MakeCredential",
			 ek->curve);
		return -1;
	}
	eph = EVP_EC_gen(group);
	if (!eph ||
	    !EVP_PKEY_get_octet_string_param(eph, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
					     pt, sizeof(pt), &pt_len) ||
	    pt_len != 1 + 2 * fb || pt[0] != 0x04) {
		snprintf(err, errlen, "cannot make an ephemeral %s key", group);
		goto out;
	}
	dctx = EVP_PKEY_CTX_new(eph, NULL);
	if (!dctx || EVP_PKEY_derive_init(dctx) <= 0 ||
	    EVP_PKEY_derive_set_peer(dctx, pkey) <= 0 ||
	    EVP_PKEY_derive(dctx, z, &z_len) <= 0 || z_len != fb) {
		snprintf(err, errlen, "ECDH with the EK failed");
		goto out;
	}
	if (att_kdfe(ek->name_alg, z, z_len, "IDENTITY", pt + 1, fb, ek->x,
		     ek->x_len, seed, seed_len * 8)) {
		snprintf(err, errlen, "KDFe failed");
		goto out;
	}
	put16(enc, fb);
	memcpy(enc + 2, pt + 1, fb);
	put16(enc + 2 + fb, fb);
	memcpy(enc + 4 + fb, pt + 1 + fb, fb);
	*enc_len = 4 + 2 * fb;
	ret = 0;
out:
	OPENSSL_cleanse(z, sizeof(z));
	EVP_PKEY_CTX_free(dctx);
	EVP_PKEY_free(eph);
	return ret;
}

static const EVP_CIPHER *cfb_cipher(uint16_t bits)
{
	switch (bits) {
	case 128:
		return EVP_aes_128_cfb();
	case 192:
		return EVP_aes_192_cfb();
	case 256:
		return EVP_aes_256_cfb();
	}
	return NULL;
}

long att_make_credential(const struct att_public *ek, const uint8_t *secret,
			 size_t secret_len, const uint8_t *name,
			 size_t name_len, uint8_t *out, size_t outmax,
			 char *err, size_t errlen)
{
	const EVP_MD *md = kdf_md(ek->name_alg);
	const EVP_CIPHER *cipher = cfb_cipher(ek->sym_bits);
	uint8_t seed[EVP_MAX_MD_SIZE], symkey[32], hmackey[EVP_MAX_MD_SIZE];
	uint8_t plain[2 + 32], enc[2 + 32], hmac[EVP_MAX_MD_SIZE];
	uint8_t iv[16] = { 0 }, encseed[ATT_MAX_RSA];
	size_t encseed_len = sizeof(encseed), plain_len = 2 + secret_len;
	uint8_t hin[2 + 32 + ATT_MAX_NAME];
	size_t hlen = sizeof(hmac), dlen;
	EVP_CIPHER_CTX *cctx = NULL;
	EVP_PKEY *pkey = NULL;
	long total = -1;
	int n1 = 0, n2 = 0;
	size_t off;

	if (!md || ek->sym_alg != ATT_ALG_AES || !cipher ||
	    ek->sym_mode != ATT_ALG_CFB ||
	    (ek->type != ATT_ALG_RSA && ek->type != ATT_ALG_ECC)) {
		snprintf(err, errlen, "EK template not supported for MakeCredential");
		return -1;
	}
	if (secret_len == 0 || secret_len > 32 || name_len > ATT_MAX_NAME) {
		snprintf(err, errlen, "secret of %zu bytes or name of %zu bytes out of range",
			 secret_len, name_len);
		return -1;
	}
	/* the seed: the size of the EK's nameAlg digest */
	dlen = (size_t)EVP_MD_get_size(md);
	pkey = att_public_pkey(ek, err, errlen);
	if (!pkey)
		return -1;
	if (ek->type == ATT_ALG_RSA) {
		if (RAND_bytes(seed, (int)dlen) != 1) {
			snprintf(err, errlen, "no random bytes for the seed");
			goto out;
		}
		if (seed_rsa(pkey, md, seed, dlen, encseed, &encseed_len, err,
			     errlen))
			goto out;
	} else if (seed_ecc(ek, pkey, seed, dlen, encseed, &encseed_len, err,
			    errlen)) {
		goto out;
	}
	if (att_kdfa(ek->name_alg, seed, dlen, "STORAGE", name, name_len,
		     NULL, 0, symkey, ek->sym_bits) ||
	    att_kdfa(ek->name_alg, seed, dlen, "INTEGRITY", NULL, 0, NULL, 0,
		     hmackey, dlen * 8)) {
		snprintf(err, errlen, "KDFa failed");
		goto out;
	}
	/* encIdentity: the TPM2B_DIGEST credential, AES-CFB, IV 0 */
	put16(plain, secret_len);
	memcpy(plain + 2, secret, secret_len);
	cctx = EVP_CIPHER_CTX_new();
	if (!cctx ||
	    !EVP_EncryptInit_ex(cctx, cipher, NULL, symkey, iv) ||
	    !EVP_EncryptUpdate(cctx, enc, &n1, plain, (int)plain_len) ||
	    !EVP_EncryptFinal_ex(cctx, enc + n1, &n2) ||
	    (size_t)(n1 + n2) != plain_len) {
		snprintf(err, errlen, "AES-%u-CFB failed", ek->sym_bits);
		goto out;
	}
	/* outerHMAC over encIdentity || name, with the EK's nameAlg */
	memcpy(hin, enc, plain_len);
	memcpy(hin + plain_len, name, name_len);
	if (!EVP_Q_mac(NULL, "HMAC", NULL, EVP_MD_get0_name(md), NULL, hmackey,
		       dlen, hin, plain_len + name_len, hmac, sizeof(hmac),
		       &hlen)) {
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
	EVP_CIPHER_CTX_free(cctx);
	EVP_PKEY_free(pkey);
	return total;
}
