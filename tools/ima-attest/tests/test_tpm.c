// SPDX-License-Identifier: GPL-2.0-only
/*
 * TPMT_PUBLIC parsing, names, the AK attribute checks, KDFa and KDFe. The
 * AK fixture (tests/data/ak.tpm2b) is a real AK's TPM2B_PUBLIC and
 * the name the TPM gave it (tpm2_createak -u -n on swtpm); the ECC EK
 * fixtures are swtpm 0.7's: ek-ecc-p256.tpm2b of tpm2_createek -G ecc
 * (the TCG low range template, NIST P-256), ek-ecc-p384.tpm2b of
 * tpm2_createprimary with the high range template H-3 (NIST P-384; the
 * key swtpm_setup certifies at NV 0x01c00016), each with the name
 * tpm2_readpublic -n gave. The KDFa vectors come from an independent
 * HMAC-SHA256 implementation (Python's hmac, the formula of TPM 2.0 part
 * 1, 11.4.10.2), the KDFe ones from Python's hashlib (11.4.10.3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ima_attest.h"
#include "unit_main.h"
#include "util.h"

static struct att_public ak;
static unsigned char *raw;
static size_t raw_len;

static int setup(void **state)
{
	char err[160];

	raw = fixture("ak.tpm2b", &raw_len);
	if (!raw)
		return -1;
	return att_public_parse(&ak, raw, raw_len, true, err, sizeof(err));
}

static int teardown(void **state)
{
	free(raw);
	return 0;
}

static void test_parse_real_ak(void **state)
{
	assert_int_equal(ak.type, ATT_ALG_RSA);
	assert_int_equal(ak.name_alg, ATT_ALG_SHA256);
	assert_int_equal(ak.attrs, 0x00050072);
	assert_int_equal(ak.scheme, ATT_ALG_RSASSA);
	assert_int_equal(ak.scheme_hash, ATT_ALG_SHA256);
	assert_int_equal(ak.key_bits, 2048);
	assert_int_equal(ak.mod_len, 256);
	assert_int_equal(ak.area_len, raw_len - 2);
}

static void test_name_is_the_tpms(void **state)
{
	unsigned char want[ATT_MAX_NAME], got[ATT_MAX_NAME];
	size_t wn = unhex(
		"000bd0173570d4194db7aafa214ffcc21629f608e06aeb2c9b98c914b9ae58021611",
		want, sizeof(want));

	assert_int_equal(att_public_name(&ak, got, sizeof(got)), (int)wn);
	assert_memory_equal(got, want, wn);
}

static void test_ak_check_passes(void **state)
{
	struct att_reasons rs = { 0 };
	unsigned char name[ATT_MAX_NAME];
	int n = att_public_name(&ak, name, sizeof(name));

	assert_int_equal(att_ak_check(&ak, name, (size_t)n, &rs), 0);
	att_reasons_free(&rs);
}

/* each attribute flipped (name recomputed): one reason naming it */
static void test_ak_check_each_attribute(void **state)
{
	static const struct {
		uint32_t bit;
		const char *word;
	} c[] = {
		{ ATT_RESTRICTED, "restricted is clear" },
		{ ATT_SIGN, "sign is clear" },
		{ ATT_DECRYPT, "decrypt is set" },
		{ ATT_FIXED_TPM, "fixedTPM is clear" },
		{ ATT_FIXED_PARENT, "fixedParent is clear" },
		{ ATT_SENSITIVE_ORIGIN, "sensitiveDataOrigin is clear" },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned char *copy = malloc(raw_len), name[ATT_MAX_NAME];
		struct att_reasons rs = { 0 };
		struct att_public p;
		uint32_t a;
		char err[160];
		int n;

		memcpy(copy, raw, raw_len);
		/* TPM2B size, type, nameAlg, then objectAttributes at 6 */
		a = (uint32_t)copy[6] << 24 | copy[7] << 16 | copy[8] << 8 | copy[9];
		a ^= c[i].bit;
		copy[6] = a >> 24;
		copy[7] = a >> 16;
		copy[8] = a >> 8;
		copy[9] = a;
		assert_int_equal(att_public_parse(&p, copy, raw_len, true, err, sizeof(err)), 0);
		n = att_public_name(&p, name, sizeof(name));
		assert_int_equal(att_ak_check(&p, name, (size_t)n, &rs), 1);
		assert_non_null(strstr(rs.r[0], c[i].word));
		att_reasons_free(&rs);
		free(copy);
	}
}

