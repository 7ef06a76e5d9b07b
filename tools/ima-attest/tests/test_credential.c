// SPDX-License-Identifier: GPL-2.0-only
/*
 * MakeCredential for an ECC EK, opened by the TPM's side of it written
 * here from TPM 2.0 part 1 ("Secret Sharing" with ECDH, KDFe 11.4.10.3,
 * KDFa 11.4.10.2, "Credential Protection") and part 3 (ActivateCredential)
 * on its own, not with the library's KDFs: the EK's private key and the
 * ephemeral point give Z, KDFe the seed, KDFa the HMAC and AES keys; the
 * HMAC over encIdentity || name must verify before the secret is
 * decrypted. Keys are made here for NIST P-256 (the low range EK
 * template: sha256, AES-128) and P-384 (the high range one: sha384,
 * AES-256); what the TPM side must recover is the secret given, from how
 * the credential was asked for. swtpm opens them too, in
 * tests/host/attest-machine.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>

#include "ima_attest.h"
#include "unit_main.h"
#include "util.h"

static EVP_PKEY *p256, *p256b, *p384;

static int setup(void **state)
{
	p256 = EVP_EC_gen("P-256");
	p256b = EVP_EC_gen("P-256");
	p384 = EVP_EC_gen("P-384");
	return p256 && p256b && p384 ? 0 : -1;
}

static int teardown(void **state)
{
	EVP_PKEY_free(p256);
	EVP_PKEY_free(p256b);
	EVP_PKEY_free(p384);
	return 0;
}

static const EVP_MD *md_of(uint16_t alg)
{
	return alg == ATT_ALG_SHA256 ? EVP_sha256() : EVP_sha384();
}

/* KDFe: H(counter || Z || label\0 || u || v), counter from 1 */
static void tpm_kdfe(const EVP_MD *md, const uint8_t *z, size_t zl,
		     const uint8_t *u, size_t ul, const uint8_t *v, size_t vl,
		     uint8_t *out, size_t bytes)
{
	uint8_t blk[EVP_MAX_MD_SIZE], ctr[4] = { 0 };
	size_t done = 0;
	unsigned int n;
	EVP_MD_CTX *c = EVP_MD_CTX_new();

	assert_non_null(c);
	while (done < bytes) {
		ctr[3]++;
		assert_true(EVP_DigestInit_ex(c, md, NULL));
		EVP_DigestUpdate(c, ctr, 4);
		EVP_DigestUpdate(c, z, zl);
		EVP_DigestUpdate(c, "IDENTITY", 9);
		EVP_DigestUpdate(c, u, ul);
		EVP_DigestUpdate(c, v, vl);
		assert_true(EVP_DigestFinal_ex(c, blk, &n));
		if (n > bytes - done)
			n = (unsigned int)(bytes - done);
		memcpy(out + done, blk, n);
		done += n;
	}
	EVP_MD_CTX_free(c);
}

/* KDFa: HMAC(key, counter || label\0 || ctx || bits), counter from 1 */
static void tpm_kdfa(const EVP_MD *md, const uint8_t *key, size_t kl,
		     const char *label, const uint8_t *ctx, size_t cl,
		     uint8_t *out, size_t bytes)
{
	uint8_t in[4 + 16 + ATT_MAX_NAME + 4], blk[EVP_MAX_MD_SIZE];
	size_t done = 0, ll = strlen(label) + 1, il, n;
	uint32_t i = 0, bits = (uint32_t)bytes * 8;

	while (done < bytes) {
		i++;
		in[0] = (uint8_t)(i >> 24);
		in[1] = (uint8_t)(i >> 16);
		in[2] = (uint8_t)(i >> 8);
		in[3] = (uint8_t)i;
		memcpy(in + 4, label, ll);
		if (cl)
			memcpy(in + 4 + ll, ctx, cl);
		il = 4 + ll + cl;
		in[il++] = (uint8_t)(bits >> 24);
		in[il++] = (uint8_t)(bits >> 16);
		in[il++] = (uint8_t)(bits >> 8);
		in[il++] = (uint8_t)bits;
		assert_non_null(EVP_Q_mac(NULL, "HMAC", NULL, EVP_MD_get0_name(md),
					  NULL, key, kl, in, il, blk, sizeof(blk),
					  &n));
		if (n > bytes - done)
			n = bytes - done;
		memcpy(out + done, blk, n);
		done += n;
	}
}

static size_t be16(const uint8_t *p)
{
	return (size_t)p[0] << 8 | p[1];
}

/*
 * TPM2_ActivateCredential with the EK's private key (ek, of area pub) for
 * an object of this name: the secret into out, its length; -1 when the
 * HMAC does not verify (the TPM's TPM_RC_INTEGRITY), -2 when the point is
 * not on the EK's curve (TPM_RC_ECC_POINT).
 */
