// SPDX-License-Identifier: GPL-2.0-only
/*
 * Signature checks: evmctl v2 ("sig" field, kernel asymmetric_verify())
 * and appended PKCS#7 ("modsig" field, kernel pkcs7_get_digest()).
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "ima_log.h"
#include "ima_sig.h"

#define NR_ALGOS 20	/* kernel HASH_ALGO__LAST */

struct ima_verifier {
	const struct ima_keyring *kr;
	EVP_PKEY_CTX **ctx;	/* [key * NR_ALGOS + algo] */
};

int ima_sig_parse(const uint8_t *data, uint32_t len, struct ima_sig_hdr *h)
{
	if (len < 2)
		return IMA_SIG_MALFORMED;
	h->type = data[0];
	h->version = data[1];
	if (!(h->type == IMA_XATTR_DIGSIG && h->version == 2) &&
	    !(h->type == IMA_VERITY_DIGSIG && h->version == 3))
		return IMA_SIG_UNSUPPORTED;
	if (len < IMA_SIG_HDR_LEN)
		return IMA_SIG_MALFORMED;
	h->hash_algo = data[2];
	h->keyid = (uint32_t)data[3] << 24 | (uint32_t)data[4] << 16 |
		   (uint32_t)data[5] << 8 | data[6];
	h->sig_size = (uint16_t)(data[7] << 8 | data[8]);
	h->sig = data + IMA_SIG_HDR_LEN;
	/* the kernel requires the exact size (asymmetric_verify) */
	if (!h->sig_size || h->sig_size != len - IMA_SIG_HDR_LEN)
		return IMA_SIG_MALFORMED;
	return IMA_SIG_OK;
}

struct ima_verifier *ima_verifier_new(const struct ima_keyring *kr)
{
	struct ima_verifier *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	v->kr = kr;
	v->ctx = calloc(kr->n ? kr->n * NR_ALGOS : 1, sizeof(*v->ctx));
	if (!v->ctx) {
		free(v);
		return NULL;
	}
	return v;
}

void ima_verifier_free(struct ima_verifier *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->kr->n * NR_ALGOS; i++)
		EVP_PKEY_CTX_free(v->ctx[i]);
	free(v->ctx);
	free(v);
}

/* A verify context per (key, hash) is set up once and reused. */
static EVP_PKEY_CTX *get_ctx(struct ima_verifier *v, size_t key,
			     const struct ima_hash_algo *alg)
{
	EVP_PKEY_CTX **slot = &v->ctx[key * NR_ALGOS + (size_t)alg->id];
	EVP_PKEY *pkey = v->kr->keys[key].pkey;
	const EVP_MD *md;

	if (*slot)
		return *slot;
	md = EVP_get_digestbyname(alg->evp);
	*slot = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
	if (!md || !*slot || EVP_PKEY_verify_init(*slot) <= 0 ||
	    (EVP_PKEY_is_a(pkey, "RSA") &&
	     EVP_PKEY_CTX_set_rsa_padding(*slot, RSA_PKCS1_PADDING) <= 0) ||
	    EVP_PKEY_CTX_set_signature_md(*slot, md) <= 0) {
		EVP_PKEY_CTX_free(*slot);
		*slot = NULL;
		ERR_clear_error();
	}
	return *slot;
}

static int verify_raw(struct ima_verifier *v, size_t key,
		      const struct ima_hash_algo *alg, const uint8_t *digest,
		      size_t dlen, const uint8_t *sig, size_t siglen)
{
	EVP_PKEY_CTX *ctx = get_ctx(v, key, alg);
	int rc;

	if (!ctx)
		return IMA_SIG_UNSUPPORTED;
	rc = EVP_PKEY_verify(ctx, sig, siglen, digest, dlen);
	if (rc == 1)
		return IMA_SIG_OK;
	ERR_clear_error();
	if (rc < 0) {
		/* an error may leave the context unusable: start afresh */
		EVP_PKEY_CTX_free(ctx);
		v->ctx[key * NR_ALGOS + (size_t)alg->id] = NULL;
	}
	return IMA_SIG_BAD;
}

