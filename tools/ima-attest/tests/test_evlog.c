// SPDX-License-Identifier: GPL-2.0-only
/*
 * The firmware event log parser and replay. A real SeaBIOS log from a q35
 * guest (tests/data/seabios-q35.evlog) must replay to what tpm2_eventlog
 * computed for it (tests/data/seabios-q35.pcrs, made with tpm2_eventlog,
 * not with this code); built logs check StartupLocality and every hostile
 * length, each refused with its reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "ima_attest.h"
#include "ima_hash.h"
#include "testbuf.h"
#include "unit_main.h"
#include "util.h"

static void test_real_log_matches_tpm2_eventlog(void **state)
{
	size_t len, plen;
	unsigned char *log = fixture("seabios-q35.evlog", &len);
	char *pcrs = (char *)fixture("seabios-q35.pcrs", &plen);
	struct att_evlog *ev = calloc(1, sizeof(*ev));
	char err[200], *line, *save = NULL;
	int checked = 0;

	assert_non_null(log);
	assert_non_null(pcrs);
	pcrs[plen] = '\0';
	assert_int_equal(att_evlog_replay(ev, log, len, err, sizeof(err)), 0);
	assert_int_equal(ev->nbanks, 2);
	assert_int_equal(ev->touched, 0xff);
	for (line = strtok_r(pcrs, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char bank[16], hex[129], got[129];
		int pcr, j;

		assert_int_equal(sscanf(line, "%15[^:]:%d %128s", bank, &pcr, hex), 3);
		for (j = 0; j < ev->nbanks; j++)
			if (!strcmp(ima_bank_name(ev->bank[j]), bank))
				break;
		assert_true(j < ev->nbanks);
		ima_bin2hex(ev->pcr[j][pcr], ev->size[j], got);
		assert_string_equal(got, hex);
		checked++;
	}
	assert_int_equal(checked, 16);
	free(ev);
	free(log);
	free(pcrs);
}

/* a log builder (testbuf.h): Spec ID with sha1 and sha256, then events */
static void spec(struct buf *l)
{
	static const unsigned char zero[20];

	l->n = 0;
	put32(l, 0);
	put32(l, ATT_EV_NO_ACTION);
	put(l, zero, 20);
	put32(l, 16 + 4 + 4 + 4 + 8 + 1);
	put(l, "Spec ID Event03", 16);
	put32(l, 0);			/* platformClass */
	put(l, "\x00\x02\x00\x02", 4);	/* minor, major, errata, uintnSize */
	put32(l, 2);
	put16(l, ATT_ALG_SHA1);
	put16(l, 20);
	put16(l, ATT_ALG_SHA256);
	put16(l, 32);
	put(l, "", 1);			/* vendorInfoSize 0 */
}

/*
 * An event extending pcr: crypto agile (TCG_PCR_EVENT2), a sha1 digest
 * of bytes fill1 and a sha256 one of fill256; or, fill256 < 0, the SHA1
 * format's TCG_PCClientPCREvent (the sha1 digest alone)
 */
static void record(struct buf *l, uint32_t pcr, uint32_t type, int fill1,
		   int fill256, const void *data, uint32_t size)
{
	unsigned char d[32];

	put32(l, pcr);
	put32(l, type);
	if (fill256 >= 0) {
		put32(l, 2);
		put16(l, ATT_ALG_SHA1);
	}
	memset(d, fill1, 20);
	put(l, d, 20);
	if (fill256 >= 0) {
		put16(l, ATT_ALG_SHA256);
		memset(d, fill256, 32);
		put(l, d, 32);
	}
	put32(l, size);
	put(l, data, size);
}

/* a crypto-agile event, both digests bytes fill */
static void event(struct buf *l, uint32_t pcr, uint32_t type, unsigned char fill,
		  const void *data, uint32_t size)
{
	record(l, pcr, type, fill, fill, data, size);
}

/* pcr (size bytes) extended by a digest of size bytes fill, as a TPM does */
static void extend(unsigned char *pcr, unsigned char fill, const EVP_MD *md)
{
	unsigned char in[2 * EVP_MAX_MD_SIZE];
	int size = EVP_MD_get_size(md);

	memcpy(in, pcr, (size_t)size);
	memset(in + size, fill, (size_t)size);
	assert_int_equal(EVP_Digest(in, 2 * (size_t)size, pcr, NULL, md, NULL), 1);
}

