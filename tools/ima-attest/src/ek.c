// SPDX-License-Identifier: GPL-2.0-only
/*
 * The EK certificate: its chain to the manufacturer's CA (OpenSSL's
 * X509_verify_cert), that it certifies an EK (the TCG EK credential
 * profile's purpose and usage), and its key against the EK public area
 * the TPM gave.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include "ima_attest.h"

/*
 * The manufacturer's CA certificates (PEM) as a store, and the
 * intermediates between it and the EK certificate: each file must hold
 * at least one certificate. The one loader for the check and for the
 * check of the inputs a command makes before it waits for a guest.
 */
static X509_STORE *load_ca(const char *path, const char **why)
{
	X509_STORE *store = X509_STORE_new();

	if (!store || X509_STORE_load_file(store, path) != 1) {
		*why = "no PEM certificate can be read from the manufacturer CA file";
		X509_STORE_free(store);
		return NULL;
	}
	return store;
}

static STACK_OF(X509) *load_chain(const char *path, const char **why)
{
	STACK_OF(X509) *sk = sk_X509_new_null();
	X509 *x;
	FILE *f;

	if (!sk)
		return NULL;
	f = fopen(path, "r");
	if (!f) {
		*why = "cannot open the CA chain file";
		sk_X509_free(sk);
		return NULL;
	}
	while ((x = PEM_read_X509(f, NULL, NULL, NULL)))
		if (!sk_X509_push(sk, x)) {
			X509_free(x);
			break;
		}
	ERR_clear_error();
	fclose(f);
	if (!sk_X509_num(sk)) {
		*why = "no PEM certificate in the CA chain file";
		sk_X509_free(sk);
		return NULL;
	}
	return sk;
}

int att_ca_check(const char *ca_file, const char *chain_file, char *err,
		 size_t errlen)
{
	const char *files[2] = { ca_file, chain_file };
	STACK_OF(X509) *chain = NULL;
	X509_STORE *store = NULL;
	const char *why = "out of memory";
	FILE *f;
	int i;

	for (i = 0; i < 2 && files[i]; i++) {
		f = fopen(files[i], "r");
		if (!f) {
			snprintf(err, errlen, "%s: %s", files[i], strerror(errno));
			return -1;
		}
		fclose(f);
	}
	store = load_ca(ca_file, &why);
	if (!store) {
		snprintf(err, errlen, "%s: %s", ca_file, why);
		goto out;
	}
	why = "out of memory";
	if (chain_file && !(chain = load_chain(chain_file, &why))) {
		snprintf(err, errlen, "%s: %s", chain_file, why);
		goto out;
	}
	why = NULL;
out:
	ERR_clear_error();
	X509_STORE_free(store);
	sk_X509_pop_free(chain, X509_free);
	return why ? -1 : 0;
}

/*
 * The TCG EK Credential Profile's ECC EK templates accepted, the ones
 * TPMs ship certified. The certificate binds only the key; an ECC EK area
 * must also be its curve's template field for field, as the certified EK
 * is: a restricted decryption key of the endorsement hierarchy, whose
 * nameAlg and symmetric are the ones MakeCredential uses. Low range L-2
 * (certificate at NV 0x01c0000a): NIST P-256, sha256, PolicyA, AES-128;
 * high range H-3 (0x01c00016, what swtpm certifies): NIST P-384, sha384,
 * PolicyB, AES-256, userWithAuth. Both: scheme and KDF NULL, CFB.
 */
struct ecc_template {
	uint16_t curve, name_alg, sym_bits;
	uint32_t attrs;
	const char *what;
	uint8_t policy_len;
	uint8_t policy[48];
};