int ima_verify_sig(struct ima_verifier *v, const struct ima_hash_algo *alg,
		   int dtype, const uint8_t *digest, size_t dlen,
		   const struct ima_sig_hdr *h)
{
	uint8_t id[2 + IMA_MAX_DIGEST], idd[IMA_MAX_DIGEST];
	int rc = IMA_SIG_UNKNOWN_KEY;
	size_t i;

	if ((h->type == IMA_XATTR_DIGSIG && dtype == IMA_DT_VERITY) ||
	    (h->type == IMA_VERITY_DIGSIG && dtype == IMA_DT_IMA))
		return IMA_SIG_TYPE_MISMATCH;
	if (ima_hash_collision_prone(alg))
		return IMA_SIG_WEAK_DIGEST;
	if (h->hash_algo != alg->id)
		return IMA_SIG_ALGO_MISMATCH;
	if (!alg->evp || dlen != alg->size)
		return IMA_SIG_UNSUPPORTED;
	if (h->type == IMA_VERITY_DIGSIG) {
		/* struct ima_file_id, packed, only the digest's bytes */
		id[0] = IMA_VERITY_DIGSIG;
		id[1] = (uint8_t)alg->id;
		memcpy(id + 2, digest, dlen);
		if (ima_digest(alg, id, 2 + dlen, idd))
			return IMA_SIG_UNSUPPORTED;
		digest = idd;
	}
	for (i = 0; i < v->kr->n; i++) {
		if (v->kr->keys[i].keyid != h->keyid)
			continue;
		rc = verify_raw(v, i, alg, digest, dlen, h->sig, h->sig_size);
		if (rc == IMA_SIG_OK)
			break;
	}
	return rc;
}

int ima_verify_modsig(struct ima_verifier *v, const struct ima_hash_algo *alg,
		      const uint8_t *digest, size_t dlen, const uint8_t *p7,
		      size_t p7len)
{
	const unsigned char *p = p7;
	CMS_ContentInfo *cms;
	STACK_OF(CMS_SignerInfo) *sis;
	CMS_SignerInfo *si;
	X509_ALGOR *dig = NULL, *sigalg = NULL;
	ASN1_OCTET_STRING *sig;
	const struct ima_hash_algo *salg;
	int rc = IMA_SIG_MALFORMED;
	size_t i;

	if (ima_hash_collision_prone(alg))
		return IMA_SIG_WEAK_DIGEST;
	if (p7len > 1 << 20)
		return IMA_SIG_MALFORMED;
	cms = d2i_CMS_ContentInfo(NULL, &p, (long)p7len);
	if (!cms || p != p7 + p7len)
		goto out;
	if (OBJ_obj2nid(CMS_get0_type(cms)) != NID_pkcs7_signed)
		goto out;
	sis = CMS_get0_SignerInfos(cms);
	/* pkcs7_get_digest() accepts exactly one signer */
	if (!sis || sk_CMS_SignerInfo_num(sis) != 1)
		goto out;
	si = sk_CMS_SignerInfo_value(sis, 0);
	CMS_SignerInfo_get0_algs(si, NULL, NULL, &dig, &sigalg);
	if (!dig)
		goto out;
	salg = ima_hash_by_name(OBJ_nid2sn(OBJ_obj2nid(dig->algorithm)),
				(size_t)-1);
	if (salg != alg) {
		rc = IMA_SIG_ALGO_MISMATCH;
		goto out;
	}
	if (sigalg && OBJ_obj2nid(sigalg->algorithm) == NID_rsassaPss) {
		rc = IMA_SIG_UNSUPPORTED;
		goto out;
	}
	sig = CMS_SignerInfo_get0_signature(si);
	rc = IMA_SIG_UNKNOWN_KEY;
	for (i = 0; i < v->kr->n; i++) {
		X509 *cert = v->kr->keys[i].cert;

		if (!cert || CMS_SignerInfo_cert_cmp(si, cert))
			continue;
		/* the signature covers exactly the d-modsig digest ... */
		rc = verify_raw(v, i, alg, digest, dlen,
				ASN1_STRING_get0_data(sig),
				(size_t)ASN1_STRING_length(sig));
		if (rc != IMA_SIG_OK)
			continue;
		/*
		 * ... which, with authenticated attributes, must be their
		 * digest; CMS_SignerInfo_verify() checks the signature over
		 * them, so both hold only if d-modsig is that digest.
		 */
		if (CMS_signed_get_attr_count(si) > 0) {
			CMS_SignerInfo_set1_signer_cert(si, cert);
			if (CMS_SignerInfo_verify(si) != 1)
				rc = IMA_SIG_BAD;
		}
		if (rc == IMA_SIG_OK)
			break;
	}
out:
	ERR_clear_error();
	CMS_ContentInfo_free(cms);
	return rc;
}
