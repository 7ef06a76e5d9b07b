/* SPDX-License-Identifier: GPL-2.0-only */
/* Certificates and keys made in a unit test (cmocka: a failure stops it). */
#ifndef TESTCERT_H
#define TESTCERT_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* extension nid = value (OpenSSL's config syntax) on c, issued by issuer */
static inline void test_cert_ext(X509 *c, X509 *issuer, int nid,
				 const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *e;

	X509V3_set_ctx(&ctx, issuer, c, NULL, NULL, 0);
	e = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
	assert_non_null(e);
	X509_add_ext(c, e, -1);
	X509_EXTENSION_free(e);
}

/*
 * A certificate of pkey, CN=cn, a random serial, valid for the next hour,
 * with a subject key identifier, basicConstraints bc and keyUsage ku
 * (each left out when NULL), issued and signed (sha256) by issuer and
 * issuer_key, or by itself when issuer is NULL.
 */
static inline X509 *test_cert(EVP_PKEY *pkey, const char *cn, X509 *issuer,
			      EVP_PKEY *issuer_key, const char *bc,
			      const char *ku)
{
	X509 *c = X509_new();
	X509_NAME *name;

	assert_non_null(c);
	X509_set_version(c, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(c), rand());
	X509_gmtime_adj(X509_getm_notBefore(c), 0);
	X509_gmtime_adj(X509_getm_notAfter(c), 3600);
	name = X509_get_subject_name(c);
	X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
				   (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(c, issuer ? X509_get_subject_name(issuer) : name);
	X509_set_pubkey(c, pkey);
	test_cert_ext(c, issuer ? issuer : c, NID_subject_key_identifier,
		      "hash");
	if (bc)
		test_cert_ext(c, issuer ? issuer : c, NID_basic_constraints, bc);
	if (ku)
		test_cert_ext(c, issuer ? issuer : c, NID_key_usage, ku);
	assert_true(X509_sign(c, issuer ? issuer_key : pkey, EVP_sha256()) > 0);
	return c;
}

/* k's public key, PEM, in /tmp/ima-audit-NAME-PID.pem, its path in path */
static inline void test_pubkey_pem(EVP_PKEY *k, const char *name, char *path,
				   size_t size)
{
	FILE *f;

	snprintf(path, size, "/tmp/ima-audit-%s-%d.pem", name, (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(PEM_write_PUBKEY(f, k), 1);
	fclose(f);
}

#endif