static const struct ecc_template ecc_templates[] = {
	{ ATT_ECC_NIST_P256, ATT_ALG_SHA256, 128, 0x000300b2,
	  "NIST P-256 (TCG default EK template, low range)", 32,
	  { 0x83, 0x71, 0x97, 0x67, 0x44, 0x84, 0xb3, 0xf8, 0x1a, 0x90, 0xcc,
	    0x8d, 0x46, 0xa5, 0xd7, 0x24, 0xfd, 0x52, 0xd7, 0x6e, 0x06, 0x52,
	    0x0b, 0x64, 0xf2, 0xa1, 0xda, 0x1b, 0x33, 0x14, 0x69, 0xaa } },
	{ ATT_ECC_NIST_P384, ATT_ALG_SHA384, 256, 0x000300f2,
	  "NIST P-384 (TCG EK template H-3, high range)", 48,
	  { 0xb2, 0x6e, 0x7d, 0x28, 0xd1, 0x1a, 0x50, 0xbc, 0x53, 0xd8, 0x82,
	    0xbc, 0xf5, 0xfd, 0x3a, 0x1a, 0x07, 0x41, 0x48, 0xbb, 0x35, 0xd3,
	    0xb4, 0xe4, 0xcb, 0x1c, 0x0a, 0xd9, 0xbd, 0xe4, 0x19, 0xca, 0xcb,
	    0x47, 0xba, 0x09, 0x69, 0x96, 0x46, 0x15, 0x0f, 0x9f, 0xc0, 0x00,
	    0xf3, 0xf8, 0x0e, 0x12 } },
};

/* Each field of an ECC EK's area against its curve's template: a reason each */
static void ek_template_ecc(const struct att_public *ek, struct att_reasons *rs)
{
	const struct ecc_template *t = NULL;
	size_t i, fb;

	for (i = 0; i < sizeof(ecc_templates) / sizeof(ecc_templates[0]); i++)
		if (ecc_templates[i].curve == ek->curve)
			t = &ecc_templates[i];
	if (!t) {
		att_reason(rs, ATT_FC_EK_PUBLIC, "EK curve 0x%04x: no TCG EK template supported for it (NIST P-256 low range, NIST P-384 high range)",
			   ek->curve);
		return;
	}
	if (ek->attrs != t->attrs)
		att_reason(rs, ATT_FC_EK_PUBLIC, "EK objectAttributes 0x%08x, not the template's 0x%08x (%s)",
			   ek->attrs, t->attrs, t->what);
	if (ek->name_alg != t->name_alg)
		att_reason(rs, ATT_FC_EK_PUBLIC, "EK nameAlg 0x%04x, not the template's 0x%04x (%s)",
			   ek->name_alg, t->name_alg, t->what);
	if (ek->policy_len != t->policy_len ||
	    memcmp(ek->policy, t->policy, t->policy_len))
		att_reason(rs, ATT_FC_EK_PUBLIC, "EK authPolicy (%u bytes) is not the template's (%s)",
			   ek->policy_len, t->what);
	if (ek->sym_alg != ATT_ALG_AES || ek->sym_bits != t->sym_bits ||
	    ek->sym_mode != ATT_ALG_CFB)
		att_reason(rs, ATT_FC_EK_PUBLIC, "EK symmetric 0x%04x/%u/0x%04x, not the template's AES-%u-CFB (%s)",
			   ek->sym_alg, ek->sym_bits, ek->sym_mode,
			   t->sym_bits, t->what);
	if (ek->scheme != ATT_ALG_NULL)
		att_reason(rs, ATT_FC_EK_PUBLIC, "EK scheme 0x%04x, not the template's NULL (%s)",
			   ek->scheme, t->what);
	if (ek->kdf != ATT_ALG_NULL)
		att_reason(rs, ATT_FC_EK_PUBLIC, "EK kdf 0x%04x, not the template's NULL (%s)",
			   ek->kdf, t->what);
	att_curve(ek->curve, &fb);
	if (ek->x_len != fb || ek->y_len != fb)
		att_reason(rs, ATT_FC_EK_PUBLIC, "EK point of %u and %u bytes, not the curve's %zu",
			   ek->x_len, ek->y_len, fb);
}