/*
 * The signing scheme and the name algorithm (name recomputed with it):
 * OAEP (0x0017, an encryption scheme, same layout) is no signing scheme,
 * SM3_256 (0x0012) no hash the quote check knows, sha1 (0x0004) no hash to
 * sign quotes or name the AK with, nor sha384 (0x000c) the name algorithm
 * MakeCredential is done with. Offsets in the fixture: TPM2B size (0-1),
 * type (2-3), nameAlg (4-5),
 * objectAttributes, an empty authPolicy (10-11), symmetric NULL (12-13),
 * then scheme (14-15) and its hash (16-17).
 */
static void test_ak_check_scheme(void **state)
{
	static const struct {
		size_t off;
		uint16_t val;
		const char *word;
	} c[] = {
		{ 14, 0x0017, "AK scheme 0x0017" },
		{ 16, 0x0012, "scheme hash 0x0012 not supported" },
		/* sha1: a known hash, but a collision-prone one */
		{ 16, ATT_ALG_SHA1, "scheme hash 0x0004 is sha1" },
		{ 4, ATT_ALG_SHA1, "nameAlg 0x0004: the AK's name must be sha256" },
		{ 4, ATT_ALG_SHA384, "nameAlg 0x000c: the AK's name must be sha256" },
	};
	size_t i;

	assert_true(raw_len <= sizeof(((struct att_public *)0)->area) + 2);
	assert_int_equal(raw[10] << 8 | raw[11], 0);
	assert_int_equal(raw[12] << 8 | raw[13], ATT_ALG_NULL);
	assert_int_equal(raw[14] << 8 | raw[15], ATT_ALG_RSASSA);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned char copy[2 + ATT_MAX_PUBLIC], name[ATT_MAX_NAME];
		struct att_reasons rs = { 0 };
		struct att_public p;
		char err[160];
		int n;

		memcpy(copy, raw, raw_len);
		copy[c[i].off] = c[i].val >> 8;
		copy[c[i].off + 1] = c[i].val & 0xff;
		assert_int_equal(att_public_parse(&p, copy, raw_len, true, err, sizeof(err)), 0);
		n = att_public_name(&p, name, sizeof(name));
		if (att_ak_check(&p, name, (size_t)n, &rs) != 1)
			fail_msg("AK with %s: %d reasons, want 1", c[i].word, rs.n);
		assert_non_null(strstr(rs.r[0], c[i].word));
		att_reasons_free(&rs);
	}
}

/*
 * An RSAES key's scheme carries no hash (TPMS_EMPTY): the real AK's area
 * with its scheme made RSAES and its scheme hash taken out parses to the
 * same key size and modulus
 */
static void test_parse_rsaes(void **state)
{
	unsigned char copy[2 + ATT_MAX_PUBLIC];
	struct att_public p;
	size_t n = raw_len - 2;
	char err[160];

	assert_int_equal(raw[14] << 8 | raw[15], ATT_ALG_RSASSA);
	memcpy(copy, raw, 16);
	memcpy(copy + 16, raw + 18, raw_len - 18);
	copy[0] = (unsigned char)((n - 2) >> 8);
	copy[1] = (unsigned char)(n - 2);
	copy[14] = ATT_ALG_RSAES >> 8;
	copy[15] = ATT_ALG_RSAES & 0xff;
	assert_int_equal(att_public_parse(&p, copy, n, true, err, sizeof(err)), 0);
	assert_int_equal(p.scheme, ATT_ALG_RSAES);
	assert_int_equal(p.scheme_hash, 0);
	assert_int_equal(p.key_bits, ak.key_bits);
	assert_int_equal(p.mod_len, ak.mod_len);
	assert_memory_equal(p.modulus, ak.modulus, ak.mod_len);
	assert_int_equal(p.area_len, n - 2);
}

