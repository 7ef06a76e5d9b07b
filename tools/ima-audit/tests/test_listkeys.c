// SPDX-License-Identifier: GPL-2.0-only
/*
 * Keys from the list (--ca): which certificates a .ima record may carry
 * (chained to the CA, not a CA, digitalSignature, one DER certificate),
 * signatures verified with the accepted ones and remembered, a kexec
 * retiring them. Certificates are made here with OpenSSL.
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
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "ima_listkeys.h"
#include "testcert.h"
#include "unit_main.h"

struct id {
	EVP_PKEY *pkey;
	X509 *cert;
	uint8_t der[2048];
	int der_len;
};

static struct id ca, other_ca, leaf, stranger, ca_leaf, no_ds, odd;
static char ca_pem[64], ca_der[64];

/* A certificate of a fresh key, cn, signed by issuer (itself if NULL). */
static void make(struct id *k, const char *cn, const struct id *issuer,
		 const char *bc, const char *ku)
{
	unsigned char *p;

	k->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	assert_non_null(k->pkey);
	k->cert = test_cert(k->pkey, cn, issuer ? issuer->cert : NULL,
			    issuer ? issuer->pkey : NULL, bc, ku);
	p = k->der;
	k->der_len = i2d_X509(k->cert, &p);
	assert_true(k->der_len > 0);
}

static int setup(void **state)
{
	FILE *f;

	make(&ca, "test CA", NULL, "critical,CA:TRUE", "keyCertSign");
	make(&other_ca, "other CA", NULL, "critical,CA:TRUE", "keyCertSign");
	make(&leaf, "IMA key", &ca, "CA:FALSE", "digitalSignature");
	make(&stranger, "stranger", &other_ca, "CA:FALSE", "digitalSignature");
	make(&ca_leaf, "CA on .ima", &ca, "critical,CA:TRUE", "keyCertSign");
	make(&no_ds, "no digitalSignature", &ca, "CA:FALSE",
	     "keyEncipherment");
	make(&odd, "a\nb", &ca, "CA:FALSE", NULL);
	snprintf(ca_pem, sizeof(ca_pem), "/tmp/ima-audit-lk-%d.pem",
		 (int)getpid());
	snprintf(ca_der, sizeof(ca_der), "/tmp/ima-audit-lk-%d.der",
		 (int)getpid());
	f = fopen(ca_pem, "w");
	PEM_write_X509(f, other_ca.cert);	/* two CAs, one file */
	PEM_write_X509(f, ca.cert);
	fclose(f);
	f = fopen(ca_der, "w");
	fwrite(ca.der, 1, (size_t)ca.der_len, f);
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	struct id *all[] = { &ca, &other_ca, &leaf, &stranger, &ca_leaf,
			     &no_ds, &odd };
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		EVP_PKEY_free(all[i]->pkey);
		X509_free(all[i]->cert);
	}
	remove(ca_pem);
	remove(ca_der);
	return 0;
}

static int add(struct ima_listkeys *lk, const struct id *k, char *why)
{
	return ima_listkeys_add(lk, k->der, (size_t)k->der_len, 7, 700, 10,
				why, 256);
}

static void test_load_ca(void **state)
{
	struct ima_listkeys lk = { 0 };
	char err[256];

	assert_int_equal(ima_listkeys_load_ca(&lk, ca_der, err, sizeof(err)),
			 0);
	ima_listkeys_free(&lk);
	assert_int_equal(ima_listkeys_load_ca(&lk, "/nonexistent", err,
					      sizeof(err)), -1);
	assert_non_null(strstr(err, "No such file"));
	assert_int_equal(ima_listkeys_load_ca(&lk, "/dev/null", err,
					      sizeof(err)), -1);
	assert_non_null(strstr(err, "no CA certificate found"));
	ima_listkeys_free(&lk);
}