static int tpm_activate(EVP_PKEY *ek, const struct att_public *pub,
			const uint8_t *cred, size_t len, const uint8_t *name,
			size_t name_len, uint8_t *out)
{
	const EVP_MD *md = md_of(pub->name_alg);
	size_t dl = (size_t)EVP_MD_get_size(md), fb = pub->x_len, zl, hl, el;
	uint8_t seed[EVP_MAX_MD_SIZE], hkey[EVP_MAX_MD_SIZE], skey[32];
	uint8_t pt[1 + 2 * ATT_MAX_ECC], z[ATT_MAX_ECC], mac[EVP_MAX_MD_SIZE];
	uint8_t hin[2 + 32 + ATT_MAX_NAME], plain[2 + 32], iv[16] = { 0 };
	const uint8_t *id, *es, *hmac, *enc;
	OSSL_PARAM params[3];
	EVP_PKEY_CTX *pc = NULL;
	EVP_PKEY *eph = NULL;
	EVP_CIPHER_CTX *cc;
	size_t n;
	int o1, o2;

	/* magic, version, TPM2B_ID_OBJECT, TPM2B_ENCRYPTED_SECRET */
	assert_true(len > 12);
	assert_int_equal(be16(cred) << 16 | be16(cred + 2), 0xbadcc0de);
	id = cred + 8;
	es = id + 2 + be16(id);
	assert_true(es + 2 <= cred + len);
	assert_true(es + 2 + be16(es) == cred + len);
	/* encryptedSecret: TPMS_ECC_POINT, x then y, each the field's size */
	assert_int_equal(be16(es), 4 + 2 * fb);
	assert_int_equal(be16(es + 2), fb);
	assert_int_equal(be16(es + 4 + fb), fb);
	pt[0] = 0x04;
	memcpy(pt + 1, es + 4, fb);
	memcpy(pt + 1 + fb, es + 6 + fb, fb);
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
						     fb == 32 ? "P-256" : "P-384", 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
						      pt, 1 + 2 * fb);
	params[2] = OSSL_PARAM_construct_end();
	pc = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (!pc || EVP_PKEY_fromdata_init(pc) <= 0 ||
	    EVP_PKEY_fromdata(pc, &eph, EVP_PKEY_PUBLIC_KEY, params) <= 0) {
		EVP_PKEY_CTX_free(pc);
		return -2;
	}
	EVP_PKEY_CTX_free(pc);
	/* Z: x of d_EK * Q_ephemeral */
	pc = EVP_PKEY_CTX_new(ek, NULL);
	zl = sizeof(z);
	assert_true(pc && EVP_PKEY_derive_init(pc) > 0 &&
		    EVP_PKEY_derive_set_peer(pc, eph) > 0 &&
		    EVP_PKEY_derive(pc, z, &zl) > 0);
	EVP_PKEY_CTX_free(pc);
	EVP_PKEY_free(eph);
	assert_int_equal(zl, fb);
	tpm_kdfe(md, z, zl, es + 4, fb, pub->x, pub->x_len, seed, dl);
	/* TPM2B_ID_OBJECT: integrityHMAC (TPM2B), then encIdentity */
	hl = be16(id + 2);
	assert_int_equal(hl, dl);
	hmac = id + 4;
	enc = hmac + hl;
	el = (size_t)(es - enc);
	assert_true(el > 2 && el <= sizeof(plain));
	tpm_kdfa(md, seed, dl, "INTEGRITY", NULL, 0, hkey, dl);
	memcpy(hin, enc, el);
	memcpy(hin + el, name, name_len);
	assert_non_null(EVP_Q_mac(NULL, "HMAC", NULL, EVP_MD_get0_name(md), NULL,
				  hkey, dl, hin, el + name_len, mac, sizeof(mac),
				  &n));
	if (n != hl || memcmp(mac, hmac, hl))
		return -1;
	tpm_kdfa(md, seed, dl, "STORAGE", name, name_len, skey,
		 pub->sym_bits / 8);
	cc = EVP_CIPHER_CTX_new();
	assert_true(cc && EVP_DecryptInit_ex(cc, pub->sym_bits == 128 ?
					     EVP_aes_128_cfb() : EVP_aes_256_cfb(),
					     NULL, skey, iv) &&
		    EVP_DecryptUpdate(cc, plain, &o1, enc, (int)el) &&
		    EVP_DecryptFinal_ex(cc, plain + o1, &o2));
	EVP_CIPHER_CTX_free(cc);
	assert_int_equal(be16(plain), el - 2);
	memcpy(out, plain + 2, el - 2);
	return (int)(el - 2);
}

/* a credential made for key (curve) over this secret and name */
static long make(EVP_PKEY *key, uint16_t curve, struct att_public *pub,
		 const uint8_t *secret, size_t sl, const uint8_t *name,
		 size_t nl, uint8_t *cred, size_t max)
{
	char err[160] = "";
	long n;

	assert_int_equal(ecc_public(key, curve, pub), 0);
	n = att_make_credential(pub, secret, sl, name, nl, cred, max, err,
				sizeof(err));
	if (n < 0)
		print_message("# %s\n", err);
	return n;
}