static void test_ak_check_wrong_name(void **state)
{
	struct att_reasons rs = { 0 };
	unsigned char name[ATT_MAX_NAME];
	int n = att_public_name(&ak, name, sizeof(name));

	name[5] ^= 0x40;
	assert_int_equal(att_ak_check(&ak, name, (size_t)n, &rs), 1);
	assert_non_null(strstr(rs.r[0], "name does not match"));
	assert_int_equal(att_ak_check(&ak, name, (size_t)n - 1, &rs), 1);
	att_reasons_free(&rs);
}

static void expect_parse_error(const unsigned char *b, size_t n, bool tpm2b,
			       const char *word)
{
	struct att_public p;
	char err[160] = "";

	assert_int_equal(att_public_parse(&p, b, n, tpm2b, err, sizeof(err)), -1);
	if (!strstr(err, word))
		fail_msg("error '%s' does not name '%s'", err, word);
}

static void test_parse_hostile(void **state)
{
	unsigned char *c = malloc(raw_len + 8);
	size_t i;

	/* every truncation of the bare TPMT_PUBLIC */
	for (i = 0; i < raw_len - 2; i++) {
		struct att_public p;
		char err[160];

		assert_int_equal(att_public_parse(&p, raw + 2, i, false, err, sizeof(err)), -1);
	}
	/* a TPM2B size that is not the length given */
	memcpy(c, raw, raw_len);
	c[1] ^= 1;
	expect_parse_error(c, raw_len, true, "does not match");
	/* trailing bytes */
	memcpy(c, raw + 2, raw_len - 2);
	c[raw_len - 2] = 0;
	expect_parse_error(c, raw_len - 1, false, "bytes after");
	/* modulus size beyond TPM2B_PUBLIC_KEY_RSA */
	memcpy(c, raw, raw_len);
	c[raw_len - 256 - 2] = 0x7f;
	expect_parse_error(c, raw_len, true, "modulus");
	/* keyBits disagreeing with the modulus */
	memcpy(c, raw, raw_len);
	c[raw_len - 256 - 8] = 0x04;
	expect_parse_error(c, raw_len, true, "keyBits");
	/* a type neither RSA nor ECC (keyedHash): refused */
	memcpy(c, raw, raw_len);
	c[3] = 0x08;
	expect_parse_error(c, raw_len, true, "key type 0x0008 not supported");
	/* the RSA area labelled ECC: refused as one, not misparsed */
	memcpy(c, raw, raw_len);
	c[3] = 0x23;
	expect_parse_error(c, raw_len, true, "ECC point's");
	/* an authPolicy longer than a digest */
	memcpy(c, raw, raw_len);
	c[10] = 0x01;
	expect_parse_error(c, raw_len, true, "authPolicy");
	free(c);
}

/* got's first bytes are hex's */
static void expect_hex(const unsigned char *got, const char *hex)
{
	unsigned char want[128];
	size_t n = unhex(hex, want, sizeof(want));

	assert_int_equal(n, strlen(hex) / 2);
	assert_memory_equal(got, want, n);
}

/* what KDFa and KDFe share: their arguments and what they do not do */
typedef int kdf_fn(uint16_t hash, const uint8_t *secret, size_t secret_len,
		   const char *label, const uint8_t *u, size_t u_len,
		   const uint8_t *v, size_t v_len, uint8_t *out, size_t bits);

