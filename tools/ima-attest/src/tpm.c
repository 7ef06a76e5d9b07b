// SPDX-License-Identifier: GPL-2.0-only
/*
 * TPMT_PUBLIC of RSA and ECC keys (TPM 2.0 part 2, 12.2.4): parse, name,
 * OpenSSL key, and the attribute checks an attestation key must pass.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>

#include "ima_attest.h"
#include "ima_audit.h"

struct be {
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

static bool take(struct be *b, size_t n)
{
	if (b->bad || n > b->len - b->off) {
		b->bad = true;
		return false;
	}
	return true;
}

static uint16_t get16(struct be *b)
{
	uint16_t v;

	if (!take(b, 2))
		return 0;
	v = (uint16_t)(b->p[b->off] << 8 | b->p[b->off + 1]);
	b->off += 2;
	return v;
}

static uint32_t get32(struct be *b)
{
	uint32_t v;

	if (!take(b, 4))
		return 0;
	v = (uint32_t)b->p[b->off] << 24 | (uint32_t)b->p[b->off + 1] << 16 |
	    (uint32_t)b->p[b->off + 2] << 8 | b->p[b->off + 3];
	b->off += 4;
	return v;
}

static bool getbuf(struct be *b, uint8_t *out, size_t n)
{
	if (!take(b, n))
		return false;
	memcpy(out, b->p + b->off, n);
	b->off += n;
	return true;
}

const void *att_md(uint16_t alg)
{
	switch (alg) {
	case ATT_ALG_SHA1:
		return EVP_sha1();
	case ATT_ALG_SHA256:
		return EVP_sha256();
	case ATT_ALG_SHA384:
		return EVP_sha384();
	case ATT_ALG_SHA512:
		return EVP_sha512();
	}
	return NULL;
}

/* TPMT_SYM_DEF_OBJECT: the algorithm, then its key bits and mode */
static void parse_sym(struct att_public *pub, struct be *b)
{
	pub->sym_alg = get16(b);
	if (pub->sym_alg != ATT_ALG_NULL) {
		pub->sym_bits = get16(b);
		pub->sym_mode = get16(b);
	}
}

/* TPMS_RSA_PARMS and TPM2B_PUBLIC_KEY_RSA; b->bad when truncated */
static int parse_rsa(struct att_public *pub, struct be *b, char *err,
		     size_t errlen)
{
	parse_sym(pub, b);
	/* TPMT_RSA_SCHEME: every scheme but NULL and RSAES names a hash */
	pub->scheme = get16(b);
	if (pub->scheme != ATT_ALG_NULL && pub->scheme != ATT_ALG_RSAES)
		pub->scheme_hash = get16(b);
	pub->key_bits = get16(b);
	pub->exponent = get32(b);
	pub->mod_len = get16(b);
	if (b->bad)
		return 0;
	if (pub->mod_len > ATT_MAX_RSA || pub->mod_len == 0) {
		snprintf(err, errlen, "RSA modulus of %u bytes (1-%d)",
			 pub->mod_len, ATT_MAX_RSA);
		return -1;
	}
	if (pub->mod_len * 8u != pub->key_bits) {
		snprintf(err, errlen, "RSA modulus of %u bytes for keyBits %u",
			 pub->mod_len, pub->key_bits);
		return -1;
	}
	getbuf(b, pub->modulus, pub->mod_len);
	return 0;
}

/* one TPM2B_ECC_PARAMETER of TPMS_ECC_POINT */
static int parse_coord(struct be *b, uint8_t *out, uint16_t *len,
		       const char *what, char *err, size_t errlen)
{
	*len = get16(b);
	if (b->bad)
		return 0;
	if (*len > ATT_MAX_ECC || *len == 0) {
		snprintf(err, errlen, "ECC point's %s of %u bytes (1-%d)", what,
			 *len, ATT_MAX_ECC);
		return -1;
	}
	getbuf(b, out, *len);
	return 0;
}

/*
 * TPMS_ECC_PARMS (symmetric, TPMT_ECC_SCHEME, curveID, TPMT_KDF_SCHEME)
 * and TPMS_ECC_POINT; b->bad when truncated
 */
static int parse_ecc(struct att_public *pub, struct be *b, char *err,
		     size_t errlen)
{
	parse_sym(pub, b);
	pub->scheme = get16(b);
	if (pub->scheme != ATT_ALG_NULL) {
		pub->scheme_hash = get16(b);
		if (pub->scheme == ATT_ALG_ECDAA)
			get16(b);	/* TPMS_SCHEME_ECDAA's count */
	}
	pub->curve = get16(b);
	pub->kdf = get16(b);
	if (pub->kdf != ATT_ALG_NULL)
		pub->kdf_hash = get16(b);
	if (parse_coord(b, pub->x, &pub->x_len, "x", err, errlen) ||
	    parse_coord(b, pub->y, &pub->y_len, "y", err, errlen))
		return -1;
	return 0;
}

