// SPDX-License-Identifier: GPL-2.0-only
/*
 * Enrolling a machine that is not our guest: the credential challenge
 * kept between its two steps. Step 1 proved the TPM's identity (the EK
 * certificate chains to the manufacturer CA, the EK public area is the
 * certified key) and checked the AK public area and name; it made a
 * credential over a fresh secret for that EK and AK name. What it proved
 * is kept here, and the secret only as its digest: whoever reads the
 * verifier's directory learns nothing that answers the challenge. Step 2
 * trusts the AK only when the machine returns that secret, which only the
 * TPM holding the EK releases, and only with an object of that name
 * loaded beside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "ima_attest.h"
#include "ima_hash.h"

static const char *const keys[] = {
	"boot", "manufacturer-ca-sha256", "ek-certificate-sha256", "ek-name",
	"ak-public", "ak-name", "secret-sha256",
};
#define NKEYS	(int)(sizeof(keys) / sizeof(keys[0]))

static int sha256(const uint8_t *p, size_t n, uint8_t *d)
{
	return ima_digest(ima_hash_by_name("sha256", 6), p, n, d);
}

int att_challenge_of(struct att_challenge *c, const struct att_enroll *e,
		     const struct att_enrollment *rec)
{
	memset(c, 0, sizeof(*c));
	if (!e->challenged || rec->tpm_identity != ATT_PROVEN ||
	    !rec->have_ca || !rec->have_ekcert || !rec->ek_name_len)
		return -1;
	snprintf(c->boot, sizeof(c->boot), "%s", rec->boot);
	memcpy(c->ca_sha256, rec->ca_sha256, 32);
	memcpy(c->ekcert_sha256, rec->ekcert_sha256, 32);
	memcpy(c->ek_name, rec->ek_name, rec->ek_name_len);
	c->ek_name_len = rec->ek_name_len;
	c->ak = e->ak;
	memcpy(c->ak_name, e->ak_name, e->ak_name_len);
	c->ak_name_len = e->ak_name_len;
	return sha256(e->secret, sizeof(e->secret), c->secret_sha256);
}

size_t att_challenge_format(const struct att_challenge *c, char *out,
			    size_t outlen)
{
	char h[5][2 * ATT_MAX_NAME + 1], area[2 * ATT_MAX_PUBLIC + 1];
	int w;

	ima_bin2hex(c->ca_sha256, 32, h[0]);
	ima_bin2hex(c->ekcert_sha256, 32, h[1]);
	ima_bin2hex(c->ek_name, c->ek_name_len, h[2]);
	ima_bin2hex(c->ak_name, c->ak_name_len, h[3]);
	ima_bin2hex(c->secret_sha256, 32, h[4]);
	ima_bin2hex(c->ak.area, c->ak.area_len, area);
	w = snprintf(out, outlen,
		     "ima-attest challenge 1\nboot: %s\nmanufacturer-ca-sha256: %s\nek-certificate-sha256: %s\nek-name: %s\nak-public: %s\nak-name: %s\nsecret-sha256: %s\n",
		     c->boot, h[0], h[1], h[2], area, h[3], h[4]);
	return w < 0 || (size_t)w >= outlen ? 0 : (size_t)w;
}

/* lower-case hex of exactly want bytes (or 1..max when want is 0) */
static int hex_field(const char *v, size_t vlen, uint8_t *out, size_t want,
		     size_t max, size_t *got)
{
	size_t i;
	int r;

	if (!vlen || vlen % 2 || vlen / 2 > max || (want && vlen / 2 != want))
		return -1;
	for (i = 0; i < vlen; i++)
		if (!((v[i] >= '0' && v[i] <= '9') || (v[i] >= 'a' && v[i] <= 'f')))
			return -1;
	r = ima_hex2bin(v, vlen, out, max);
	if (r < 0 || (size_t)r != vlen / 2)
		return -1;
	*got = (size_t)r;
	return 0;
}