/* sizes and algorithms it does not do: sha1, a size in bits not bytes */
static void kdf_refusals(kdf_fn *kdf, const unsigned char *secret)
{
	unsigned char out[65];

	assert_int_equal(kdf(ATT_ALG_SHA1, secret, 32, "X", NULL, 0, NULL, 0,
			     out, 128), -1);
	assert_int_equal(kdf(ATT_ALG_SHA256, secret, 32, "X", NULL, 0, NULL, 0,
			     out, 12), -1);
}

static void test_kdfa_vectors(void **state)
{
	unsigned char key[32], name[ATT_MAX_NAME], out[65];
	size_t nn, i;

	for (i = 0; i < 32; i++)
		key[i] = (unsigned char)i;
	nn = unhex("000bd0173570d4194db7aafa214ffcc21629f608e06aeb2c9b98c914b9ae58021611",
		   name, sizeof(name));
	assert_int_equal(att_kdfa(ATT_ALG_SHA256, key, 32, "STORAGE", name, nn,
				  NULL, 0, out, 128), 0);
	expect_hex(out, "f74509583ce4e889c50149563468611e");
	assert_int_equal(att_kdfa(ATT_ALG_SHA256, key, 32, "INTEGRITY", NULL, 0,
				  NULL, 0, out, 256), 0);
	expect_hex(out,
		   "bacf689f634ece301e1f1b15b072d9c87db6a69585db42b1a0cb8f73ebe2692e");
	/* more than one block, both contexts */
	assert_int_equal(att_kdfa(ATT_ALG_SHA256, key, 32, "X",
				  (const unsigned char *)"ab", 2,
				  (const unsigned char *)"cd", 2, out, 520), 0);
	expect_hex(out, "ee64e72e77a8868895333ed0d7196766008927b3f65a664ce70f260cd04c82ab"
		   "2b14b6fc28973f67740ec0d1f36335bd36535683214f2b05ab58d293e7a406b8c1");
	kdf_refusals(att_kdfa, key);
}

static void test_make_credential_shape(void **state)
{
	struct att_public ek = ak;	/* the AK's modulus as an EK stand-in */
	unsigned char secret[32] = { 1 }, name[34] = { 0, 0x0b }, out[1024];
	char err[160];
	long n;

	/* the AK is no storage key: refused for its template */
	assert_int_equal(att_make_credential(&ak, secret, 32, name, 34, out,
					     sizeof(out), err, sizeof(err)), -1);
	ek.sym_alg = ATT_ALG_AES;
	ek.sym_bits = 128;
	ek.sym_mode = ATT_ALG_CFB;
	n = att_make_credential(&ek, secret, 32, name, 34, out, sizeof(out),
				err, sizeof(err));
	/* magic, version, TPM2B_ID_OBJECT(2 + 2+32 + 2+32), TPM2B(256) */
	assert_int_equal(n, 8 + 2 + 68 + 2 + 256);
	assert_int_equal(out[0], 0xba);
	assert_int_equal(out[3], 0xde);
	assert_int_equal(out[8] << 8 | out[9], 68);
	assert_int_equal(out[78] << 8 | out[79], 256);
	/* too small a buffer, too long a secret */
	assert_int_equal(att_make_credential(&ek, secret, 32, name, 34, out, 100,
					     err, sizeof(err)), -1);
	assert_int_equal(att_make_credential(&ek, secret, 33, name, 34, out,
					     sizeof(out), err, sizeof(err)), -1);
}