int att_public_parse(struct att_public *pub, const uint8_t *buf, size_t len,
		     bool tpm2b, char *err, size_t errlen)
{
	struct be b = { .p = buf, .len = len };
	size_t start;

	memset(pub, 0, sizeof(*pub));
	if (tpm2b) {
		uint16_t size = get16(&b);

		if (b.bad || size != len - 2) {
			snprintf(err, errlen,
				 "TPM2B_PUBLIC size %u does not match the %zu bytes given",
				 size, len);
			return -1;
		}
	}
	start = b.off;
	if (len - start > ATT_MAX_PUBLIC) {
		snprintf(err, errlen, "TPMT_PUBLIC of %zu bytes (max %d)",
			 len - start, ATT_MAX_PUBLIC);
		return -1;
	}
	pub->type = get16(&b);
	pub->name_alg = get16(&b);
	pub->attrs = get32(&b);
	pub->policy_len = get16(&b);
	if (b.bad)
		goto truncated;
	if (pub->policy_len > ATT_MAX_DIGEST) {
		snprintf(err, errlen, "authPolicy of %u bytes (max %d)",
			 pub->policy_len, ATT_MAX_DIGEST);
		return -1;
	}
	if (!getbuf(&b, pub->policy, pub->policy_len))
		goto truncated;
	switch (pub->type) {
	case ATT_ALG_RSA:
		if (parse_rsa(pub, &b, err, errlen))
			return -1;
		break;
	case ATT_ALG_ECC:
		if (parse_ecc(pub, &b, err, errlen))
			return -1;
		break;
	default:
		snprintf(err, errlen,
			 "key type 0x%04x not supported (only RSA, 0x0001, and ECC, 0x0023)",
			 pub->type);
		return -1;
	}
	if (b.bad)
		goto truncated;
	if (b.off != len) {
		snprintf(err, errlen, "%zu bytes after the TPMT_PUBLIC",
			 len - b.off);
		return -1;
	}
	pub->area_len = len - start;
	memcpy(pub->area, buf + start, pub->area_len);
	return 0;
truncated:
	snprintf(err, errlen, "TPMT_PUBLIC truncated (%zu bytes)", len);
	return -1;
}

int att_public_name(const struct att_public *pub, uint8_t *name,
		    size_t namemax)
{
	const EVP_MD *md = att_md(pub->name_alg);
	unsigned int n;

	if (!md || namemax < 2 + (size_t)EVP_MD_get_size(md))
		return -1;
	name[0] = pub->name_alg >> 8;
	name[1] = pub->name_alg & 0xff;
	if (!EVP_Digest(pub->area, pub->area_len, name + 2, &n, md, NULL))
		return -1;
	return (int)(2 + n);
}

/* OpenSSL's name of a TPM curve and its field's size in bytes, or NULL */
const char *att_curve(uint16_t curve, size_t *bytes)
{
	switch (curve) {
	case ATT_ECC_NIST_P256:
		*bytes = 32;
		return "P-256";
	case ATT_ECC_NIST_P384:
		*bytes = 48;
		return "P-384";
	case ATT_ECC_NIST_P521:
		*bytes = 66;
		return "P-521";
	}
	*bytes = 0;
	return NULL;
}

static EVP_PKEY *rsa_pkey(const struct att_public *pub)
{
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *pkey = NULL;
	BIGNUM *n = NULL, *e = NULL;

	n = BN_bin2bn(pub->modulus, pub->mod_len, NULL);
	e = BN_new();
	bld = OSSL_PARAM_BLD_new();
	if (!n || !e || !bld ||
	    !BN_set_word(e, pub->exponent ? pub->exponent : 65537) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e))
		goto out;
	params = OSSL_PARAM_BLD_to_param(bld);
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		pkey = NULL;
out:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(n);
	BN_free(e);
	return pkey;
}

/*
 * The point as an uncompressed SEC1 octet string, each coordinate
 * left-padded to the field's size; OpenSSL refuses one not on the curve,
 * and EVP_PKEY_public_check makes sure of it.
 */
static EVP_PKEY *ecc_pkey(const struct att_public *pub, const char **why)
{
	uint8_t oct[1 + 2 * ATT_MAX_ECC] = { 0x04 };
	OSSL_PARAM params[3];
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *pkey = NULL;
	const char *group;
	size_t fb;

	group = att_curve(pub->curve, &fb);
	if (!group) {
		*why = "curve not supported (NIST P-256, P-384, P-521 only)";
		return NULL;
	}
	if (pub->x_len > fb || pub->y_len > fb) {
		*why = "a coordinate longer than the curve's field";
		return NULL;
	}
	memcpy(oct + 1 + fb - pub->x_len, pub->x, pub->x_len);
	memcpy(oct + 1 + 2 * fb - pub->y_len, pub->y, pub->y_len);
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
						     (char *)group, 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
						      oct, 1 + 2 * fb);
	params[2] = OSSL_PARAM_construct_end();
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (!ctx || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		pkey = NULL;
	EVP_PKEY_CTX_free(ctx);
	ctx = pkey ? EVP_PKEY_CTX_new(pkey, NULL) : NULL;
	if (!ctx || EVP_PKEY_public_check(ctx) != 1) {
		EVP_PKEY_free(pkey);
		pkey = NULL;
		*why = "the point is not on the curve";
	}
	EVP_PKEY_CTX_free(ctx);
	return pkey;
}

