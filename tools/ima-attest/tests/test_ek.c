// SPDX-License-Identifier: GPL-2.0-only
/*
 * The EK certificate checks (att_ek_check). A throwaway manufacturer CA
 * and certificates are made here with OpenSSL, each with one property
 * changed from what an EK certificate of the TCG EK credential profile
 * (and swtpm_localca's) carries: extended key usage tcg-kp-EKCertificate
 * (2.23.133.8.1), key usage keyEncipherment, not a CA. The attack each
 * case stands for: the manufacturer's CA also certified a key that is not
 * a TPM's EK (a TLS server, a sub-CA, a signing key), whose holder has its
 * private key in software; presented as an EK with the EK attributes
 * claimed, it would let the holder answer the credential challenge in
 * software and enroll a software AK.
 *
 * ECC EKs: an area with the TCG template of its curve (NIST P-256, low
 * range; NIST P-384, high range H-3, what swtpm certifies) and a
 * certificate with keyAgreement passes, and swtpm's own P-384 EK and
 * certificate (tests/data/ek-ecc-*) do; each field of the template
 * changed, another key, a point off the curve are each one reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "ima_attest.h"
#include "unit_main.h"
#include "util.h"

static EVP_PKEY *ca_key, *other_ca_key, *ek_key, *p256, *p256b, *p384, *p521;
static X509 *ca_cert, *other_ca_cert;
static char ca_file[] = "/tmp/test_ek_ca_XXXXXX";
static struct att_public ek;

static EVP_PKEY *rsa_key(void)
{
	return EVP_RSA_gen(2048);
}

static int add_ext(X509 *x, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *ext;
	int ok;

	X509V3_set_ctx(&ctx, issuer, x, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
	if (!ext)
		return 0;
	ok = X509_add_ext(x, ext, -1);
	X509_EXTENSION_free(ext);
	return ok;
}

/*
 * A certificate for key, signed by issuer_key (issuer NULL: self-signed);
 * exts are (nid, value) pairs in OpenSSL's config syntax, ending with 0.
 */
static X509 *make_cert(EVP_PKEY *key, const char *cn, X509 *issuer,
		       EVP_PKEY *issuer_key, const int *nids,
		       const char *const *values)
{
	X509 *x = X509_new();
	X509_NAME *name;
	int i;

	if (!x)
		return NULL;
	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
	X509_gmtime_adj(X509_getm_notBefore(x), -3600);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600);
	X509_set_pubkey(x, key);
	name = X509_get_subject_name(x);
	X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
				   (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(x, issuer ? X509_get_subject_name(issuer) : name);
	for (i = 0; nids && nids[i]; i++)
		if (!add_ext(x, issuer ? issuer : x, nids[i], values[i]))
			goto bad;
	if (!X509_sign(x, issuer_key, EVP_sha256()))
		goto bad;
	return x;
bad:
	X509_free(x);
	return NULL;
}

static X509 *make_ca(EVP_PKEY *key, const char *cn)
{
	static const int nids[] = { NID_basic_constraints, NID_key_usage, 0 };
	static const char *const values[] = { "critical,CA:TRUE",
					      "critical,keyCertSign,cRLSign" };

	return make_cert(key, cn, NULL, key, nids, values);
}

/* the EK public area for key, with the EK template's attributes */
static int ek_public(EVP_PKEY *key, struct att_public *pub)
{
	BIGNUM *n = NULL;
	int len;

	memset(pub, 0, sizeof(*pub));
	if (!EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n))
		return -1;
	len = BN_bn2bin(n, pub->modulus);
	BN_free(n);
	pub->type = ATT_ALG_RSA;
	pub->name_alg = ATT_ALG_SHA256;
	pub->attrs = ATT_FIXED_TPM | ATT_FIXED_PARENT | ATT_SENSITIVE_ORIGIN |
		     ATT_ADMIN_WITH_POLICY | ATT_RESTRICTED | ATT_DECRYPT;
	pub->sym_alg = ATT_ALG_AES;
	pub->sym_bits = 128;
	pub->sym_mode = ATT_ALG_CFB;
	pub->scheme = ATT_ALG_NULL;
	pub->key_bits = 2048;
	pub->mod_len = (uint16_t)len;
	return 0;
}