/* a real ECC EK area: its fields, and the name the TPM gave it */
static void parse_ecc_fixture(const char *file, uint16_t curve, uint16_t alg,
			      uint32_t attrs, uint16_t sym_bits, size_t coord,
			      const char *name_hex)
{
	unsigned char want[ATT_MAX_NAME], got[ATT_MAX_NAME], *b;
	struct att_public p;
	size_t n, wn = unhex(name_hex, want, sizeof(want));
	char err[160];
	void *pk;

	b = fixture(file, &n);
	assert_non_null(b);
	assert_int_equal(att_public_parse(&p, b, n, true, err, sizeof(err)), 0);
	assert_int_equal(p.type, ATT_ALG_ECC);
	assert_int_equal(p.name_alg, alg);
	assert_int_equal(p.attrs, attrs);
	assert_int_equal(p.sym_alg, ATT_ALG_AES);
	assert_int_equal(p.sym_bits, sym_bits);
	assert_int_equal(p.sym_mode, ATT_ALG_CFB);
	assert_int_equal(p.scheme, ATT_ALG_NULL);
	assert_int_equal(p.kdf, ATT_ALG_NULL);
	assert_int_equal(p.curve, curve);
	assert_int_equal(p.x_len, coord);
	assert_int_equal(p.y_len, coord);
	assert_int_equal(p.area_len, n - 2);
	assert_int_equal(att_public_name(&p, got, sizeof(got)), (int)wn);
	assert_memory_equal(got, want, wn);
	pk = att_public_pkey(&p, err, sizeof(err));
	assert_non_null(pk);
	att_pkey_free(pk);
	/* the point moved off the curve: no key */
	p.y[coord - 1] ^= 0x01;
	assert_null(att_public_pkey(&p, err, sizeof(err)));
	assert_non_null(strstr(err, "not on the curve"));
	/* a curve OpenSSL is not asked for */
	p.y[coord - 1] ^= 0x01;
	p.curve = 0x0020;
	assert_null(att_public_pkey(&p, err, sizeof(err)));
	assert_non_null(strstr(err, "curve not supported"));
	/* truncated anywhere: refused, never read past the end */
	for (n = n - 1; n > 2; n--) {
		unsigned char *c = malloc(n);

		assert_non_null(c);
		memcpy(c, b + 2, n - 2);
		assert_int_equal(att_public_parse(&p, c, n - 2, false, err, sizeof(err)), -1);
		free(c);
	}
	free(b);
}

static void test_parse_ecc_eks(void **state)
{
	parse_ecc_fixture("ek-ecc-p256.tpm2b", ATT_ECC_NIST_P256,
			  ATT_ALG_SHA256, 0x000300b2, 128, 32,
			  "000b4c5df01860d771598ba13f618ba62613efa65fb6bd0c07d8e6cbaa131078deec");
	parse_ecc_fixture("ek-ecc-p384.tpm2b", ATT_ECC_NIST_P384,
			  ATT_ALG_SHA384, 0x000300f2, 256, 48,
			  "000c34686f6438c614044d3fd157512ab13cb85abb29d46add95d6795abf871af13f045b745d073c33d07ca4c8061d47f24c");
}

/* hostile ECC areas: a coordinate's size out of range, a byte too many */
static void test_parse_ecc_hostile(void **state)
{
	unsigned char *b, c[1024];
	size_t n, xoff;
	struct att_public p;
	char err[160];

	b = fixture("ek-ecc-p256.tpm2b", &n);
	assert_non_null(b);
	/* size, type, nameAlg, attrs, policy(2+32), sym(6), scheme, curve, kdf */
	xoff = 2 + 2 + 2 + 4 + 2 + 32 + 6 + 2 + 2 + 2;
	assert_int_equal(b[xoff] << 8 | b[xoff + 1], 32);
	memcpy(c, b, n);
	c[xoff] = 0;
	c[xoff + 1] = 0;
	expect_parse_error(c, n, true, "x of 0 bytes");
	memcpy(c, b, n);
	c[xoff + 1] = ATT_MAX_ECC + 1;
	expect_parse_error(c, n, true, "x of 67 bytes");
	memcpy(c, b, n);
	c[xoff + 2 + 32 + 1] = 0xff;
	expect_parse_error(c, n, true, "y of 255 bytes");
	/* an ECDAA scheme carries a count: read, the rest still lines up */
	memcpy(c, b, n);
	c[1] += 4;
	memmove(c + xoff - 4 + 4, c + xoff - 4, n - (xoff - 4));
	c[xoff - 6] = 0x00;
	c[xoff - 5] = ATT_ALG_ECDAA;
	c[xoff - 4] = 0x00;
	c[xoff - 3] = ATT_ALG_SHA256;
	c[xoff - 2] = 0x00;
	c[xoff - 1] = 0x01;
	assert_int_equal(att_public_parse(&p, c, n + 4, true, err, sizeof(err)), 0);
	assert_int_equal(p.scheme, ATT_ALG_ECDAA);
	assert_int_equal(p.curve, ATT_ECC_NIST_P256);
	assert_int_equal(p.x_len, 32);
	/* a byte after the point */
	memcpy(c, b, n);
	c[n] = 0;
	c[1] += 1;
	expect_parse_error(c, n + 1, true, "1 bytes after the TPMT_PUBLIC");
	free(b);
}