static void ek_template(const struct att_public *ek, struct att_reasons *rs)
{
	uint32_t need = ATT_RESTRICTED | ATT_DECRYPT | ATT_FIXED_TPM |
			ATT_FIXED_PARENT | ATT_SENSITIVE_ORIGIN;

	if (ek->type == ATT_ALG_ECC) {
		ek_template_ecc(ek, rs);
		return;
	}
	if (ek->type != ATT_ALG_RSA) {
		att_reason(rs, ATT_FC_EK_PUBLIC, "EK key type 0x%04x not supported (RSA or ECC)",
			   ek->type);
		return;
	}
	if ((ek->attrs & need) != need || (ek->attrs & ATT_SIGN))
		att_reason(rs, ATT_FC_EK_PUBLIC, "EK objectAttributes 0x%08x: not a restricted decryption key that never left the TPM",
			   ek->attrs);
	if (ek->name_alg != ATT_ALG_SHA256 || ek->sym_alg != ATT_ALG_AES ||
	    ek->sym_bits != 128 || ek->sym_mode != ATT_ALG_CFB)
		att_reason(rs, ATT_FC_EK_PUBLIC, "EK template not supported (nameAlg 0x%04x, symmetric 0x%04x/%u/0x%04x; want sha256, AES-128-CFB)",
			   ek->name_alg, ek->sym_alg, ek->sym_bits,
			   ek->sym_mode);
}

/*
 * A CA that certifies EKs may certify other keys too (servers, signers,
 * sub-CAs) whose private halves live in software: presented as an EK,
 * such a key answers the credential challenge in software and a software
 * AK would be enrolled. So the certificate must say it is an EK's: the
 * extended key usage tcg-kp-EKCertificate (2.23.133.8.1), which the TCG
 * EK credential profile and swtpm_localca put in every EK certificate;
 * not a CA; a key usage, if any, that allows keyEncipherment (what an
 * RSA EK does with the credential's seed) or, for an ECC key,
 * keyAgreement (the ECDH that shares the seed with an ECC EK).
 */
static void ek_profile(X509 *x, struct att_reasons *rs)
{
	EVP_PKEY *key = X509_get0_pubkey(x);
	bool ecc = key && EVP_PKEY_get_base_id(key) == EVP_PKEY_EC;
	EXTENDED_KEY_USAGE *eku;
	ASN1_OBJECT *want;
	bool found = false;
	int i, crit = -1;

	eku = X509_get_ext_d2i(x, NID_ext_key_usage, &crit, NULL);
	want = OBJ_txt2obj("2.23.133.8.1", 1);
	if (!eku && crit != -1)
		att_reason(rs, ATT_FC_EK_CERT, "not an EK certificate: its extended key usage does not decode");
	else if (!eku)
		att_reason(rs, ATT_FC_EK_CERT, "not an EK certificate: no extended key usage (want tcg-kp-EKCertificate, 2.23.133.8.1)");
	for (i = 0; eku && want && i < sk_ASN1_OBJECT_num(eku); i++)
		if (!OBJ_cmp(sk_ASN1_OBJECT_value(eku, i), want))
			found = true;
	if (eku && !found)
		att_reason(rs, ATT_FC_EK_CERT, "not an EK certificate: its extended key usage lacks tcg-kp-EKCertificate (2.23.133.8.1)");
	if (X509_check_ca(x))
		att_reason(rs, ATT_FC_EK_CERT, "not an EK certificate: it is a CA certificate");
	if ((X509_get_extension_flags(x) & EXFLAG_KUSAGE) &&
	    !(X509_get_key_usage(x) &
	      (ecc ? KU_KEY_AGREEMENT : KU_KEY_ENCIPHERMENT)))
		att_reason(rs, ATT_FC_EK_CERT, "not an EK certificate: its key usage lacks %s",
			   ecc ? "keyAgreement (an ECC key)" : "keyEncipherment");
	ASN1_OBJECT_free(want);
	EXTENDED_KEY_USAGE_free(eku);
}

