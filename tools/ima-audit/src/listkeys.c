// SPDX-License-Identifier: GPL-2.0-only
/*
 * Keys from the list, chained to a CA (ima_listkeys.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "ima_audit.h"
#include "ima_listkeys.h"
#include "ima_text.h"

#define MAX_CA_FILE	(1u << 20)

int ima_listkeys_load_ca(struct ima_listkeys *lk, const char *path,
			 char *err, size_t errlen)
{
	X509_STORE *store = lk->store;
	const unsigned char *p;
	BIO *bio = NULL;
	X509 *cert;
	size_t len;
	unsigned char *buf = (unsigned char *)ima_read_file(path, MAX_CA_FILE,
							    &len, err, errlen);
	int n = 0, rc = -1;

	if (!buf)
		return -1;
	if (!store) {
		store = X509_STORE_new();
		if (!store) {
			snprintf(err, errlen, "%s: out of memory", path);
			goto out;
		}
		lk->store = store;
	}
	bio = BIO_new_mem_buf(buf, (int)len);
	while (bio && (cert = PEM_read_bio_X509(bio, NULL, NULL, NULL))) {
		n += X509_STORE_add_cert(store, cert) == 1;
		X509_free(cert);
	}
	if (!n) {
		p = buf;
		cert = d2i_X509(NULL, &p, (long)len);
		if (cert && p == buf + len)
			n += X509_STORE_add_cert(store, cert) == 1;
		X509_free(cert);
	}
	ERR_clear_error();
	if (!n) {
		snprintf(err, errlen,
			 "%s: no CA certificate found (PEM, or one DER certificate)",
			 path);
		goto out;
	}
	free(lk->ca_file);
	lk->ca_file = strdup(path);
	rc = lk->ca_file ? 0 : -1;
	if (rc)
		snprintf(err, errlen, "%s: out of memory", path);
out:
	BIO_free(bio);
	free(buf);
	return rc;
}

void ima_listkeys_free(struct ima_listkeys *lk)
{
	size_t i;

	for (i = 0; i < lk->n; i++) {
		ima_verifier_free(lk->keys[i].v);
		ima_keyring_free(lk->keys[i].kr);
		free(lk->keys[i].kr);
	}
	for (i = 0; i < lk->nuses; i++)
		free(lk->uses[i].path);
	free(lk->uses);
	free(lk->keys);
	free(lk->ca_file);
	X509_STORE_free(lk->store);
	memset(lk, 0, sizeof(*lk));
}

/*
 * The subject, printable ASCII only (it comes from the list): OpenSSL
 * writes control bytes as \xNN already; any other byte out of range is
 * written so here.
 */