static int setup(void **state)
{
	FILE *f;
	int fd;

	ca_key = rsa_key();
	other_ca_key = rsa_key();
	ek_key = rsa_key();
	p256 = EVP_EC_gen("P-256");
	p256b = EVP_EC_gen("P-256");
	p384 = EVP_EC_gen("P-384");
	p521 = EVP_EC_gen("P-521");
	if (!ca_key || !other_ca_key || !ek_key || !p256 || !p256b || !p384 ||
	    !p521)
		return -1;
	ca_cert = make_ca(ca_key, "test manufacturer CA");
	other_ca_cert = make_ca(other_ca_key, "another CA");
	if (!ca_cert || !other_ca_cert || ek_public(ek_key, &ek))
		return -1;
	fd = mkstemp(ca_file);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f || !PEM_write_X509(f, ca_cert) || fclose(f))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	unlink(ca_file);
	X509_free(ca_cert);
	X509_free(other_ca_cert);
	EVP_PKEY_free(ca_key);
	EVP_PKEY_free(other_ca_key);
	EVP_PKEY_free(ek_key);
	EVP_PKEY_free(p256);
	EVP_PKEY_free(p256b);
	EVP_PKEY_free(p384);
	EVP_PKEY_free(p521);
	return 0;
}

/*
 * Check a certificate for key made with these extensions by the CA (or
 * another one), with pub as the EK public area; returns the reasons.
 */
static struct att_reasons check_key(EVP_PKEY *key, const struct att_public *pub,
				    X509 *issuer, EVP_PKEY *issuer_key,
				    const int *nids, const char *const *values)
{
	struct att_reasons rs = { 0 };
	unsigned char *der = NULL;
	X509 *x;
	int len;

	x = make_cert(key, "EK", issuer, issuer_key, nids, values);
	assert_non_null(x);
	len = i2d_X509(x, &der);
	assert_true(len > 0);
	att_ek_check(der, (size_t)len, ca_file, NULL, pub, &rs);
	OPENSSL_free(der);
	X509_free(x);
	return rs;
}

static struct att_reasons check(X509 *issuer, EVP_PKEY *issuer_key,
				const int *nids, const char *const *values)
{
	return check_key(ek_key, &ek, issuer, issuer_key, nids, values);
}

static void print_reasons(const struct att_reasons *rs)
{
	int i;

	for (i = 0; i < rs->n; i++)
		print_message("# reason: %s\n", rs->r[i]);
}

/* rs (freed here): no reason when want is NULL, else one containing want */
static void expect_reasons(struct att_reasons *rs, const char *want)
{
	print_reasons(rs);
	assert_int_equal(rs->n, want ? 1 : 0);
	if (want)
		assert_true(has_reason(rs, want));
	att_reasons_free(rs);
}

/* check()'s reasons for a certificate of these extensions by issuer */
static void expect(X509 *issuer, EVP_PKEY *issuer_key, const int *nids,
		   const char *const *values, const char *want)
{
	struct att_reasons rs = check(issuer, issuer_key, nids, values);

	expect_reasons(&rs, want);
}

/* what swtpm_localca writes: EKU tcg-kp-EKCertificate, keyEncipherment */
static const int ek_nids[] = { NID_ext_key_usage, NID_key_usage,
			       NID_basic_constraints, 0 };
static const char *const ek_values[] = { "2.23.133.8.1",
					 "critical,keyEncipherment",
					 "critical,CA:FALSE" };

static void test_ek_cert_genuine(void **state)
{
	expect(ca_cert, ca_key, ek_nids, ek_values, NULL);
}

/* without extensions at all: only the chain and key would say EK */
static void test_ek_cert_no_extensions(void **state)
{
	expect(ca_cert, ca_key, NULL, NULL,
	       "not an EK certificate: no extended key usage");
}

/* a TLS server certificate of the same CA, keyEncipherment and all */
static void test_ek_cert_server_auth(void **state)
{
	static const char *const values[] = { "serverAuth,clientAuth",
					      "critical,keyEncipherment",
					      "critical,CA:FALSE" };

	expect(ca_cert, ca_key, ek_nids, values,
	       "not an EK certificate: its extended key usage lacks tcg-kp-EKCertificate (2.23.133.8.1)");
}

/* the EK purpose, but a CA: a sub-CA's own key is no TPM's */
static void test_ek_cert_is_ca(void **state)
{
	static const char *const values[] = { "2.23.133.8.1",
					      "critical,keyEncipherment,keyCertSign",
					      "critical,CA:TRUE" };

	expect(ca_cert, ca_key, ek_nids, values,
	       "not an EK certificate: it is a CA certificate");
}