int att_challenge_parse(struct att_challenge *c, const char *text,
			size_t len, char *err, size_t errlen)
{
	static const char head[] = "ima-attest challenge 1\n";
	uint8_t *area = NULL, name[ATT_MAX_NAME];
	const char *p = text, *end = text + len, *nl, *v;
	size_t got, vlen, area_len = 0;
	char perr[160];
	int k, bad, nlen, ret = -1;

	memset(c, 0, sizeof(*c));
	if (len < sizeof(head) - 1 || memcmp(text, head, sizeof(head) - 1) ||
	    memchr(text, '\0', len)) {
		snprintf(err, errlen, "not an ima-attest challenge");
		return -1;
	}
	p += sizeof(head) - 1;
	area = malloc(ATT_MAX_PUBLIC);
	if (!area) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (k = 0; k < NKEYS; k++) {
		size_t kl = strlen(keys[k]);

		nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
		if (!nl || (size_t)(nl - p) < kl + 2 || memcmp(p, keys[k], kl) ||
		    memcmp(p + kl, ": ", 2)) {
			snprintf(err, errlen, "line %d: not '%s: '", k + 2, keys[k]);
			goto out;
		}
		v = p + kl + 2;
		vlen = (size_t)(nl - v);
		switch (k) {
		case 0:
			bad = vlen >= sizeof(c->boot);
			if (!bad) {
				memcpy(c->boot, v, vlen);
				bad = strcmp(c->boot, "-") && !att_boot_id_ok(c->boot);
			}
			break;
		case 1:
			bad = hex_field(v, vlen, c->ca_sha256, 32, 32, &got);
			break;
		case 2:
			bad = hex_field(v, vlen, c->ekcert_sha256, 32, 32, &got);
			break;
		case 3:
			bad = hex_field(v, vlen, c->ek_name, 0, ATT_MAX_NAME,
					&c->ek_name_len);
			break;
		case 4:
			bad = hex_field(v, vlen, area, 0, ATT_MAX_PUBLIC,
					&area_len);
			break;
		case 5:
			bad = hex_field(v, vlen, c->ak_name, 0, ATT_MAX_NAME,
					&c->ak_name_len);
			break;
		default:
			bad = hex_field(v, vlen, c->secret_sha256, 32, 32, &got);
			break;
		}
		if (bad) {
			snprintf(err, errlen, "line %d: bad %s", k + 2, keys[k]);
			goto out;
		}
		p = nl + 1;
	}
	if (p != end) {
		snprintf(err, errlen, "a line after secret-sha256");
		goto out;
	}
	/* the AK is the one named: its name recomputed from its area */
	if (att_public_parse(&c->ak, area, area_len, false, perr, sizeof(perr))) {
		snprintf(err, errlen, "ak-public: %s", perr);
		goto out;
	}
	nlen = att_public_name(&c->ak, name, sizeof(name));
	if (nlen < 0 || (size_t)nlen != c->ak_name_len ||
	    memcmp(name, c->ak_name, c->ak_name_len)) {
		snprintf(err, errlen, "ak-name is not the name of ak-public");
		goto out;
	}
	ret = 0;
out:
	free(area);
	return ret;
}

bool att_challenge_answer(const struct att_challenge *c,
			  const uint8_t *secret, size_t len)
{
	uint8_t d[32];

	/* the secret is 32 bytes (att_enroll.secret), nothing else */
	if (len != 32 || sha256(secret, len, d))
		return false;
	return !CRYPTO_memcmp(d, c->secret_sha256, 32);
}

void att_challenge_decide(const struct att_challenge *c, bool ok,
			  struct att_enroll *e, struct att_enrollment *rec)
{
	memset(rec, 0, sizeof(*rec));
	e->ek_ok = true;
	e->ak_ok = true;
	e->tpm_identity = ATT_PROVEN;
	e->ak = c->ak;
	memcpy(e->ak_name, c->ak_name, c->ak_name_len);
	e->ak_name_len = c->ak_name_len;
	e->activated = ok;
	e->ak_binding = ok ? ATT_PROVEN : ATT_REFUSED;
	if (!ok)
		att_reason(&e->rs, ATT_FC_ACTIVATION,
			   "activation answer does not match the secret of this challenge (wrong or replayed)");
	snprintf(rec->boot, sizeof(rec->boot), "%s", c->boot);
	rec->have_ca = rec->have_ekcert = true;
	memcpy(rec->ca_sha256, c->ca_sha256, 32);
	memcpy(rec->ekcert_sha256, c->ekcert_sha256, 32);
	memcpy(rec->ek_name, c->ek_name, c->ek_name_len);
	rec->ek_name_len = c->ek_name_len;
	rec->tpm_identity = ATT_PROVEN;
	rec->ak_binding = e->ak_binding;
	if (ok) {
		memcpy(rec->ak_name, c->ak_name, c->ak_name_len);
		rec->ak_name_len = c->ak_name_len;
	}
	rec->trusted = ok;
	att_reasons_append(&rec->rs, &e->rs, "");
}