static void test_which_keys(void **state)
{
	struct ima_listkeys lk = { 0 };
	uint8_t junk[64];
	char why[256];

	assert_int_equal(ima_listkeys_load_ca(&lk, ca_pem, why, sizeof(why)),
			 0);
	assert_int_equal(add(&lk, &leaf, why), 0);
	assert_int_equal(lk.n, 1);
	assert_string_equal(lk.keys[0].subject, "/CN=IMA key");
	assert_int_equal(lk.keys[0].index, 7);
	/* the other CA is in the file too: its keys chain */
	assert_int_equal(add(&lk, &stranger, why), 0);
	ima_listkeys_free(&lk);

	assert_int_equal(ima_listkeys_load_ca(&lk, ca_der, why, sizeof(why)),
			 0);
	assert_int_equal(add(&lk, &stranger, why), -1);
	assert_non_null(strstr(why, "'/CN=stranger' does not chain to"));
	assert_int_equal(add(&lk, &ca_leaf, why), -1);
	assert_non_null(strstr(why, "is a CA certificate"));
	assert_int_equal(add(&lk, &no_ds, why), -1);
	assert_non_null(strstr(why, "without digitalSignature"));
	memset(junk, 0x30, sizeof(junk));
	assert_int_equal(ima_listkeys_add(&lk, junk, sizeof(junk), 1, 1, 10,
					  why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not one DER X.509 certificate"));
	/* a byte after the certificate: not one certificate */
	{
		uint8_t more[2049];

		memcpy(more, leaf.der, (size_t)leaf.der_len);
		more[leaf.der_len] = 0;
		assert_int_equal(ima_listkeys_add(&lk, more,
						  (size_t)leaf.der_len + 1, 1,
						  1, 10, why, sizeof(why)), -1);
	}
	/* a subject from the list is escaped before it is printed */
	assert_int_equal(add(&lk, &odd, why), 0);
	assert_non_null(strstr(lk.keys[0].subject, "/CN=a\\x0Ab"));
	assert_int_equal(lk.refused, 5);
	ima_listkeys_free(&lk);
}

static void v2(const struct id *k, const uint8_t *digest, uint8_t *sig,
	       size_t *len, struct ima_sig_hdr *h)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(k->pkey, NULL);
	ASN1_OCTET_STRING *skid;
	const unsigned char *s;
	size_t slen = 128;

	assert_true(EVP_PKEY_sign_init(ctx) > 0);
	assert_true(EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) > 0);
	assert_true(EVP_PKEY_sign(ctx, sig + 9, &slen, digest, 32) > 0);
	EVP_PKEY_CTX_free(ctx);
	skid = X509_get_ext_d2i(k->cert, NID_subject_key_identifier, NULL,
				NULL);
	s = ASN1_STRING_get0_data(skid) + ASN1_STRING_length(skid) - 4;
	sig[0] = 3;
	sig[1] = 2;
	sig[2] = 4;	/* sha256 */
	memcpy(sig + 3, s, 4);
	sig[7] = (uint8_t)(slen >> 8);
	sig[8] = (uint8_t)slen;
	ASN1_OCTET_STRING_free(skid);
	*len = slen + 9;
	assert_int_equal(ima_sig_parse(sig, (uint32_t)*len, h), IMA_SIG_OK);
}

static void test_verify_and_kexec(void **state)
{
	const struct ima_hash_algo *sha256 = ima_hash_by_name("sha256", 6);
	struct ima_listkeys lk = { 0 };
	struct ima_sig_hdr h, hs;
	uint8_t d[32], sig[200], sig2[200];
	size_t len, len2;
	char why[256];

	memset(d, 0x42, sizeof(d));
	assert_int_equal(ima_listkeys_load_ca(&lk, ca_pem, why, sizeof(why)),
			 0);
	assert_int_equal(add(&lk, &leaf, why), 0);
	v2(&leaf, d, sig, &len, &h);
	v2(&stranger, d, sig2, &len2, &hs);
	assert_int_equal(ima_listkeys_verify(&lk, false, sha256,
					     IMA_DT_NONE, d, 32, &h,
					     NULL, 0, 9, 900, "/f", 2),
			 IMA_SIG_OK);
	assert_int_equal(lk.nuses, 1);
	assert_int_equal(lk.uses[0].index, 9);
	assert_string_equal(lk.uses[0].path, "/f");
	assert_int_equal(lk.keys[0].verified, 1);
	/* another digest: bad; another key id: unknown, nothing remembered */
	d[0] ^= 1;
	assert_int_equal(ima_listkeys_verify(&lk, false, sha256,
					     IMA_DT_NONE, d, 32, &h,
					     NULL, 0, 10, 1000, "/g", 2),
			 IMA_SIG_BAD);
	d[0] ^= 1;
	assert_int_equal(ima_listkeys_verify(&lk, false, sha256,
					     IMA_DT_NONE, d, 32, &hs,
					     NULL, 0, 11, 1100, "/h", 2),
			 IMA_SIG_UNKNOWN_KEY);
	assert_int_equal(lk.nuses, 1);
	/* after a kexec the next kernel's keyring is empty */
	ima_listkeys_new_kernel(&lk);
	assert_int_equal(ima_listkeys_verify(&lk, false, sha256,
					     IMA_DT_NONE, d, 32, &h,
					     NULL, 0, 12, 1200, "/f", 2),
			 IMA_SIG_UNKNOWN_KEY);
	ima_listkeys_free(&lk);
}

UNIT_TEST_MAIN(setup, teardown,
	cmocka_unit_test(test_load_ca),
	cmocka_unit_test(test_which_keys),
	cmocka_unit_test(test_verify_and_kexec))