/* l replays (the test fails with its error if not) */
static void replayed(struct att_evlog *ev, const struct buf *l)
{
	char err[200];

	if (att_evlog_replay(ev, l->d, l->n, err, sizeof(err)))
		fail_msg("the log does not replay: %s", err);
}

static void test_replay_and_locality(void **state)
{
	struct att_evlog ev;
	struct buf l = { .n = 0 };
	unsigned char want[32];

	spec(&l);
	event(&l, 0, ATT_EV_NO_ACTION, 0, "StartupLocality\0\x03", 17);
	event(&l, 0, 8, 0xab, "x", 1);
	event(&l, 5, 4, 0xcd, "", 0);
	replayed(&ev, &l);
	assert_int_equal(ev.events, 3);
	assert_int_equal(ev.locality, 3);
	assert_int_equal(ev.touched, 1u << 0 | 1u << 5);
	/* PCR 0 sha256: H(00..03 || ab*32) */
	memset(want, 0, 32);
	want[31] = 3;
	extend(want, 0xab, EVP_sha256());
	assert_memory_equal(ev.pcr[1][0], want, 32);
	/* PCR 5 sha256: H(0*32 || cd*32) */
	memset(want, 0, 32);
	extend(want, 0xcd, EVP_sha256());
	assert_memory_equal(ev.pcr[1][5], want, 32);
}

static void expect_refused(const struct buf *l, const char *word)
{
	struct att_evlog ev;
	char err[200] = "";

	assert_int_equal(att_evlog_replay(&ev, l->d, l->n, err, sizeof(err)), -1);
	if (!strstr(err, word))
		fail_msg("error '%s' does not name '%s'", err, word);
}

/* good with byte off set to v: refused, the error naming word */
static void refused_at(const struct buf *good, size_t off, unsigned char v,
		       const char *word)
{
	struct buf l = *good;

	l.d[off] = v;
	expect_refused(&l, word);
}

static void test_hostile(void **state)
{
	struct buf l = { .n = 0 }, good = { .n = 0 };
	size_t i;

	spec(&good);
	event(&good, 4, 4, 1, "abcd", 4);
	/* every truncation is refused, none read past the end */
	for (i = 0; i < good.n; i++) {
		struct att_evlog ev;
		char err[200];

		if (i == 32 + 37)	/* exactly the Spec ID: a log without events */
			continue;
		assert_int_equal(att_evlog_replay(&ev, good.d, i, err, sizeof(err)), -1);
	}
	/*
	 * without the Spec ID Event03 first the log is read in the SHA1
	 * format, where these TCG_PCR_EVENT2 records do not frame
	 */
	refused_at(&good, 4, 4, "beyond the end");
	l = good;
	memcpy(l.d + 32, "Spec ID Event02", 15);
	expect_refused(&l, "beyond the end");
	/* a digest for fewer banks than the Spec ID lists, or more */
	refused_at(&good, 32 + 37 + 8, 1, "has no sha256 digest, yet the Spec ID lists the bank");
	refused_at(&good, 32 + 37 + 8, 3, "carries 3 digests, the Spec ID names 2");
	/* a digest algorithm the Spec ID does not name */
	refused_at(&good, 32 + 37 + 12, 0x0c, "not in the Spec ID");
	/* an event size past the end */
	refused_at(&good, good.n - 4 - 1, 0x7f, "beyond the end");
	/* PCR 24 */
	refused_at(&good, 32 + 37, 24, "extends PCR 24");
	/* too many banks, a duplicate bank, a wrong digest size */
	refused_at(&good, 32 + 24, 9, "names 9 algorithms");
	l = good;
	l.d[32 + 32] = 0x04;
	l.d[32 + 33] = 0x00;
	l.d[32 + 34] = 20;
	expect_refused(&l, "twice");
	refused_at(&good, 32 + 30, 21, "digest size of 21");
	/* vendor info that does not end the event */
	refused_at(&good, 32 + 36, 5, "vendor info");
}

