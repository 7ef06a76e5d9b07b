// SPDX-License-Identifier: GPL-2.0-only
/*
 * Signature tests with keys made at test time (never stored).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "ima_log.h"
#include "ima_sig.h"
#include "testcert.h"
#include "unit_main.h"

struct keypair {
	EVP_PKEY *pkey;
	X509 *cert;
	uint32_t skid_tail;
	char pem[64], der[64];
};

static struct keypair rsa, ec, other;

static void make_keypair(struct keypair *k, const char *type)
{
	ASN1_OCTET_STRING *skid;
	const unsigned char *s;
	FILE *f;

	if (!strcmp(type, "RSA"))
		k->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	else
		k->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	assert_non_null(k->pkey);
	k->cert = test_cert(k->pkey, type, NULL, NULL, NULL, NULL);
	skid = X509_get_ext_d2i(k->cert, NID_subject_key_identifier, NULL,
				NULL);
	assert_non_null(skid);
	s = ASN1_STRING_get0_data(skid) + ASN1_STRING_length(skid) - 4;
	k->skid_tail = (uint32_t)s[0] << 24 | (uint32_t)s[1] << 16 |
		       (uint32_t)s[2] << 8 | s[3];
	ASN1_OCTET_STRING_free(skid);

	static int seq;

	seq++;
	snprintf(k->pem, sizeof(k->pem), "/tmp/ima-audit-%d-%d.pem",
		 (int)getpid(), seq);
	snprintf(k->der, sizeof(k->der), "/tmp/ima-audit-%d-%d.der",
		 (int)getpid(), seq);
	f = fopen(k->pem, "w");
	PEM_write_X509(f, k->cert);
	fclose(f);
	f = fopen(k->der, "w");
	i2d_X509_fp(f, k->cert);
	fclose(f);
}

static int setup(void **state)
{
	make_keypair(&rsa, "RSA");
	make_keypair(&ec, "EC");
	make_keypair(&other, "RSA");
	return 0;
}

static int teardown(void **state)
{
	struct keypair *k[] = { &rsa, &ec, &other };
	size_t i;

	for (i = 0; i < 3; i++) {
		remove(k[i]->pem);
		remove(k[i]->der);
		EVP_PKEY_free(k[i]->pkey);
		X509_free(k[i]->cert);
	}
	return 0;
}

/* evmctl v2 signature of digest with key k; returns total length. */
static size_t sign_v2(struct keypair *k, const char *md, int algo_id,
		      const uint8_t *digest, size_t dlen, uint8_t *out)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(k->pkey, NULL);
	size_t siglen = 512;

	assert_true(EVP_PKEY_sign_init(ctx) > 0);
	assert_true(EVP_PKEY_CTX_set_signature_md(ctx,
						  EVP_get_digestbyname(md)) > 0);
	assert_true(EVP_PKEY_sign(ctx, out + 9, &siglen, digest, dlen) > 0);
	EVP_PKEY_CTX_free(ctx);
	out[0] = 3;
	out[1] = 2;
	out[2] = (uint8_t)algo_id;
	out[3] = k->skid_tail >> 24;
	out[4] = k->skid_tail >> 16;
	out[5] = k->skid_tail >> 8;
	out[6] = k->skid_tail;
	out[7] = siglen >> 8;
	out[8] = siglen & 0xff;
	return siglen + 9;
}

static void load(struct ima_keyring *kr, const char *path)
{
	char err[256];

	assert_int_equal(ima_keyring_load(kr, path, err, sizeof(err)), 0);
}

