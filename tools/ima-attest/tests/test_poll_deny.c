// SPDX-License-Identifier: GPL-2.0-only
/*
 * A polling round with a deny list: a new entry whose digest is listed
 * fails the round; one of an algorithm the list has no digest of too; the
 * control passes. Entries and quoted PCR 10 are built here with OpenSSL:
 * boot_aggregate (sha256 over zero PCRs 0-9) and an ima-ng file record.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "ima_attest.h"
#include "ima_deny.h"
#include "testbuf.h"
#include "util.h"
#include "unit_main.h"

static const unsigned char file_digest[32] = {
	0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
	13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
};

/* an ima-ng record; PCR 10 of both banks extended with it */
static void record(struct buf *list, const unsigned char *dig,
		   const char *name, unsigned char pcr[2][32])
{
	const EVP_MD *md[2] = { EVP_sha1(), EVP_sha256() };
	unsigned char td256[32], in[64];
	/* the template data's sha1 is the record's template hash */
	const unsigned char *td[2] = { list->d + list->n + 4, td256 };
	unsigned int n;
	int b;

	put_ng_record(list, dig, name, strlen(name), td256);
	for (b = 0; b < 2; b++) {
		unsigned int sz = (unsigned int)EVP_MD_get_size(md[b]);

		memcpy(in, pcr[b], sz);
		memcpy(in + sz, td[b], sz);
		EVP_Digest(in, 2 * sz, pcr[b], &n, md[b], NULL);
	}
}

static int round_with(const char *deny_text, struct att_poll_round *r)
{
	unsigned char zero[320] = { 0 }, agg[32], pcr[2][32] = { { 0 } };
	static struct ima_pcr_values q;
	static struct buf list;
	struct att_poll_state st = { 0 };
	struct ima_denylist *d = ima_deny_new();
	char err[256];
	unsigned int n;
	int rc;

	assert_non_null(d);
	assert_int_equal(ima_deny_parse(d, deny_text, strlen(deny_text),
					"deny", err, sizeof(err)), 0);
	EVP_Digest(zero, sizeof(zero), agg, &n, EVP_sha256(), NULL);
	list.n = 0;
	record(&list, agg, "boot_aggregate", pcr);
	record(&list, file_digest, "/usr/bin/revoked", pcr);
	memset(&q, 0, sizeof(q));
	q.have[IMA_BANK_SHA1] = q.have[IMA_BANK_SHA256] = 0x7ff;
	memcpy(q.val[IMA_BANK_SHA1][10], pcr[0], 20);
	memcpy(q.val[IMA_BANK_SHA256][10], pcr[1], 32);
	round_init(r, &q, list.d, list.n);
	r->deny = d;
	rc = att_poll(&st, r);
	ima_deny_free(d);
	return rc;
}

static void test_deny(void **state)
{
	struct att_poll_round r = { 0 };
	char text[256], hex[65];
	int i;

	for (i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", file_digest[i]);
	/* control: the deny list names another file */
	snprintf(text, sizeof(text), "%064x  /usr/bin/other\n", 7);
	if (round_with(text, &r))
		fail_msg("the control round was refused: %s", r.rs.r[0]);
	assert_int_equal(r.verified, 2);
	/* the file's digest listed (line 2): the round fails, naming it */
	snprintf(text, sizeof(text), "# revoked\n%s  /anywhere\n", hex);
	assert_int_equal(round_with(text, &r), 1);
	assert_non_null(strstr(r.rs.r[0], "entry 1 (/usr/bin/revoked): denied"));
	assert_non_null(strstr(r.rs.r[0], "(line 2)"));
	/* a list of sha1 digests clears no sha256 entry */
	snprintf(text, sizeof(text), "%040x\n", 7);
	assert_int_equal(round_with(text, &r), 1);
	assert_non_null(strstr(r.rs.r[0], "lists no sha256 digest"));
	att_reasons_free(&r.rs);
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_deny))