/* EV_NO_ACTION extends nothing, whatever its PCR index: 0xffffffff too */
static void test_no_action_any_pcr(void **state)
{
	struct att_evlog ev;
	struct buf l = { .n = 0 };

	spec(&l);
	event(&l, 0xffffffffu, ATT_EV_NO_ACTION, 0, "NvIndexInstance", 15);
	event(&l, 24, ATT_EV_NO_ACTION, 0, "", 0);
	replayed(&ev, &l);
	assert_int_equal(ev.events, 2);
	assert_int_equal(ev.touched, 0);
	/* an extend of that PCR is refused */
	event(&l, 0xffffffffu, 4, 1, "", 0);
	expect_refused(&l, "extends PCR 4294967295");
}

/* the SHA1 (TCG 1.2) format: TCG_PCClientPCREvent records only */
static void sha1_event(struct buf *l, uint32_t pcr, uint32_t type,
		       unsigned char fill, const void *data, uint32_t size)
{
	record(l, pcr, type, fill, -1, data, size);
}

static void test_sha1_format(void **state)
{
	struct ima_pcr_values q;
	struct att_reasons rs = { 0 };
	unsigned char want[20];
	struct att_evlog ev;
	struct buf l = { .n = 0 };

	sha1_event(&l, 0, 8, 0x11, "crtm", 4);		/* EV_S_CRTM_VERSION */
	sha1_event(&l, 0xffffffffu, ATT_EV_NO_ACTION, 0, "x", 1);
	sha1_event(&l, 4, 4, 0x22, "", 0);
	sha1_event(&l, 4, 4, 0x33, "abc", 3);
	replayed(&ev, &l);
	assert_true(ev.sha1_log);
	assert_int_equal(ev.nbanks, 1);
	assert_int_equal(ev.bank[0], IMA_BANK_SHA1);
	assert_int_equal(ev.events, 4);
	assert_int_equal(ev.touched, 1u << 0 | 1u << 4);
	/* PCR 0: H(0^20 || 11^20); PCR 4: H(H(0^20 || 22^20) || 33^20) */
	memset(want, 0, 20);
	extend(want, 0x11, EVP_sha1());
	assert_memory_equal(ev.pcr[0][0], want, 20);
	memset(want, 0, 20);
	extend(want, 0x22, EVP_sha1());
	extend(want, 0x33, EVP_sha1());
	assert_memory_equal(ev.pcr[0][4], want, 20);
	/* a quote of the sha256 bank too: not explained, and said why */
	att_evlog_values(&ev, &q);
	q.have[IMA_BANK_SHA1] = q.have[IMA_BANK_SHA256] = 0x3ff;
	assert_int_equal(att_evlog_compare(&ev, &q, 0x3ff, &rs), 1);
	assert_non_null(strstr(rs.r[0], "SHA1 (TCG 1.2) format"));
	assert_non_null(strstr(rs.r[0], "only its sha1 bank is attested"));
	/* the sha1 bank alone: it replays */
	q.have[IMA_BANK_SHA256] = 0;
	att_reasons_free(&rs);
	assert_int_equal(att_evlog_compare(&ev, &q, 0x3ff, &rs), 0);
	/* truncated records and an extend of PCR 24 are refused */
	l.n -= 1;
	expect_refused(&l, "beyond the end");
	l.n = 0;
	sha1_event(&l, 24, 4, 0x22, "", 0);
	expect_refused(&l, "extends PCR 24");
	l.n = 31;
	expect_refused(&l, "truncated (header; a SHA1-format log)");
	l.n = 0;
	expect_refused(&l, "empty log");
}

/*
 * ev: a log of one event (type 4) extending PCR 2, its sha1 digest bytes
 * 07 and its sha256 one bytes fill256, replayed
 */
static void pcr2_log(struct att_evlog *ev, unsigned char fill256)
{
	struct buf l = { .n = 0 };

	spec(&l);
	record(&l, 2, 4, 7, fill256, "", 0);
	replayed(ev, &l);
}