/* an ECC key as an AK: refused for its type, whatever its attributes */
static void test_ak_check_ecc(void **state)
{
	struct att_public p;
	struct att_reasons rs = { 0 };
	unsigned char *b, name[ATT_MAX_NAME];
	size_t n;
	char err[160];
	int nl;

	b = fixture("ek-ecc-p256.tpm2b", &n);
	assert_non_null(b);
	assert_int_equal(att_public_parse(&p, b, n, true, err, sizeof(err)), 0);
	p.attrs = ak.attrs;
	nl = att_public_name(&p, name, sizeof(name));
	assert_int_equal(att_ak_check(&p, name, (size_t)nl, &rs), 1);
	assert_true(has_reason(&rs, "AK key type 0x0023: only RSA AKs"));
	att_reasons_free(&rs);
	free(b);
}

static void test_kdfe_vectors(void **state)
{
	unsigned char z[48], u[48], v[48], out[65];
	int i;

	for (i = 0; i < 48; i++) {
		z[i] = (unsigned char)i;
		u[i] = 0xaa;
		v[i] = 0x55;
	}
	assert_int_equal(att_kdfe(ATT_ALG_SHA256, z, 32, "IDENTITY", u, 32, v,
				  32, out, 256), 0);
	expect_hex(out,
		   "9452351581b895678b209d14fd361b86cff6355d51f0a70fd7ec7b3413c5ae0f");
	assert_int_equal(att_kdfe(ATT_ALG_SHA384, z, 48, "IDENTITY", u, 48, v,
				  48, out, 384), 0);
	expect_hex(out, "bd1e7b25bacbbab3d76650536ccae46a2e5a8a41fff6ce1f7c7849c7cd49915d"
		   "fbd75e647c34f9ef7b126b3dab18307d");
	/* more than one block, no party info */
	assert_int_equal(att_kdfe(ATT_ALG_SHA256, z, 32, "X", NULL, 0, NULL, 0,
				  out, 520), 0);
	expect_hex(out, "e98735689a21a9eb94792cf8eaad0e585ef0235113487b2cdf39f3fcde1bdd10"
		   "c6d8ce8b57f4ea97d546265349be1d42b2c91a38e8d4eea720c8109056433235fa");
	kdf_refusals(att_kdfe, z);
}

UNIT_TEST_MAIN(setup, teardown,
	cmocka_unit_test(test_parse_real_ak),
	cmocka_unit_test(test_name_is_the_tpms),
	cmocka_unit_test(test_ak_check_passes),
	cmocka_unit_test(test_ak_check_each_attribute),
	cmocka_unit_test(test_ak_check_scheme),
	cmocka_unit_test(test_parse_rsaes),
	cmocka_unit_test(test_ak_check_wrong_name),
	cmocka_unit_test(test_parse_hostile),
	cmocka_unit_test(test_kdfa_vectors),
	cmocka_unit_test(test_make_credential_shape),
	cmocka_unit_test(test_parse_ecc_eks),
	cmocka_unit_test(test_parse_ecc_hostile),
	cmocka_unit_test(test_ak_check_ecc),
	cmocka_unit_test(test_kdfe_vectors))
