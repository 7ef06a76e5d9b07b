// SPDX-License-Identifier: GPL-2.0-only
/*
 * The credential challenge kept between `ima-attest challenge` and
 * `activate`: written and read back field by field, refused in any other
 * form, answered only by the secret it was made over (kept as its digest).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ima_attest.h"
#include "unit_main.h"
#include "util.h"

/* a challenge over secret (32 bytes 0x5e) for the AK of tests/data/ak.tpm2b */
static void made(struct att_challenge *c, struct att_enroll *e,
		 struct att_enrollment *rec)
{
	unsigned char *raw;
	size_t n;
	char err[160];
	int nl;

	memset(e, 0, sizeof(*e));
	memset(rec, 0, sizeof(*rec));
	raw = fixture("ak.tpm2b", &n);
	assert_non_null(raw);
	assert_int_equal(att_public_parse(&e->ak, raw, n, true, err, sizeof(err)), 0);
	free(raw);
	nl = att_public_name(&e->ak, e->ak_name, sizeof(e->ak_name));
	assert_int_equal(nl, 34);
	e->ak_name_len = (size_t)nl;
	memset(e->secret, 0x5e, sizeof(e->secret));
	e->challenged = true;
	snprintf(rec->boot, sizeof(rec->boot), "machine-1");
	rec->tpm_identity = ATT_PROVEN;
	rec->have_ca = rec->have_ekcert = true;
	memset(rec->ca_sha256, 0xca, 32);
	memset(rec->ekcert_sha256, 0xec, 32);
	rec->ek_name_len = 34;
	memset(rec->ek_name, 0xe4, 34);
	rec->ek_name[0] = 0;
	rec->ek_name[1] = 0x0b;
	assert_int_equal(att_challenge_of(c, e, rec), 0);
}

static void test_round_trip_and_answer(void **state)
{
	struct att_challenge c, back;
	struct att_enrollment rec, out;
	struct att_enroll e, d = { 0 };
	char text[ATT_CHALLENGE_MAX], err[160];
	uint8_t secret[32];
	size_t n;

	made(&c, &e, &rec);
	n = att_challenge_format(&c, text, sizeof(text));
	assert_int_not_equal(n, 0);
	/* the secret is not in it, its digest is */
	assert_null(strstr(text, "5e5e5e5e"));
	assert_non_null(strstr(text, "\nsecret-sha256: "));
	assert_int_equal(att_challenge_parse(&back, text, n, err, sizeof(err)), 0);
	assert_string_equal(back.boot, "machine-1");
	assert_memory_equal(back.ak_name, e.ak_name, 34);
	assert_memory_equal(back.ek_name, rec.ek_name, 34);
	assert_int_equal(back.ak.area_len, e.ak.area_len);
	memset(secret, 0x5e, sizeof(secret));
	assert_true(att_challenge_answer(&back, secret, 32));
	secret[31] ^= 1;
	assert_false(att_challenge_answer(&back, secret, 32));
	secret[31] ^= 1;
	assert_false(att_challenge_answer(&back, secret, 31));
	/* the right answer: trusted, the AK named, the EK as proven */
	att_challenge_decide(&back, true, &d, &out);
	assert_true(out.trusted);
	assert_int_equal(out.ak_binding, ATT_PROVEN);
	assert_memory_equal(out.ak_name, e.ak_name, 34);
	assert_memory_equal(out.ekcert_sha256, rec.ekcert_sha256, 32);
	assert_int_equal(out.rs.n, 0);
	att_enrollment_free(&out);
	att_reasons_free(&d.rs);
	/* a wrong one: refused, no AK named, the reason given */
	memset(&d, 0, sizeof(d));
	att_challenge_decide(&back, false, &d, &out);
	assert_false(out.trusted);
	assert_int_equal(out.ak_binding, ATT_REFUSED);
	assert_int_equal(out.ak_name_len, 0);
	assert_int_equal(out.rs.n, 1);
	assert_non_null(strstr(out.rs.r[0], "does not match the secret"));
	/* and its record is one the one rule can read */
	n = att_enrollment_format(&out, text, sizeof(text));
	att_enrollment_free(&out);
	assert_int_equal(att_enrollment_parse(&out, text, n, err, sizeof(err)), 0);
	att_enrollment_free(&out);
	att_reasons_free(&d.rs);
}

/* any other form is refused: each edit of a good one */
static void test_refused_forms(void **state)
{
	struct att_challenge c, back;
	struct att_enrollment rec;
	struct att_enroll e;
	char text[ATT_CHALLENGE_MAX], bad[ATT_CHALLENGE_MAX], err[160], *p;
	size_t n;

	made(&c, &e, &rec);
	n = att_challenge_format(&c, text, sizeof(text));
	/* the AK's name no longer its area's */
	memcpy(bad, text, n + 1);
	p = strstr(bad, "\nak-name: ") + 10 + 8;
	*p = *p == '0' ? '1' : '0';
	assert_int_equal(att_challenge_parse(&back, bad, n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "ak-name is not the name of ak-public"));
	/* upper-case hex */
	memcpy(bad, text, n + 1);
	p = strstr(bad, "\nsecret-sha256: ") + 16;
	*p = 'A';
	assert_int_equal(att_challenge_parse(&back, bad, n, err, sizeof(err)), -1);
	/* a line more at the end */
	snprintf(bad, sizeof(bad), "%ssecret: 00\n", text);
	assert_int_equal(att_challenge_parse(&back, bad, strlen(bad), err, sizeof(err)), -1);
	/* cut before its last line */
	assert_int_equal(att_challenge_parse(&back, text, n - 20, err, sizeof(err)), -1);
	/* an enrollment record is no challenge */
	assert_int_equal(att_challenge_parse(&back, "ima-attest enrollment 1\n", 24,
					     err, sizeof(err)), -1);
	/* a boot name that could start a line */
	memcpy(bad, text, n + 1);
	p = strstr(bad, "boot: ") + 6;
	*p = ' ';
	assert_int_equal(att_challenge_parse(&back, bad, n, err, sizeof(err)), -1);
	/* the control: the good one parses */
	assert_int_equal(att_challenge_parse(&back, text, n, err, sizeof(err)), 0);
}

/* a challenge only of an enrollment that proved the TPM and challenged */
static void test_only_of_a_challenge(void **state)
{
	struct att_challenge c;
	struct att_enrollment rec;
	struct att_enroll e;

	made(&c, &e, &rec);
	e.challenged = false;
	assert_int_equal(att_challenge_of(&c, &e, &rec), -1);
	e.challenged = true;
	rec.tpm_identity = ATT_REFUSED;
	assert_int_equal(att_challenge_of(&c, &e, &rec), -1);
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_round_trip_and_answer),
	cmocka_unit_test(test_refused_forms),
	cmocka_unit_test(test_only_of_a_challenge))