/* the EK purpose, but a signing key's usage */
static void test_ek_cert_signing_usage(void **state)
{
	static const char *const values[] = { "2.23.133.8.1",
					      "critical,digitalSignature",
					      "critical,CA:FALSE" };

	expect(ca_cert, ca_key, ek_nids, values,
	       "not an EK certificate: its key usage lacks keyEncipherment");
}

/* EKU anyExtendedKeyUsage names no purpose in particular */
static void test_ek_cert_any_eku(void **state)
{
	static const char *const values[] = { "anyExtendedKeyUsage",
					      "critical,keyEncipherment",
					      "critical,CA:FALSE" };

	expect(ca_cert, ca_key, ek_nids, values,
	       "lacks tcg-kp-EKCertificate");
}

/* the profile is right, the CA is not the trusted one */
static void test_ek_cert_other_ca(void **state)
{
	expect(other_ca_cert, other_ca_key, ek_nids, ek_values,
	       "does not chain to the manufacturer CA");
}

/* the profile is right, the EK public area is another key */
static void test_ek_cert_other_key(void **state)
{
	struct att_public saved = ek;
	struct att_reasons rs;

	ek.modulus[ek.mod_len / 2] ^= 0x01;
	rs = check(ca_cert, ca_key, ek_nids, ek_values);
	ek = saved;
	expect_reasons(&rs, "EK public key does not match its certificate");
}

/* --- ECC EKs ---------------------------------------------------------- */

/* what swtpm_localca writes for an ECC EK: keyAgreement */
static const char *const ecc_values[] = { "2.23.133.8.1",
					  "critical,keyAgreement",
					  "critical,CA:FALSE" };

/* certificate of key, area pub: no reason when want is NULL, else one */
static void expect_ecc(EVP_PKEY *key, const struct att_public *pub,
		       const char *const *values, const char *want)
{
	struct att_reasons rs = check_key(key, pub, ca_cert, ca_key, ek_nids,
					  values);

	expect_reasons(&rs, want);
}

static void test_ecc_ek_genuine(void **state)
{
	struct att_public pub;

	assert_int_equal(ecc_public(p256, ATT_ECC_NIST_P256, &pub), 0);
	expect_ecc(p256, &pub, ecc_values, NULL);
	assert_int_equal(ecc_public(p384, ATT_ECC_NIST_P384, &pub), 0);
	expect_ecc(p384, &pub, ecc_values, NULL);
}

/* swtpm 0.7's P-384 EK (H-3) and the certificate swtpm_localca issued */
static void test_ecc_ek_swtpm(void **state)
{
	struct att_reasons rs = { 0 };
	struct att_public pub;
	unsigned char *area, *cert;
	size_t alen, clen;
	char err[160], ca[512], chain[512];

	area = fixture("ek-ecc-p384.tpm2b", &alen);
	cert = fixture("ek-ecc-p384-cert.der", &clen);
	assert_non_null(area);
	assert_non_null(cert);
	assert_int_equal(att_public_parse(&pub, area, alen, true, err, sizeof(err)), 0);
	snprintf(ca, sizeof(ca), "%s/ek-ecc-ca.pem", DATA_DIR);
	snprintf(chain, sizeof(chain), "%s/ek-ecc-chain.pem", DATA_DIR);
	att_ek_check(cert, clen, ca, chain, &pub, &rs);
	print_reasons(&rs);
	assert_int_equal(rs.n, 0);
	/* the same certificate with the low range P-256 EK of that TPM */
	free(area);
	area = fixture("ek-ecc-p256.tpm2b", &alen);
	assert_non_null(area);
	assert_int_equal(att_public_parse(&pub, area, alen, true, err, sizeof(err)), 0);
	att_ek_check(cert, clen, ca, chain, &pub, &rs);
	expect_reasons(&rs, "EK public key does not match its certificate");
	free(area);
	free(cert);
}

