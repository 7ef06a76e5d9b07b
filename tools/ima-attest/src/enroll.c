// SPDX-License-Identifier: GPL-2.0-only
/*
 * Enrollment: the verifier trusts an AK only after (1) the EK certificate
 * chains to the manufacturer, (2) the EK public area carries the certified
 * key, (3) the AK public area is a restricted TPM signing key with the name
 * claimed, and (4) the TPM holding that EK released a fresh secret bound to
 * that name (credential activation).
 */
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "ima_attest.h"

long att_enroll_request(struct att_enroll *e, const struct att_msg *m,
			uint8_t *cred, size_t credmax, char *err,
			size_t errlen)
{
	const uint8_t *ekcert, *ekpub, *akpub, *akname;
	size_t ekcert_len, ekpub_len, akpub_len, akname_len;
	char perr[160];
	long n;

	e->challenged = false;
	e->ek_ok = e->ak_ok = e->activated = false;
	if (strcmp(m->verb, "ENROLL")) {
		att_reason(&e->rs, "expected ENROLL, the guest sent %s", m->verb);
		return 0;
	}
	ekcert = att_msg_get(m, "ekcert", &ekcert_len);
	ekpub = att_msg_get(m, "ekpub", &ekpub_len);
	akpub = att_msg_get(m, "akpub", &akpub_len);
	akname = att_msg_get(m, "akname", &akname_len);
	if (!ekcert || !ekpub || !akpub || !akname) {
		att_reason(&e->rs, "ENROLL lacks %s", !ekcert ? "ekcert" :
			   !ekpub ? "ekpub" : !akpub ? "akpub" : "akname");
		return 0;
	}
	if (att_public_parse(&e->ek, ekpub, ekpub_len, true, perr, sizeof(perr))) {
		att_reason(&e->rs, "EK public area: %s", perr);
		return 0;
	}
	if (att_ek_check(ekcert, ekcert_len, e->ca_file, e->chain_file, &e->ek,
			 &e->rs))
		return 0;
	e->ek_ok = true;
	if (att_public_parse(&e->ak, akpub, akpub_len, true, perr, sizeof(perr))) {
		att_reason(&e->rs, "AK public area: %s", perr);
		return 0;
	}
	if (akname_len > sizeof(e->ak_name)) {
		att_reason(&e->rs, "AK name of %zu bytes", akname_len);
		return 0;
	}
	if (att_ak_check(&e->ak, akname, akname_len, &e->rs))
		return 0;
	e->ak_ok = true;
	memcpy(e->ak_name, akname, akname_len);
	e->ak_name_len = akname_len;
	if (RAND_bytes(e->secret, sizeof(e->secret)) != 1) {
		snprintf(err, errlen, "no random bytes for the secret");
		return -1;
	}
	n = att_make_credential(&e->ek, e->secret, sizeof(e->secret),
				e->ak_name, e->ak_name_len, cred, credmax, err,
				errlen);
	if (n > 0)
		e->challenged = true;
	return n;
}

bool att_enroll_answer(struct att_enroll *e, const struct att_msg *m)
{
	const uint8_t *s;
	size_t len;

	if (!e->challenged) {
		att_reason(&e->rs, "no challenge outstanding");
		return false;
	}
	e->challenged = false;	/* one answer per secret */
	if (!strcmp(m->verb, "FAILED")) {
		s = att_msg_get(m, "why", &len);
		att_reason(&e->rs, "credential activation failed in the guest: %.*s",
			   s ? (int)(len > 120 ? 120 : len) : 7,
			   s ? (const char *)s : "no word");
		goto out;
	}
	if (strcmp(m->verb, "ACTIVATED")) {
		att_reason(&e->rs, "expected ACTIVATED, the guest sent %s", m->verb);
		goto out;
	}
	s = att_msg_get(m, "secret", &len);
	if (!s || len != sizeof(e->secret) ||
	    CRYPTO_memcmp(s, e->secret, sizeof(e->secret))) {
		att_reason(&e->rs, "activation answer does not match the secret of this challenge (wrong or replayed)");
		goto out;
	}
	e->activated = true;
out:
	OPENSSL_cleanse(e->secret, sizeof(e->secret));
	return e->activated;
}
