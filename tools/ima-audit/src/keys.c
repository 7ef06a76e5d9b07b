// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verification keys: X.509 certificates (PEM or DER) or public keys.
 * Key id: last 4 bytes of the subject key identifier, as the kernel's
 * asymmetric key lookup ("id:xxxxxxxx") matches it; without an SKID,
 * sha1 of the subjectPublicKey bits like evmctl's calc_keyid_v2().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "ima_sig.h"
#include "ima_text.h"

static uint32_t tail32(const uint8_t *p, size_t len)
{
	p += len - 4;
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint32_t pubkey_keyid(X509_PUBKEY *xpk)
{
	const unsigned char *bits;
	uint8_t sha1[20];
	int len;

	if (!X509_PUBKEY_get0_param(NULL, &bits, &len, NULL, xpk))
		return 0;
	ima_digest(ima_hash_by_name("sha1", (size_t)-1), bits, (size_t)len,
		   sha1);
	return tail32(sha1, sizeof(sha1));
}

static int add_key(struct ima_keyring *kr, EVP_PKEY *pkey, X509 *cert,
		   const char *path)
{
	struct ima_key *nk, *k;
	ASN1_OCTET_STRING *skid = NULL;
	int kt = pkey ? EVP_PKEY_base_id(pkey) : EVP_PKEY_NONE;

	/* a key that cannot verify anything is refused, never skipped */
	if (kt != EVP_PKEY_RSA && kt != EVP_PKEY_EC) {
		EVP_PKEY_free(pkey);
		return pkey ? -2 : -3;
	}
	nk = realloc(kr->keys, (kr->n + 1) * sizeof(*nk));
	if (!nk) {
		EVP_PKEY_free(pkey);
		return -1;
	}
	kr->keys = nk;
	k = &kr->keys[kr->n];
	memset(k, 0, sizeof(*k));
	k->pkey = pkey;
	k->cert = cert;
	k->file = strdup(path);
	if (cert)
		skid = X509_get_ext_d2i(cert, NID_subject_key_identifier,
					NULL, NULL);
	if (skid && ASN1_STRING_length(skid) >= 4) {
		k->keyid = tail32(ASN1_STRING_get0_data(skid),
				  (size_t)ASN1_STRING_length(skid));
	} else if (cert) {
		k->keyid = pubkey_keyid(X509_get_X509_PUBKEY(cert));
	} else {
		X509_PUBKEY *xpk = NULL;

		if (X509_PUBKEY_set(&xpk, pkey))
			k->keyid = pubkey_keyid(xpk);
		X509_PUBKEY_free(xpk);
	}
	ASN1_OCTET_STRING_free(skid);
	kr->n++;
	return 0;
}

int ima_keyring_add_cert(struct ima_keyring *kr, void *cert, const char *what)
{
	int rc = add_key(kr, X509_get_pubkey(cert), cert, what);

	return rc == -3 ? -2 : rc;
}

int ima_keyring_add_der_pubkey(struct ima_keyring *kr, const uint8_t *der,
			       size_t len, uint32_t keyid, const char *what,
			       char *err, size_t errlen)
{
	const unsigned char *p = der;
	EVP_PKEY *pkey = d2i_PUBKEY(NULL, &p, (long)len);
	int rc;

	if (!pkey || p != der + len) {
		EVP_PKEY_free(pkey);
		ERR_clear_error();
		snprintf(err, errlen, "not one DER SubjectPublicKeyInfo");
		return -1;
	}
	rc = add_key(kr, pkey, NULL, what);
	if (rc) {
		snprintf(err, errlen, "%s", rc == -2 ?
			 "public key is neither RSA nor EC: no IMA signature can be verified with it" :
			 rc == -3 ? "public key cannot be decoded" :
			 "out of memory");
		return -1;
	}
	if (keyid)
		kr->keys[kr->n - 1].keyid = keyid;
	return 0;
}

int ima_keyring_load(struct ima_keyring *kr, const char *path, char *err,
		     size_t errlen)
{
	const unsigned char *p;
	size_t len, before = kr->n;
	/* a key or a few certificates: less than 64 KiB */
	unsigned char *buf = (unsigned char *)ima_read_file(path, (64 << 10) - 1,
							    &len, err, errlen);
	BIO *bio = NULL;
	int rc = -1, krc = 0;

	if (!buf)
		return -1;
	bio = BIO_new_mem_buf(buf, (int)len);
	if (!bio)
		goto out;
	for (;;) {
		X509 *cert = PEM_read_bio_X509(bio, NULL, NULL, NULL);

		if (!cert)
			break;
		krc = add_key(kr, X509_get_pubkey(cert), cert, path);
		if (krc) {
			X509_free(cert);
			goto bad;
		}
	}
	if (kr->n == before) {
		X509 *cert;
		EVP_PKEY *pkey;

		p = buf;
		cert = d2i_X509(NULL, &p, (long)len);
		if (cert) {
			krc = add_key(kr, X509_get_pubkey(cert), cert, path);
			if (krc) {
				X509_free(cert);
				goto bad;
			}
		} else {
			BIO_reset(bio);
			pkey = PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
			if (!pkey) {
				p = buf;
				pkey = d2i_PUBKEY(NULL, &p, (long)len);
			}
			if (pkey) {
				krc = add_key(kr, pkey, NULL, path);
				if (krc)
					goto bad;
			}
		}
	}
	ERR_clear_error();
	if (kr->n == before) {
		snprintf(err, errlen,
			 "%s: no certificate or public key found (PEM or DER)",
			 path);
		goto out;
	}
	rc = 0;
	goto out;
bad:
	ERR_clear_error();
	snprintf(err, errlen, "%s: %s", path,
		 krc == -2 ? "public key is neither RSA nor EC: no IMA signature or quote can be verified with it" :
		 krc == -3 ? "public key cannot be decoded (unknown algorithm or malformed SubjectPublicKeyInfo)" :
		 "out of memory");
out:
	BIO_free(bio);
	free(buf);
	return rc;
}

void ima_keyring_free(struct ima_keyring *kr)
{
	size_t i;

	for (i = 0; i < kr->n; i++) {
		EVP_PKEY_free(kr->keys[i].pkey);
		X509_free(kr->keys[i].cert);
		free(kr->keys[i].file);
	}
	free(kr->keys);
	kr->keys = NULL;
	kr->n = 0;
}