void *att_public_pkey(const struct att_public *pub, char *err, size_t errlen)
{
	const char *why = "out of memory";
	EVP_PKEY *pkey = NULL;
	size_t fb;

	if (pub->type == ATT_ALG_RSA) {
		pkey = rsa_pkey(pub);
		if (!pkey)
			snprintf(err, errlen, "cannot make an RSA key of the public area");
	} else if (pub->type == ATT_ALG_ECC) {
		const char *g = att_curve(pub->curve, &fb);

		pkey = ecc_pkey(pub, &why);
		if (!pkey)
			snprintf(err, errlen, "cannot make an ECC key of the public area (curve 0x%04x, %s): %s",
				 pub->curve, g ? g : "unknown", why);
	} else {
		snprintf(err, errlen, "key type 0x%04x not supported", pub->type);
	}
	ERR_clear_error();
	return pkey;
}

void att_pkey_free(void *pkey)
{
	EVP_PKEY_free(pkey);
}

int att_pkey_write_pem(void *pkey, const char *path)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = PEM_write_PUBKEY(f, pkey);
	if (fclose(f) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

int att_ak_check(const struct att_public *ak, const uint8_t *name,
		 size_t name_len, struct att_reasons *rs)
{
	static const struct {
		uint32_t bit;
		bool set;
		const char *what;
	} want[] = {
		{ ATT_RESTRICTED, true, "restricted" },
		{ ATT_SIGN, true, "sign" },
		{ ATT_DECRYPT, false, "decrypt" },
		{ ATT_FIXED_TPM, true, "fixedTPM" },
		{ ATT_FIXED_PARENT, true, "fixedParent" },
		{ ATT_SENSITIVE_ORIGIN, true, "sensitiveDataOrigin" },
	};
	uint8_t mine[ATT_MAX_NAME];
	int before = rs->n, n;
	size_t i;

	if (ak->type != ATT_ALG_RSA) {
		att_reason(rs, ATT_FC_AK_PUBLIC, "AK key type 0x%04x: only RSA AKs (0x0001) are supported",
			   ak->type);
		return rs->n - before;
	}
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		bool set = ak->attrs & want[i].bit;

		if (set != want[i].set)
			att_reason(rs, ATT_FC_AK_PUBLIC, "AK attribute %s is %s (objectAttributes 0x%08x): not %s",
				   want[i].what, set ? "set" : "clear",
				   ak->attrs,
				   want[i].set ?
				   "a TPM-resident restricted signing key" :
				   "a signing-only key");
	}
	if (ak->scheme != ATT_ALG_RSASSA && ak->scheme != ATT_ALG_RSAPSS)
		att_reason(rs, ATT_FC_AK_PUBLIC, "AK scheme 0x%04x: a restricted signing key needs RSASSA or RSAPSS",
			   ak->scheme);
	else if (!att_md(ak->scheme_hash))
		att_reason(rs, ATT_FC_AK_PUBLIC, "AK scheme hash 0x%04x not supported",
			   ak->scheme_hash);
	else if (ak->scheme_hash == ATT_ALG_SHA1)
		att_reason(rs, ATT_FC_AK_PUBLIC, "AK scheme hash 0x%04x is sha1: its quotes would be signed over a collision-prone digest",
			   ak->scheme_hash);
	/*
	 * The name is what MakeCredential binds the secret to and what the
	 * TPM checks before it releases it: sha256, as the EK's, so that no
	 * second public area can share it by a sha1 collision.
	 */
	n = att_public_name(ak, mine, sizeof(mine));
	if (n < 0)
		att_reason(rs, ATT_FC_AK_PUBLIC, "AK nameAlg 0x%04x not supported", ak->name_alg);
	else if (ak->name_alg != ATT_ALG_SHA256)
		att_reason(rs, ATT_FC_AK_PUBLIC, "AK nameAlg 0x%04x: the AK's name must be sha256",
			   ak->name_alg);
	else if ((size_t)n != name_len || memcmp(mine, name, name_len))
		att_reason(rs, ATT_FC_AK_NAME, "AK name does not match its public area (the name is nameAlg || H(TPMT_PUBLIC))");
	return rs->n - before;
}