/* each field of the template changed: one reason, naming it */
static void test_ecc_ek_template(void **state)
{
	struct att_public pub;

	/* a curve with no template here */
	assert_int_equal(ecc_public(p521, ATT_ECC_NIST_P521, &pub), 0);
	expect_ecc(p521, &pub, ecc_values,
		   "EK curve 0x0005: no TCG EK template supported for it");
	/* P-256 with the high range's userWithAuth */
	assert_int_equal(ecc_public(p256, ATT_ECC_NIST_P256, &pub), 0);
	pub.attrs |= ATT_USER_WITH_AUTH;
	expect_ecc(p256, &pub, ecc_values,
		   "EK objectAttributes 0x000300f2, not the template's 0x000300b2");
	/* a decryption key that can sign, not restricted */
	assert_int_equal(ecc_public(p384, ATT_ECC_NIST_P384, &pub), 0);
	pub.attrs = (pub.attrs | ATT_SIGN) & ~ATT_RESTRICTED;
	expect_ecc(p384, &pub, ecc_values,
		   "EK objectAttributes 0x000600f2, not the template's 0x000300f2");
	/* another policy */
	assert_int_equal(ecc_public(p256, ATT_ECC_NIST_P256, &pub), 0);
	pub.policy[0] ^= 0x01;
	expect_ecc(p256, &pub, ecc_values, "EK authPolicy (32 bytes) is not the template's");
	assert_int_equal(ecc_public(p384, ATT_ECC_NIST_P384, &pub), 0);
	pub.policy_len = 0;
	expect_ecc(p384, &pub, ecc_values, "EK authPolicy (0 bytes) is not the template's");
	/* AES-128 on the P-384 EK */
	assert_int_equal(ecc_public(p384, ATT_ECC_NIST_P384, &pub), 0);
	pub.sym_bits = 128;
	expect_ecc(p384, &pub, ecc_values,
		   "EK symmetric 0x0006/128/0x0043, not the template's AES-256-CFB");
	/* a sha256 name on the P-384 EK */
	assert_int_equal(ecc_public(p384, ATT_ECC_NIST_P384, &pub), 0);
	pub.name_alg = ATT_ALG_SHA256;
	expect_ecc(p384, &pub, ecc_values, "EK nameAlg 0x000b, not the template's 0x000c");
	/* a scheme (ECDH), a KDF (KDF1_SP800_108) */
	assert_int_equal(ecc_public(p256, ATT_ECC_NIST_P256, &pub), 0);
	pub.scheme = 0x0019;
	expect_ecc(p256, &pub, ecc_values, "EK scheme 0x0019, not the template's NULL");
	assert_int_equal(ecc_public(p256, ATT_ECC_NIST_P256, &pub), 0);
	pub.kdf = 0x0022;
	expect_ecc(p256, &pub, ecc_values, "EK kdf 0x0022, not the template's NULL");
}

static void test_ecc_ek_key(void **state)
{
	struct att_public pub;

	/* the area of another P-256 key than the certified one */
	assert_int_equal(ecc_public(p256b, ATT_ECC_NIST_P256, &pub), 0);
	expect_ecc(p256, &pub, ecc_values, "EK public key does not match its certificate");
	/* the certified key's x with y changed: off the curve */
	assert_int_equal(ecc_public(p256, ATT_ECC_NIST_P256, &pub), 0);
	pub.y[31] ^= 0x01;
	expect_ecc(p256, &pub, ecc_values, "not on the curve");
	/* an RSA EK's certificate for an ECC area */
	assert_int_equal(ecc_public(p256, ATT_ECC_NIST_P256, &pub), 0);
	expect_ecc(ek_key, &pub, ek_values, "EK public key does not match its certificate");
	/* an ECC certificate whose key usage is an RSA EK's */
	expect_ecc(p256, &pub, ek_values,
		   "not an EK certificate: its key usage lacks keyAgreement");
}

UNIT_TEST_MAIN(setup, teardown,
	cmocka_unit_test(test_ek_cert_genuine),
	cmocka_unit_test(test_ek_cert_no_extensions),
	cmocka_unit_test(test_ek_cert_server_auth),
	cmocka_unit_test(test_ek_cert_is_ca),
	cmocka_unit_test(test_ek_cert_signing_usage),
	cmocka_unit_test(test_ek_cert_any_eku),
	cmocka_unit_test(test_ek_cert_other_ca),
	cmocka_unit_test(test_ek_cert_other_key),
	cmocka_unit_test(test_ecc_ek_genuine),
	cmocka_unit_test(test_ecc_ek_swtpm),
	cmocka_unit_test(test_ecc_ek_template),
	cmocka_unit_test(test_ecc_ek_key))