int att_ek_check(const uint8_t *cert, size_t cert_len, const char *ca_file,
		 const char *chain_file, const struct att_public *ek,
		 struct att_reasons *rs)
{
	const unsigned char *p = cert;
	STACK_OF(X509) *chain = NULL;
	X509_STORE_CTX *vctx = NULL;
	X509_STORE *store = NULL;
	EVP_PKEY *ckey, *tkey = NULL;
	int before = rs->n;
	const char *why = NULL;
	char err[ATT_REASON_LEN];
	X509 *x = NULL;

	ek_template(ek, rs);
	if (cert_len > 4096 || !(x = d2i_X509(NULL, &p, (long)cert_len)) ||
	    p != cert + cert_len) {
		att_reason(rs, ATT_FC_EK_CERT, "EK certificate (%zu bytes) is not one DER X.509 certificate",
			   cert_len);
		goto out;
	}
	store = load_ca(ca_file, &why);
	vctx = X509_STORE_CTX_new();
	if (!store || !vctx) {
		att_reason(rs, ATT_FC_EK_CERT, "cannot load the manufacturer CA %s: %s",
			   ca_file, why ? why : "out of memory");
		goto out;
	}
	if (chain_file && !(chain = load_chain(chain_file, &why))) {
		att_reason(rs, ATT_FC_EK_CERT, "%s %s", why ? why : "cannot read", chain_file);
		goto out;
	}
	if (X509_STORE_CTX_init(vctx, store, x, chain) != 1) {
		att_reason(rs, ATT_FC_EK_CERT, "cannot set up certificate verification");
		goto out;
	}
	if (X509_verify_cert(vctx) != 1)
		att_reason(rs, ATT_FC_EK_CERT, "EK certificate does not chain to the manufacturer CA: %s",
			   X509_verify_cert_error_string(
				   X509_STORE_CTX_get_error(vctx)));
	ek_profile(x, rs);
	ckey = X509_get0_pubkey(x);
	tkey = att_public_pkey(ek, err, sizeof(err));
	if (!ckey || !tkey)
		att_reason(rs, ATT_FC_EK_PUBLIC, "EK public key: %s", tkey ? "none in the certificate" : err);
	else if (EVP_PKEY_eq(ckey, tkey) != 1)
		att_reason(rs, ATT_FC_EK_PUBLIC, "EK public key does not match its certificate");
out:
	ERR_clear_error();
	EVP_PKEY_free(tkey);
	X509_STORE_CTX_free(vctx);
	X509_STORE_free(store);
	sk_X509_pop_free(chain, X509_free);
	X509_free(x);
	return rs->n - before;
}

int att_cert_der(const uint8_t *in, size_t len, uint8_t **der, size_t *der_len,
		 char *err, size_t errlen)
{
	static const char pem[] = "-----BEGIN CERTIFICATE-----";
	unsigned char *out = NULL;
	X509 *x = NULL;
	BIO *bio;
	int n;

	*der = NULL;
	if (len < sizeof(pem) - 1 || memcmp(in, pem, sizeof(pem) - 1)) {
		*der = malloc(len ? len : 1);
		if (!*der) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		memcpy(*der, in, len);
		*der_len = len;
		return 0;
	}
	bio = BIO_new_mem_buf(in, (int)(len > INT_MAX ? INT_MAX : len));
	if (bio)
		x = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	BIO_free(bio);
	n = x ? i2d_X509(x, &out) : -1;
	X509_free(x);
	ERR_clear_error();
	if (n <= 0) {
		snprintf(err, errlen, "a PEM certificate that does not decode");
		return -1;
	}
	*der = malloc((size_t)n);
	if (*der)
		memcpy(*der, out, (size_t)n);
	OPENSSL_free(out);
	if (!*der) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	*der_len = (size_t)n;
	return 0;
}