static void roundtrip(EVP_PKEY *key, uint16_t curve, size_t dl, size_t fb)
{
	uint8_t secret[32], name[34] = { 0x00, 0x0b }, got[32], cred[1024];
	struct att_public pub;
	long n;
	int i;

	for (i = 0; i < 32; i++) {
		secret[i] = (uint8_t)(0xa0 + i);
		name[2 + i] = (uint8_t)i;
	}
	n = make(key, curve, &pub, secret, 32, name, 34, cred, sizeof(cred));
	/* magic, version, 2 + (2 + digest) + (2 + 32), 2 + TPMS_ECC_POINT */
	assert_int_equal(n, 8 + 2 + 2 + dl + 34 + 2 + 4 + 2 * fb);
	assert_int_equal(tpm_activate(key, &pub, cred, (size_t)n, name, 34, got), 32);
	assert_memory_equal(got, secret, 32);
	/* a fresh ephemeral key each time: another credential, same secret */
	{
		uint8_t cred2[1024];
		long n2 = make(key, curve, &pub, secret, 32, name, 34, cred2,
			       sizeof(cred2));

		assert_int_equal(n2, n);
		assert_memory_not_equal(cred2 + 8, cred + 8, (size_t)n - 8);
	}
	/* the TPM releases it for that name only: another object's fails */
	name[33] ^= 0x01;
	assert_int_equal(tpm_activate(key, &pub, cred, (size_t)n, name, 34, got), -1);
}

static void test_p256_roundtrip(void **state)
{
	roundtrip(p256, ATT_ECC_NIST_P256, 32, 32);
}

static void test_p384_roundtrip(void **state)
{
	roundtrip(p384, ATT_ECC_NIST_P384, 48, 48);
}

/*
 * Made for another P-256 key: the EK's TPM derives another Z, another
 * seed, and the HMAC does not verify (the forged case of the host test).
 */
static void test_other_key_fails(void **state)
{
	uint8_t secret[32] = { 7 }, name[34] = { 0x00, 0x0b }, got[32], cred[512];
	struct att_public other, mine;
	long n;

	n = make(p256b, ATT_ECC_NIST_P256, &other, secret, 32, name, 34, cred,
		 sizeof(cred));
	assert_true(n > 0);
	assert_int_equal(ecc_public(p256, ATT_ECC_NIST_P256, &mine), 0);
	assert_int_equal(tpm_activate(p256, &mine, cred, (size_t)n, name, 34, got), -1);
}

/* pub refused by att_make_credential (cred_max bytes), the error holding
 * why (NULL: any error) */
static void refused(const struct att_public *pub, size_t cred_max,
		    const char *why)
{
	uint8_t secret[32] = { 7 }, name[34] = { 0x00, 0x0b }, cred[512];
	char err[160] = "";

	assert_true(cred_max <= sizeof(cred));
	assert_int_equal(att_make_credential(pub, secret, 32, name, 34, cred,
					     cred_max, err, sizeof(err)), -1);
	if (why && !strstr(err, why))
		fail_msg("error '%s' lacks '%s'", err, why);
}

/* refused before anything is made: point off the curve, no curve, template */
static void test_refusals(void **state)
{
	struct att_public pub;

	assert_int_equal(ecc_public(p256, ATT_ECC_NIST_P256, &pub), 0);
	pub.y[31] ^= 0x01;
	refused(&pub, 512, "not on the curve");
	assert_int_equal(ecc_public(p256, ATT_ECC_NIST_P256, &pub), 0);
	pub.curve = 0x0020;	/* SM2 */
	refused(&pub, 512, "curve not supported");
	assert_int_equal(ecc_public(p256, ATT_ECC_NIST_P256, &pub), 0);
	pub.sym_alg = ATT_ALG_NULL;
	refused(&pub, 512, "EK template not supported");
	assert_int_equal(ecc_public(p256, ATT_ECC_NIST_P256, &pub), 0);
	pub.name_alg = ATT_ALG_SHA1;
	refused(&pub, 512, NULL);
	/* the P-256 point given as P-384's: not on that curve */
	assert_int_equal(ecc_public(p256, ATT_ECC_NIST_P256, &pub), 0);
	pub.curve = ATT_ECC_NIST_P384;
	refused(&pub, 512, "not on the curve");
	/* too small a buffer for the P-384 credential */
	assert_int_equal(ecc_public(p384, ATT_ECC_NIST_P384, &pub), 0);
	refused(&pub, 100, NULL);
}

UNIT_TEST_MAIN(setup, teardown,
	cmocka_unit_test(test_p256_roundtrip),
	cmocka_unit_test(test_p384_roundtrip),
	cmocka_unit_test(test_other_key_fails),
	cmocka_unit_test(test_refusals))