static void test_sig_parse(void **state)
{
	static const uint8_t ok[] = { 3, 2, 4, 1, 2, 3, 4, 0, 2, 0xaa, 0xbb };
	static const uint8_t v1[] = { 1, 1, 0 };
	static const uint8_t shortsig[] = { 3, 2, 4, 1, 2, 3, 4, 0, 3, 0xaa };
	struct ima_sig_hdr h;

	assert_int_equal(ima_sig_parse(ok, sizeof(ok), &h), IMA_SIG_OK);
	assert_int_equal(h.hash_algo, 4);
	assert_int_equal(h.keyid, 0x01020304);
	assert_int_equal(h.sig_size, 2);
	assert_int_equal(ima_sig_parse(v1, sizeof(v1), &h),
			 IMA_SIG_UNSUPPORTED);
	assert_int_equal(ima_sig_parse(shortsig, sizeof(shortsig), &h),
			 IMA_SIG_MALFORMED);
	assert_int_equal(ima_sig_parse(ok, 5, &h), IMA_SIG_MALFORMED);
	assert_int_equal(ima_sig_parse(ok, 1, &h), IMA_SIG_MALFORMED);
}

static void test_keyring_keyid(void **state)
{
	struct ima_keyring kr = { 0 };
	char err[256];

	load(&kr, rsa.pem);
	load(&kr, ec.der);
	assert_int_equal(kr.n, 2);
	assert_int_equal(kr.keys[0].keyid, rsa.skid_tail);
	assert_int_equal(kr.keys[1].keyid, ec.skid_tail);
	assert_int_equal(ima_keyring_load(&kr, "/nonexistent", err,
					  sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent"));
	ima_keyring_free(&kr);
}

static void check_v2(struct keypair *k)
{
	const struct ima_hash_algo *sha256 = ima_hash_by_name("sha256", 6);
	const struct ima_hash_algo *sha1 = ima_hash_by_name("sha1", 4);
	struct ima_keyring kr = { 0 };
	struct ima_verifier *v;
	struct ima_sig_hdr h;
	uint8_t digest[32], sig[600];
	size_t len;
	int i;

	memset(digest, 0x5a, sizeof(digest));
	load(&kr, other.pem);
	load(&kr, k->pem);
	v = ima_verifier_new(&kr);
	len = sign_v2(k, "SHA256", 4, digest, 32, sig);
	assert_int_equal(ima_sig_parse(sig, (uint32_t)len, &h), IMA_SIG_OK);
	for (i = 0; i < 3; i++)	/* contexts are reused */
		assert_int_equal(ima_verify_sig(v, sha256, IMA_DT_NONE, digest, 32, &h),
				 IMA_SIG_OK);
	digest[0] ^= 1;
	assert_int_equal(ima_verify_sig(v, sha256, IMA_DT_NONE, digest, 32, &h),
			 IMA_SIG_BAD);
	digest[0] ^= 1;
	assert_int_equal(ima_verify_sig(v, sha256, IMA_DT_NONE, digest, 32, &h),
			 IMA_SIG_OK);
	assert_int_equal(ima_verify_sig(v, sha1, IMA_DT_NONE, digest, 20, &h),
			 IMA_SIG_ALGO_MISMATCH);
	h.keyid ^= 1;
	assert_int_equal(ima_verify_sig(v, sha256, IMA_DT_NONE, digest, 32, &h),
			 IMA_SIG_UNKNOWN_KEY);
	ima_verifier_free(v);
	ima_keyring_free(&kr);
}

/*
 * A signature's type must be the type of the digest it signs, as the
 * kernel's xattr_verify() has it: a file-hash signature (type 3, v2) over
 * a d-ngv2 "verity:" digest, or an fs-verity one (type 6, v3, over
 * sha256 of {6, algo, digest}) over an "ima:" digest, is refused; a d-ng
 * digest states no type and the signature's own says what was signed.
 * Before, the type was dropped when the digest field was split, type 6
 * was not verified at all, and a type 3 signature over a verity digest
 * verified.
 */
static void test_signature_type(void **state)
{
	const struct ima_hash_algo *sha256 = ima_hash_by_name("sha256", 6);
	struct ima_keyring kr = { 0 };
	struct ima_verifier *v;
	static const struct {
		int dtype;
		bool verity;	/* the type 6 signature, else type 3 */
		int rc;
	} want[] = {
		{ IMA_DT_IMA, false, IMA_SIG_OK },
		{ IMA_DT_NONE, false, IMA_SIG_OK },
		{ IMA_DT_VERITY, false, IMA_SIG_TYPE_MISMATCH },
		{ IMA_DT_VERITY, true, IMA_SIG_OK },
		{ IMA_DT_NONE, true, IMA_SIG_OK },
		{ IMA_DT_IMA, true, IMA_SIG_TYPE_MISMATCH },
	};
	struct ima_sig_hdr h3, h6;
	uint8_t digest[32], id[34], idd[32], sig3[600], sig6[600];
	size_t len3, len6, i;

	memset(digest, 0x6b, sizeof(digest));
	load(&kr, rsa.pem);
	v = ima_verifier_new(&kr);
	len3 = sign_v2(&rsa, "SHA256", 4, digest, 32, sig3);
	/* the verity signature: over sha256 of struct ima_file_id */
	id[0] = 6;
	id[1] = 4;
	memcpy(id + 2, digest, 32);
	assert_int_equal(EVP_Digest(id, sizeof(id), idd, NULL, EVP_sha256(),
				    NULL), 1);
	len6 = sign_v2(&rsa, "SHA256", 4, idd, 32, sig6);
	sig6[0] = 6;
	sig6[1] = 3;
	assert_int_equal(ima_sig_parse(sig3, (uint32_t)len3, &h3), IMA_SIG_OK);
	assert_int_equal(ima_sig_parse(sig6, (uint32_t)len6, &h6), IMA_SIG_OK);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (ima_verify_sig(v, sha256, want[i].dtype, digest, 32,
				   want[i].verity ? &h6 : &h3) != want[i].rc)
			fail_msg("type %d signature over digest type %d: not %d",
				 want[i].verity ? 6 : 3, want[i].dtype, want[i].rc);
	/* a type 6 signature is not one over the digest itself */
	memcpy(sig3, sig6, len6);
	sig3[0] = 3;
	sig3[1] = 2;
	assert_int_equal(ima_sig_parse(sig3, (uint32_t)len6, &h3), IMA_SIG_OK);
	assert_int_equal(ima_verify_sig(v, sha256, IMA_DT_IMA, digest, 32, &h3),
			 IMA_SIG_BAD);
	/* type 6 is version 3, type 3 version 2 */
	sig6[1] = 2;
	assert_int_equal(ima_sig_parse(sig6, (uint32_t)len6, &h6),
			 IMA_SIG_UNSUPPORTED);
	ima_verifier_free(v);
	ima_keyring_free(&kr);
}

/*
 * A signature over an md5 (or md4) digest, valid, attests nothing: the
 * one rule (ima_hash_collision_prone) in the verification itself, so that
 * every tool over the library refuses it. Before, ima-audit refused it
 * before verifying and ima-attest poll accepted it.
 */
static void test_weak_digest(void **state)
{
	const struct ima_hash_algo *md5 = ima_hash_by_name("md5", 3);
	struct ima_keyring kr = { 0 };
	struct ima_verifier *v;
	struct ima_sig_hdr h;
	uint8_t digest[16], sig[600];
	size_t len;

	memset(digest, 0x35, sizeof(digest));
	load(&kr, rsa.pem);
	v = ima_verifier_new(&kr);
	len = sign_v2(&rsa, "MD5", 1, digest, 16, sig);
	assert_int_equal(ima_sig_parse(sig, (uint32_t)len, &h), IMA_SIG_OK);
	assert_int_equal(ima_verify_sig(v, md5, IMA_DT_NONE, digest, 16, &h),
			 IMA_SIG_WEAK_DIGEST);
	assert_int_equal(ima_verify_modsig(v, md5, digest, 16, sig, len),
			 IMA_SIG_WEAK_DIGEST);
	ima_verifier_free(v);
	ima_keyring_free(&kr);
}

static void test_verify_v2_rsa(void **state)
{
	check_v2(&rsa);
}

static void test_verify_v2_ecdsa(void **state)
{
	check_v2(&ec);
}

static size_t make_modsig(struct keypair *k, const char *content,
			  unsigned int flags, uint8_t **out)
{
	BIO *in = BIO_new_mem_buf(content, (int)strlen(content));
	CMS_ContentInfo *cms;
	int len;

	cms = CMS_sign(k->cert, k->pkey, NULL, in,
		       CMS_DETACHED | CMS_BINARY | CMS_NOCERTS | flags);
	assert_non_null(cms);
	*out = NULL;
	len = i2d_CMS_ContentInfo(cms, out);
	assert_true(len > 0);
	CMS_ContentInfo_free(cms);
	BIO_free(in);
	return (size_t)len;
}

static void test_modsig(void **state)
{
	const struct ima_hash_algo *sha256 = ima_hash_by_name("sha256", 6);
	const struct ima_hash_algo *sha1 = ima_hash_by_name("sha1", 4);
	static const char content[] = "kernel module bytes";
	struct ima_keyring kr = { 0 };
	struct ima_verifier *v;
	uint8_t digest[32], *p7, *p7attr;
	size_t len, alen;

	ima_digest(sha256, content, strlen(content), digest);
	load(&kr, rsa.der);
	load(&kr, ec.pem);
	v = ima_verifier_new(&kr);

	len = make_modsig(&rsa, content, CMS_NOATTR, &p7);
	assert_int_equal(ima_verify_modsig(v, sha256, digest, 32, p7, len),
			 IMA_SIG_OK);
	assert_int_equal(ima_verify_modsig(v, sha1, digest, 20, p7, len),
			 IMA_SIG_ALGO_MISMATCH);
	digest[3] ^= 1;
	assert_int_equal(ima_verify_modsig(v, sha256, digest, 32, p7, len),
			 IMA_SIG_BAD);
	digest[3] ^= 1;
	assert_int_equal(ima_verify_modsig(v, sha256, digest, 32, p7,
					   len - 1), IMA_SIG_MALFORMED);
	free(p7);

	len = make_modsig(&ec, content, CMS_NOATTR, &p7);
	assert_int_equal(ima_verify_modsig(v, sha256, digest, 32, p7, len),
			 IMA_SIG_OK);
	free(p7);

	/* with attributes the kernel logs their digest, not the content's */
	alen = make_modsig(&rsa, content, 0, &p7attr);
	assert_int_equal(ima_verify_modsig(v, sha256, digest, 32, p7attr,
					   alen), IMA_SIG_BAD);
	free(p7attr);

	len = make_modsig(&other, content, CMS_NOATTR, &p7);
	assert_int_equal(ima_verify_modsig(v, sha256, digest, 32, p7, len),
			 IMA_SIG_UNKNOWN_KEY);
	free(p7);
	assert_int_equal(ima_verify_modsig(v, sha256, digest, 32,
					   (const uint8_t *)"junk", 4),
			 IMA_SIG_MALFORMED);
	ima_verifier_free(v);
	ima_keyring_free(&kr);
}

static int counter;
static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;

static void count_job(void *job, void *state)
{
	pthread_mutex_lock(&counter_lock);
	counter += *(int *)job;
	pthread_mutex_unlock(&counter_lock);
	free(job);
}

static void test_pool(void **state)
{
	int threads[] = { 0, 2 }, t, i;

	for (t = 0; t < 2; t++) {
		struct ima_pool *p = ima_pool_new(threads[t], 8, count_job,
						  NULL, NULL, NULL);

		counter = 0;
		for (i = 0; i < 1000; i++) {
			int *j = malloc(sizeof(*j));

			*j = 1;
			ima_pool_submit(p, j);
		}
		ima_pool_finish(p);
		assert_int_equal(counter, 1000);
	}
}

UNIT_TEST_MAIN(setup, teardown,
	cmocka_unit_test(test_sig_parse),
	cmocka_unit_test(test_keyring_keyid),
	cmocka_unit_test(test_verify_v2_rsa),
	cmocka_unit_test(test_signature_type),
	cmocka_unit_test(test_weak_digest),
	cmocka_unit_test(test_verify_v2_ecdsa),
	cmocka_unit_test(test_modsig),
	cmocka_unit_test(test_pool))