static void subject(X509 *cert, char *out, size_t len)
{
	char raw[256];
	size_t i, o = 0;

	X509_NAME_oneline(X509_get_subject_name(cert), raw, sizeof(raw));
	for (i = 0; raw[i] && o + 5 < len; i++) {
		unsigned char c = (unsigned char)raw[i];

		if (c < 0x20 || c >= 0x7f)
			o += (size_t)snprintf(out + o, len - o, "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
}

bool ima_listkeys_is_cert(const uint8_t *der, size_t len)
{
	const unsigned char *p = der;
	X509 *cert = len <= LONG_MAX ? d2i_X509(NULL, &p, (long)len) : NULL;
	bool one = cert && p == der + len;

	X509_free(cert);
	ERR_clear_error();
	return one;
}

int ima_listkeys_add(struct ima_listkeys *lk, const uint8_t *der, size_t len,
		     uint64_t index, uint64_t offset, uint32_t pcr,
		     char *why, size_t whylen)
{
	const unsigned char *p = der;
	X509_STORE_CTX *ctx = NULL;
	BASIC_CONSTRAINTS *bc = NULL;
	struct ima_listkey *nk, *k;
	char name[128] = "";
	X509 *cert;
	int rc = -1, krc;

	cert = d2i_X509(NULL, &p, (long)len);
	if (!cert || p != der + len) {
		snprintf(why, whylen,
			 "the buffer is not one DER X.509 certificate");
		goto out;
	}
	subject(cert, name, sizeof(name));
	bc = X509_get_ext_d2i(cert, NID_basic_constraints, NULL, NULL);
	if (bc && bc->ca) {
		snprintf(why, whylen,
			 "'%s' is a CA certificate, not an IMA signing key",
			 name);
		goto out;
	}
	if ((X509_get_extension_flags(cert) & EXFLAG_KUSAGE) &&
	    !(X509_get_key_usage(cert) & KU_DIGITAL_SIGNATURE)) {
		snprintf(why, whylen,
			 "'%s' has a key usage without digitalSignature",
			 name);
		goto out;
	}
	ctx = X509_STORE_CTX_new();
	if (!ctx || !X509_STORE_CTX_init(ctx, lk->store, cert, NULL)) {
		rc = -2;
		goto out;
	}
	/*
	 * every --ca certificate is a trust anchor, as each key on the
	 * kernel's builtin or secondary keyring is; dates are not checked,
	 * as the kernel's keyring restriction does not check them
	 */
	X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(ctx),
				    X509_V_FLAG_PARTIAL_CHAIN |
				    X509_V_FLAG_NO_CHECK_TIME);
	if (X509_verify_cert(ctx) != 1) {
		snprintf(why, whylen, "'%s' does not chain to %s: %s", name,
			 lk->ca_file,
			 X509_verify_cert_error_string(
				 X509_STORE_CTX_get_error(ctx)));
		goto out;
	}
	nk = realloc(lk->keys, (lk->n + 1) * sizeof(*nk));
	if (!nk) {
		rc = -2;
		goto out;
	}
	lk->keys = nk;
	k = &nk[lk->n];
	memset(k, 0, sizeof(*k));
	k->kr = calloc(1, sizeof(*k->kr));
	krc = k->kr ? ima_keyring_add_cert(k->kr, cert, ".ima key in the list") :
		      -1;
	if (krc) {
		free(k->kr);
		if (krc == -1)
			rc = -2;
		else
			snprintf(why, whylen,
				 "'%s' has a key neither RSA nor EC", name);
		goto out;
	}
	cert = NULL;	/* the key ring holds it */
	k->v = ima_verifier_new(k->kr);
	if (!k->v) {
		ima_keyring_free(k->kr);
		free(k->kr);
		rc = -2;
		goto out;
	}
	k->index = index;
	k->offset = offset;
	k->pcr = pcr;
	k->keyid = k->kr->keys[0].keyid;
	memcpy(k->subject, name, sizeof(k->subject));
	lk->n++;
	rc = 0;
out:
	if (rc == -1)
		lk->refused++;
	if (rc == -2) {
		lk->oom = true;
		snprintf(why, whylen, "out of memory");
	}
	BASIC_CONSTRAINTS_free(bc);
	X509_STORE_CTX_free(ctx);
	X509_free(cert);
	ERR_clear_error();
	return rc;
}

void ima_listkeys_new_kernel(struct ima_listkeys *lk)
{
	size_t i;

	for (i = 0; i < lk->n; i++)
		lk->keys[i].retired = true;
}

static void remember(struct ima_listkeys *lk, size_t key, uint64_t index,
		     uint64_t offset, const char *path, size_t plen)
{
	struct ima_listkey_use *u;

	lk->keys[key].verified++;
	u = ima_reserve(lk->uses, &lk->cap_uses, lk->nuses, sizeof(*u));
	if (!u) {
		lk->oom = true;
		return;
	}
	lk->uses = u;
	u = &lk->uses[lk->nuses];
	u->index = index;
	u->offset = offset;
	u->key = key;
	/* the path is only shown: cut as a kept failure's is */
	u->path = path ? strndup(path, plen < IMA_PATH_KEEP ? plen :
				 IMA_PATH_KEEP) : NULL;
	if (path && !u->path) {
		lk->oom = true;
		return;
	}
	lk->nuses++;
}

int ima_listkeys_verify(struct ima_listkeys *lk, bool modsig,
			const struct ima_hash_algo *alg, int dtype,
			const uint8_t *digest,
			size_t dlen, const struct ima_sig_hdr *h,
			const uint8_t *p7, size_t p7len, uint64_t index,
			uint64_t offset, const char *path, size_t plen)
{
	int best = IMA_SIG_UNKNOWN_KEY, rc;
	size_t i;

	for (i = 0; i < lk->n; i++) {
		if (lk->keys[i].retired ||
		    (!modsig && lk->keys[i].keyid != h->keyid))
			continue;
		rc = modsig ? ima_verify_modsig(lk->keys[i].v, alg, digest,
						dlen, p7, p7len) :
			      ima_verify_sig(lk->keys[i].v, alg, dtype, digest,
					     dlen, h);
		if (rc == IMA_SIG_OK) {
			remember(lk, i, index, offset, path, plen);
			return rc;
		}
		if (rc != IMA_SIG_UNKNOWN_KEY)
			best = rc;
	}
	return best;
}