static void test_compare(void **state)
{
	struct ima_pcr_values q;
	struct att_reasons rs = { 0 };
	struct att_evlog ev;

	pcr2_log(&ev, 7);
	att_evlog_values(&ev, &q);
	q.have[IMA_BANK_SHA1] = q.have[IMA_BANK_SHA256] = 0x3ff;
	assert_int_equal(att_evlog_compare(&ev, &q, 0x3ff, &rs), 0);
	/* a quoted value the log does not replay to */
	q.val[IMA_BANK_SHA256][9][0] ^= 1;
	assert_int_equal(att_evlog_compare(&ev, &q, 0x3ff, &rs), 1);
	assert_non_null(strstr(rs.r[0], "PCR 9 sha256"));
	/* a quoted bank the log lacks */
	q.val[IMA_BANK_SHA256][9][0] ^= 1;
	q.have[IMA_BANK_SHA384] = 0x3ff;
	att_reasons_free(&rs);
	assert_int_equal(att_evlog_compare(&ev, &q, 0x3ff, &rs), 1);
	assert_non_null(strstr(rs.r[0], "no sha384 bank"));
	/* a PCR not quoted at all: said, and so for each of the log's banks */
	q.have[IMA_BANK_SHA384] = 0;
	q.have[IMA_BANK_SHA1] = q.have[IMA_BANK_SHA256] = 0x1ff;
	att_reasons_free(&rs);
	assert_int_equal(att_evlog_compare(&ev, &q, 0x3ff, &rs), 3);
	assert_non_null(strstr(rs.r[0], "not in the quote"));
	assert_non_null(strstr(rs.r[1], "sha1 bank is not quoted for PCRs 0x000200"));
	att_reasons_free(&rs);
}

/*
 * A bank the log carries but the quote does not bind. The log below names
 * sha1 and sha256; its one extend carries sha256 digest 0x5a..., which is
 * not the sha256 of anything the sha1 digest stands for: nothing but a
 * quote of the sha256 bank could tell. boot_aggregate is derived from the
 * log's sha256 PCRs 0-9, so a quote that leaves them out (wholly, or some of
 * them) must be refused, however well the sha1 bank replays. The quoted
 * sha1 PCR 2 is computed here, H(0^20 || 0x07^20); the others are zero.
 */
static void test_compare_unquoted_bank(void **state)
{
	struct ima_pcr_values q;
	struct att_reasons rs = { 0 };
	struct att_evlog ev;

	pcr2_log(&ev, 0x5a);
	memset(&q, 0, sizeof(q));
	extend(q.val[IMA_BANK_SHA1][2], 7, EVP_sha1());
	/* sha1 PCRs 0-9 quoted and equal, sha256 not quoted at all */
	q.have[IMA_BANK_SHA1] = 0x3ff;
	if (att_evlog_compare(&ev, &q, 0x3ff, &rs) == 0)
		fail_msg("a log whose sha256 bank the quote does not carry was accepted");
	assert_non_null(strstr(rs.r[0], "sha256"));
	/* sha256 PCRs 0-4 quoted (the log's own values), 5-9 not */
	memcpy(q.val[IMA_BANK_SHA256], ev.pcr[1], sizeof(ev.pcr[1]));
	q.have[IMA_BANK_SHA256] = 0x01f;
	att_reasons_free(&rs);
	if (att_evlog_compare(&ev, &q, 0x3ff, &rs) == 0)
		fail_msg("a log whose sha256 PCRs 5-9 the quote does not carry was accepted");
	assert_non_null(strstr(rs.r[0], "sha256"));
	/* the control: both banks quoted for PCRs 0-9 */
	q.have[IMA_BANK_SHA256] = 0x3ff;
	att_reasons_free(&rs);
	assert_int_equal(att_evlog_compare(&ev, &q, 0x3ff, &rs), 0);
	att_reasons_free(&rs);
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_real_log_matches_tpm2_eventlog),
	cmocka_unit_test(test_replay_and_locality),
	cmocka_unit_test(test_hostile),
	cmocka_unit_test(test_no_action_any_pcr),
	cmocka_unit_test(test_sha1_format),
	cmocka_unit_test(test_compare),
	cmocka_unit_test(test_compare_unquoted_bank))
