// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verdict tests: binding, coverage, the recorded policy, a failed quote,
 * boot_aggregate with a quote, and allocation failures. Lists are built
 * here and their PCR values computed with OpenSSL directly (not with the
 * library's replay), so an expectation never comes from the code under
 * test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "ima_audit.h"
#include "ima_quote.h"
#include "testcert.h"
#include "unit_main.h"

/* --- allocation failure injection (linked with --wrap=malloc,...) */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
static long fail_at;	/* 0: never; n: the nth allocation fails */
static long nalloc;

/* workers allocate too: the counter is atomic */
static bool inject(void)
{
	long at = __atomic_load_n(&fail_at, __ATOMIC_SEQ_CST);

	return at && __atomic_add_fetch(&nalloc, 1, __ATOMIC_SEQ_CST) == at;
}

void *__wrap_malloc(size_t n)
{
	return inject() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
	return inject() ? NULL : __real_calloc(n, m);
}

void *__wrap_realloc(void *p, size_t n)
{
	return inject() ? NULL : __real_realloc(p, n);
}

/* --- a list under construction, with its sha256 PCR values */
struct list {
	uint8_t buf[16384];
	size_t len;
	uint64_t n;
	uint8_t pcr[IMA_NR_PCRS][32];	/* sha256 bank */
	uint8_t boot[10][32];
};

static void put32(uint8_t **p, uint32_t v)
{
	memcpy(*p, &v, 4);	/* little-endian host, as the tests run */
	*p += 4;
}

static void sha(const EVP_MD *md, const void *d, size_t n, uint8_t *out)
{
	unsigned int len;

	assert_int_equal(EVP_Digest(d, n, out, &len, md, NULL), 1);
}

/* fields: n (data, len) pairs; extends l->pcr[pcr] like the kernel */
static void add(struct list *l, uint32_t pcr, const char *tmpl, int nf, ...)
{
	uint8_t data[4096], *p = data, *o = l->buf + l->len, ext[64];
	va_list ap;
	size_t dlen;
	int i;

	va_start(ap, nf);
	for (i = 0; i < nf; i++) {
		const void *f = va_arg(ap, const void *);
		size_t flen = va_arg(ap, size_t);

		put32(&p, (uint32_t)flen);
		memcpy(p, f, flen);
		p += flen;
	}
	va_end(ap);
	dlen = (size_t)(p - data);
	put32(&o, pcr);
	sha(EVP_sha1(), data, dlen, o);
	o += 20;
	put32(&o, (uint32_t)strlen(tmpl));
	memcpy(o, tmpl, strlen(tmpl));
	o += strlen(tmpl);
	put32(&o, (uint32_t)dlen);
	memcpy(o, data, dlen);
	l->len = (size_t)(o - l->buf) + dlen;
	memcpy(ext, l->pcr[pcr], 32);
	sha(EVP_sha256(), data, dlen, ext + 32);
	sha(EVP_sha256(), ext, 64, l->pcr[pcr]);
	l->n++;
}

static void dng(uint8_t *out, const uint8_t *digest)
{
	memcpy(out, "sha256:", 8);
	memcpy(out + 8, digest, 32);
}

static void add_file(struct list *l, uint32_t pcr, const char *path)
{
	uint8_t d[40], h[32];

	sha(EVP_sha256(), path, strlen(path), h);
	dng(d, h);
	add(l, pcr, "ima-ng", 2, d, (size_t)40, path, strlen(path) + 1);
}

static void add_signed(struct list *l, uint32_t pcr, const char *path)
{
	uint8_t d[40], h[32], sig[9 + 256];

	sha(EVP_sha256(), path, strlen(path), h);
	dng(d, h);
	/* evmctl v2 header, sha256, key id 0x01020304, 256 bytes */
	memcpy(sig, "\x03\x02\x04\x01\x02\x03\x04\x01\x00", 9);
	memset(sig + 9, 0x5a, 256);
	add(l, pcr, "ima-sig", 3, d, (size_t)40, path, strlen(path) + 1,
	    sig, sizeof(sig));
}

static void add_policy(struct list *l, uint32_t pcr, const char *policy)
{
	uint8_t d[40], h[32];

	sha(EVP_sha256(), policy, strlen(policy), h);
	dng(d, h);
	add(l, pcr, "ima-buf", 3, d, (size_t)40, "ima_policy", (size_t)11,
	    policy, strlen(policy));
}

/* an ima-buf critical-data record NAME with TEXT, on PCR 10 */
static void add_buf(struct list *l, const char *name, const char *text)
{
	uint8_t d[40], h[32];

	sha(EVP_sha256(), text, strlen(text), h);
	dng(d, h);
	add(l, 10, "ima-buf", 3, d, (size_t)40, name, strlen(name) + 1,
	    text, strlen(text));
}

/*
 * A kexec record as the kernel writes it before appending it: the count
 * of the entries so far and their binary size plus the 24-byte segment
 * header, both taken from the list under construction (dn, db: added to
 * them, to forge), and the segment size.
 */
static void add_kexec(struct list *l, const char *name, long dn, long db,
		      unsigned long seg)
{
	char t[160];

	snprintf(t, sizeof(t),
		 "kexec_segment_size=%lu;ima_binary_runtime_size=%lu;ima_runtime_measurements_count=%lu;",
		 seg, (unsigned long)((long)l->len + 24 + db),
		 (unsigned long)((long)l->n + dn));
	add_buf(l, name, t);
}

static void add_boot(struct list *l)
{
	uint8_t cat[320], agg[32], d[40];
	int i;

	for (i = 0; i < 10; i++) {
		memset(l->boot[i], 0x30 + i, 32);
		memcpy(cat + 32 * i, l->boot[i], 32);
	}
	sha(EVP_sha256(), cat, sizeof(cat), agg);
	dng(d, agg);
	add(l, 10, "ima-ng", 2, d, (size_t)40, "boot_aggregate", (size_t)15);
}

/*
 * A violation as the kernel logs it: a zero template digest, and 0xff..
 * extended whatever the data; here the data is an ima-buf policy record.
 */
static void add_violation_policy(struct list *l, const char *policy)
{
	uint8_t ext[64];
	size_t before = l->len;

	memcpy(ext, l->pcr[10], 32);
	add_policy(l, 10, policy);
	memset(l->buf + before + 4, 0, 20);
	memset(ext + 32, 0xff, 32);
	sha(EVP_sha256(), ext, 64, l->pcr[10]);
}

/* an ima-ng file record logged under template name tmpl (2 fields) */
static void add_file_as(struct list *l, const char *tmpl, const char *path)
{
	uint8_t d[40], h[32];

	sha(EVP_sha256(), path, strlen(path), h);
	dng(d, h);
	add(l, 10, tmpl, 2, d, (size_t)40, path, strlen(path) + 1);
}

static void give(struct ima_pcr_values *v, int bank, int pcr,
		 const uint8_t *val)
{
	memcpy(v->val[bank][pcr], val, ima_bank_algo(bank)->size);
	v->have[bank] |= 1u << pcr;
}

static struct ima_audit_opts opts;
static struct ima_audit a;

static int run(const struct list *l)
{
	struct ima_reader r;

	opts.banks |= 1u << IMA_BANK_SHA1 | 1u << IMA_BANK_SHA256;
	opts.pcr_mask = 1u << 10;
	ima_reader_init_mem(&r, l->buf, l->len, NULL);
	if (ima_audit_init(&a, &opts))
		return -1;
	ima_audit_run(&a, &r);
	return ima_audit_exit_code(&a);
}

static void done(void)
{
	ima_audit_free(&a);
	memset(&opts, 0, sizeof(opts));
}

/* the policy the run must find recorded (--expect-policy), named name */
static void expect_policy(const char *text, const char *name)
{
	opts.expect_policy = (const uint8_t *)text;
	opts.expect_policy_len = strlen(text);
	opts.expect_policy_name = name;
}

/* number of failures of class cls (at index, or anywhere: UINT64_MAX-1) */
#define ANY (UINT64_MAX - 1)
static size_t count(int cls, uint64_t index)
{
	size_t i, n = 0;

	for (i = 0; i < a.nfailures; i++)
		if (a.failures[i].cls == cls &&
		    (index == ANY || a.failures[i].index == index))
			n++;
	return n;
}

static void test_unbound(void **state)
{
	static struct list l;
	uint8_t pcr10[32];

	memset(&l, 0, sizeof(l));
	add_file(&l, 10, "/bin/a");
	add_file(&l, 11, "/bin/on11");
	add_file(&l, 10, "/bin/b");
	memcpy(pcr10, l.pcr[10], 32);

	give(&opts.pcrs, IMA_BANK_SHA256, 10, pcr10);
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(a.failure_count, 1);
	assert_int_equal(count(IMA_FC_UNBOUND_PCR, 1), 1);
	done();

	/* waived: passes, the waiver counted */
	give(&opts.pcrs, IMA_BANK_SHA256, 10, pcr10);
	opts.ignore_pcrs = 1u << 11;
	assert_int_equal(run(&l), IMA_EXIT_OK);
	assert_int_equal(a.waived_entries[11], 1);
	done();

	/* a wrong value for PCR 11 binds it and fails as a mismatch */
	give(&opts.pcrs, IMA_BANK_SHA256, 10, pcr10);
	give(&opts.pcrs, IMA_BANK_SHA256, 11, pcr10);
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(count(IMA_FC_PCR_MISMATCH, IMA_NO_INDEX), 1);
	assert_int_equal(count(IMA_FC_UNBOUND_PCR, ANY), 0);
	done();
}

static void test_sha1_binds_nothing(void **state)
{
	static struct list l;
	uint8_t one[20];

	memset(&l, 0, sizeof(l));
	add_file(&l, 10, "/bin/a");
	memset(one, 1, sizeof(one));
	give(&opts.pcrs, IMA_BANK_SHA1, 10, one);
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(count(IMA_FC_UNBOUND_PCR, 0), 1);
	assert_int_equal(a.bound, 0);
	done();
}

static void test_coverage(void **state)
{
	static struct list l;
	static const uint8_t zero[32];
	uint8_t early[32];

	memset(&l, 0, sizeof(l));
	add_file(&l, 10, "/bin/a");
	add_file(&l, 10, "/bin/b");
	memcpy(early, l.pcr[10], 32);
	add_file(&l, 10, "/bin/c");
	add_file(&l, 10, "/bin/d");

	give(&opts.pcrs, IMA_BANK_SHA256, 10, early);
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(a.failure_count, 2);
	assert_int_equal(count(IMA_FC_UNCOVERED, 2), 1);
	assert_int_equal(count(IMA_FC_UNCOVERED, 3), 1);
	assert_int_equal(a.failures[0].offset > 0, 1);
	done();

	give(&opts.pcrs, IMA_BANK_SHA256, 10, early);
	opts.allow_uncovered = true;
	assert_int_equal(run(&l), IMA_EXIT_OK);
	assert_int_equal(a.uncovered_allowed, 2);
	done();

	/* covering nothing never passes, even allowed */
	give(&opts.pcrs, IMA_BANK_SHA256, 10, zero);
	opts.allow_uncovered = true;
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(a.failure_count, 1);
	assert_int_equal(count(IMA_FC_PCR_COVERS_NOTHING, IMA_NO_INDEX), 1);
	done();

	/* the same with a sha1 value that matches all and a sha256 value
	 * that matches none: no common prefix */
	give(&opts.pcrs, IMA_BANK_SHA256, 10, early);
	opts.pcrs.have[IMA_BANK_SHA256] = 1u << 10;
	opts.pcrs.val[IMA_BANK_SHA256][10][0] ^= 1;
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(count(IMA_FC_PCR_MISMATCH, IMA_NO_INDEX), 1);
	assert_int_equal(count(IMA_FC_UNCOVERED, ANY), 0);
	done();
}

/* run l with its own sha256 PCR 10 given: every entry bound, covered */
static int run_own(const struct list *l)
{
	give(&opts.pcrs, IMA_BANK_SHA256, 10, l->pcr[10]);
	return run(l);
}

/* the run passed, the recorded policy (the one expected) at entry index */
static void passes_with_policy_at(int rc, uint64_t index)
{
	assert_int_equal(rc, IMA_EXIT_OK);
	assert_true(a.policy_found);
	assert_int_equal(a.policy_index, index);
}

/* with the quote qc and its boot_aggregate check waived: passes, waived */
static void passes_boot_waived(const struct list *l,
			       const struct ima_quote_check *qc)
{
	opts.quote = qc;
	opts.allow_unverified_boot = true;
	assert_int_equal(run(l), IMA_EXIT_OK);
	assert_true(a.boot_waived);
	done();
}

/* a kernel's hand-over to the next: kexec_load, then kexec_execute */
static void add_handover(struct list *l)
{
	add_kexec(l, "kexec_load", 0, 0, 65536);
	add_kexec(l, "kexec_execute", 0, 0, 65536);
}

/* l fails, with exactly one failure: a kexec-handover one at index */
static void fails_once(const struct list *l, uint64_t index)
{
	assert_int_equal(run_own(l), IMA_EXIT_FAIL);
	assert_int_equal(count(IMA_FC_KEXEC, index), 1);
	assert_int_equal(a.failure_count, 1);
}

/* two kernels: boot, files, kexec_load, files, kexec_execute, boot, files */
static void kexec_list(struct list *l, long dn, long db, unsigned long seg)
{
	memset(l, 0, sizeof(*l));
	add_boot(l);
	add_file(l, 10, "/bin/a");
	add_kexec(l, "kexec_load", 0, 0, 65536);
	add_file(l, 10, "/bin/b");
	add_kexec(l, "kexec_execute", dn, db, seg);
	add_boot(l);
	add_file(l, 10, "/bin/c");
}

static void test_kexec_handover(void **state)
{
	static struct list l;
	const struct ima_handover *h;
	uint64_t v[3];
	const char *why;
	static const char *const bad[] = {
		"",
		"kexec_segment_size=1;ima_binary_runtime_size=2;",
		"ima_binary_runtime_size=2;kexec_segment_size=1;ima_runtime_measurements_count=3;",
		"kexec_segment_size=01;ima_binary_runtime_size=2;ima_runtime_measurements_count=3;",
		"kexec_segment_size=1;ima_binary_runtime_size=2;ima_runtime_measurements_count=3",
		"kexec_segment_size=1;ima_binary_runtime_size=2;ima_runtime_measurements_count=3;x",
		"kexec_segment_size=-1;ima_binary_runtime_size=2;ima_runtime_measurements_count=3;",
		"kexec_segment_size=;ima_binary_runtime_size=2;ima_runtime_measurements_count=3;",
		"kexec_segment_size=12345678901234567890;ima_binary_runtime_size=2;ima_runtime_measurements_count=3;",
	};
	size_t i;

	/* the parser: the kernel's format, and nothing else */
	why = NULL;
	assert_int_equal(ima_kexec_parse((const uint8_t *)
		"kexec_segment_size=77824;ima_binary_runtime_size=59191;ima_runtime_measurements_count=150;",
		90, v, &why), 0);
	assert_true(v[0] == 77824 && v[1] == 59191 && v[2] == 150);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		assert_int_equal(ima_kexec_parse((const uint8_t *)bad[i],
						 strlen(bad[i]), v, &why), -1);
		assert_non_null(why);
	}

	/* an honest hand-over passes, and the report has it */
	kexec_list(&l, 0, 0, 65536);
	assert_int_equal(run_own(&l), IMA_EXIT_OK);
	assert_int_equal(a.kernels, 2);
	assert_int_equal(a.kexec_loads, 1);
	assert_int_equal(a.nhandovers, 1);
	h = &a.handovers[0];
	assert_true(h->ok && h->index == 4 && h->count == 4);
	assert_int_equal(a.boot, IMA_BOOT_NOT_CHECKED);
	done();

	/* counts one entry more than precede it */
	kexec_list(&l, 1, 0, 65536);
	fails_once(&l, 4);
	assert_false(a.handovers[0].ok);
	done();

	/* a binary size other than the entries before it */
	kexec_list(&l, 0, -1, 65536);
	fails_once(&l, 4);
	done();

	/* the segment smaller than the list: a truncated hand-over */
	kexec_list(&l, 0, 0, 100);
	fails_once(&l, 4);
	done();

	/* a later boot_aggregate with no kexec_execute before it */
	memset(&l, 0, sizeof(l));
	add_boot(&l);
	add_file(&l, 10, "/bin/a");
	add_boot(&l);
	fails_once(&l, 2);
	assert_int_equal(a.kernels, 2);
	done();

	/* two kexec_execute records: the first is not followed by a boot */
	memset(&l, 0, sizeof(l));
	add_boot(&l);
	add_kexec(&l, "kexec_execute", 0, 0, 65536);
	add_kexec(&l, "kexec_execute", 0, 0, 65536);
	add_boot(&l);
	fails_once(&l, 1);
	assert_int_equal(a.nhandovers, 2);
	assert_false(a.handovers[0].ok);
	assert_true(a.handovers[1].ok);
	done();

	/* a kexec_execute in the middle of a kernel's entries */
	memset(&l, 0, sizeof(l));
	add_boot(&l);
	add_kexec(&l, "kexec_execute", 0, 0, 65536);
	add_file(&l, 10, "/bin/a");
	fails_once(&l, 1);
	done();

	/* the list ends with a kexec_execute */
	memset(&l, 0, sizeof(l));
	add_boot(&l);
	add_kexec(&l, "kexec_execute", 0, 0, 65536);
	fails_once(&l, 1);
	done();

	/* malformed text, in a load record and in an execute record */
	memset(&l, 0, sizeof(l));
	add_boot(&l);
	add_buf(&l, "kexec_load", "kexec_segment_size=1;");
	add_buf(&l, "kexec_execute", "segment=1");
	add_boot(&l);
	assert_int_equal(run_own(&l), IMA_EXIT_FAIL);
	assert_int_equal(count(IMA_FC_KEXEC, 1), 1);
	assert_int_equal(count(IMA_FC_KEXEC, 2), 1);
	assert_int_equal(a.failure_count, 2);
	done();
}

/*
 * A list across a kexec: the recorded policy must be the last kernel's.
 * A policy only the first kernel recorded says nothing of the running one.
 */
static void test_policy_of_last_kernel(void **state)
{
	static struct list l;
	static const char strict[] = "appraise func=BPRM_CHECK\n";
	uint8_t before[32];

	/* 0 boot, 1 policy, 2 kexec_load, 3 kexec_execute, 4 boot, 5 file */
	memset(&l, 0, sizeof(l));
	add_boot(&l);
	add_policy(&l, 10, strict);
	add_handover(&l);
	memcpy(before, l.pcr[10], 32);
	add_boot(&l);
	add_file(&l, 10, "/bin/a");
	expect_policy(strict, "strict");
	assert_int_equal(run_own(&l), IMA_EXIT_FAIL);
	assert_false(a.policy_found);
	assert_int_equal(a.kernel_start, 4);
	assert_int_equal(count(IMA_FC_POLICY, IMA_NO_INDEX), 1);
	assert_int_equal(a.failure_count, 1);
	done();

	/*
	 * values that cover the list up to the kexec_execute only, with
	 * --allow-uncovered: the second kernel began after what they vouch
	 * for, so the first kernel's policy is the one at the covered point
	 */
	give(&opts.pcrs, IMA_BANK_SHA256, 10, before);
	opts.allow_uncovered = true;
	expect_policy(strict, "strict");
	passes_with_policy_at(run(&l), 1);
	assert_int_equal(a.kernel_start, 0);
	assert_int_equal(a.uncovered_allowed, 2);
	done();

	/* the second kernel records its policy too: that one is it */
	add_policy(&l, 10, strict);
	expect_policy(strict, "strict");
	passes_with_policy_at(run_own(&l), 6);
	done();
}

/*
 * A record with a digest and an empty buf is a file measurement (the
 * kernel measures no empty buffer): an unsigned empty file's ima-sig
 * record renamed ima-buf still fails --require-signatures.
 */
/* the list's own values for PCRs 10, 11 and 12 */
static int run_pcrs(const struct list *l)
{
	int p;

	for (p = 10; p <= 12; p++)
		give(&opts.pcrs, IMA_BANK_SHA256, p, l->pcr[p]);
	return run(l);
}

/*
 * The TPM orders records on one PCR only: which policy record is the last
 * kernel's last is attributed by same-PCR order and the count a
 * kexec_execute record carries, never by list order across PCRs (a swap
 * of records on different PCRs changes no replay). Before, the policy was
 * the last by index, on whatever PCR.
 */
static void test_policy_across_pcrs(void **state)
{
	static struct list l;
	static const char strict[] = "appraise func=BPRM_CHECK\n";
	static const char permissive[] = "measure func=BPRM_CHECK\n";

	/* one kernel, two different policies on PCRs 10 and 11 */
	memset(&l, 0, sizeof(l));
	add_boot(&l);
	add_policy(&l, 11, strict);
	add_policy(&l, 10, permissive);
	expect_policy(permissive, "permissive");
	assert_int_equal(run_pcrs(&l), IMA_EXIT_FAIL);
	assert_false(a.policy_found);
	assert_true(a.policy_unattributed);
	assert_int_equal(a.nunattributed, 2);
	assert_int_equal(count(IMA_FC_POLICY, IMA_NO_INDEX), 1);
	assert_int_equal(a.failure_count, 1);
	done();
	/* the same text on both PCRs: whichever is last, it is this one */
	memset(&l, 0, sizeof(l));
	add_boot(&l);
	add_policy(&l, 11, strict);
	add_policy(&l, 10, strict);
	expect_policy(strict, "strict");
	passes_with_policy_at(run_pcrs(&l), 2);
	done();

	/*
	 * two kernels: 0 boot, 1 policy (PCR 11), 2 kexec_load, 3
	 * kexec_execute (counts 3 entries, 2 on PCR 10: at most one PCR 11
	 * record before the hand-over), 4 boot, 5 policy (PCR 11)
	 */
	memset(&l, 0, sizeof(l));
	add_boot(&l);
	add_policy(&l, 11, strict);
	add_handover(&l);
	add_boot(&l);
	expect_policy(strict, "strict");
	assert_int_equal(run_pcrs(&l), IMA_EXIT_FAIL);
	assert_true(a.policy_unattributed);	/* entry 1 may be either's */
	assert_int_equal(a.unattributed[0], 1);
	done();
	add_policy(&l, 11, permissive);
	expect_policy(permissive, "permissive");
	passes_with_policy_at(run_pcrs(&l), 5);
	assert_int_equal(a.kernel_start, 4);
	done();
}

static void test_empty_buffer_is_file(void **state)
{
	static struct list l;
	uint8_t d[40], h[32];

	memset(&l, 0, sizeof(l));
	add_boot(&l);
	sha(EVP_sha256(), "", 0, h);
	dng(d, h);
	add(&l, 10, "ima-buf", 3, d, (size_t)40, "/etc/x", (size_t)7, "",
	    (size_t)0);
	opts.require_signatures = true;
	assert_int_equal(run_own(&l), IMA_EXIT_FAIL);
	assert_int_equal(count(IMA_FC_UNSIGNED, 1), 1);
	assert_int_equal(a.buf_checked, 0);
	assert_int_equal(a.failure_count, 1);
	done();

	/* without the requirement it passes, as an unsigned file would */
	assert_int_equal(run_own(&l), IMA_EXIT_OK);
	assert_int_equal(a.sig.unsigned_, 1);
	done();
}

/* the active policy under its upstream name; ima_policy_update is not it */
static void test_policy_loaded_name(void **state)
{
	static struct list l;
	static const char pol[] = "measure func=BPRM_CHECK\n";

	memset(&l, 0, sizeof(l));
	add_buf(&l, "ima_policy_loaded", pol);
	add_buf(&l, "ima_policy_update", "dont_measure\n");
	expect_policy(pol, "pol");
	passes_with_policy_at(run_own(&l), 0);
	assert_int_equal(a.policy_match, 1);
	done();

	/* only an update record: no recorded policy, which fails */
	memset(&l, 0, sizeof(l));
	add_buf(&l, "ima_policy_update", pol);
	expect_policy(pol, "pol");
	assert_int_equal(run_own(&l), IMA_EXIT_FAIL);
	assert_false(a.policy_found);
	done();
}

static void test_policy_bound_covered(void **state)
{
	static struct list l;
	static const char strict[] = "appraise func=BPRM_CHECK\n";
	static const char loose[] = "measure func=BPRM_CHECK\n";
	uint8_t cover[32];

	memset(&l, 0, sizeof(l));
	add_file(&l, 10, "/bin/a");
	add_policy(&l, 10, strict);		/* 1: the recorded one */
	add_policy(&l, 11, loose);		/* 2: unbound */
	memcpy(cover, l.pcr[10], 32);
	add_policy(&l, 10, loose);		/* 3: uncovered */

	give(&opts.pcrs, IMA_BANK_SHA256, 10, cover);
	opts.ignore_pcrs = 1u << 11;
	opts.allow_uncovered = true;
	expect_policy(loose, "loose");
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_true(a.policy_found);
	assert_int_equal(a.policy_index, 1);
	assert_int_equal(a.policy_len, strlen(strict));
	assert_int_equal(count(IMA_FC_POLICY, 1), 1);
	assert_int_equal(a.failure_count, 1);
	done();

	/* nothing bound: no recorded policy at all */
	opts.ignore_pcrs = 1u << 10 | 1u << 11;
	expect_policy(strict, "strict");
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_false(a.policy_found);
	assert_int_equal(count(IMA_FC_POLICY, IMA_NO_INDEX), 1);
	done();
}

/*
 * A violation's data is hashed by nothing (0xff.. is extended): rewritten
 * as a policy record it replays the same and must not become the policy.
 */
static void test_violation_attests_nothing(void **state)
{
	static const char strict[] = "appraise func=BPRM_CHECK\n";
	static const char perm[] = "measure func=BPRM_CHECK\n";
	static struct list l;

	memset(&l, 0, sizeof(l));
	add_file(&l, 10, "/bin/a");
	add_policy(&l, 10, strict);
	add_violation_policy(&l, perm);
	add_file(&l, 10, "/bin/b");

	give(&opts.pcrs, IMA_BANK_SHA256, 10, l.pcr[10]);
	expect_policy(perm, "perm");
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(a.violations, 1);
	assert_int_equal(a.policy_index, 1);
	assert_int_equal(a.failure_count, 1);
	assert_int_equal(count(IMA_FC_POLICY, 1), 1);
	done();

	give(&opts.pcrs, IMA_BANK_SHA256, 10, l.pcr[10]);
	expect_policy(strict, "strict");
	assert_int_equal(run(&l), IMA_EXIT_OK);
	assert_int_equal(a.policy_index, 1);
	done();
}

/*
 * Template names are hashed by nothing: a record renamed so that it lacks
 * a name, a digest or a buf field keeps the checks it had, and a policy
 * record renamed out of the policy choice fails.
 */
static void test_template_renamed(void **state)
{
	static const char strict[] = "appraise func=BPRM_CHECK\n";
	static const char perm[] = "measure func=BPRM_CHECK\n";
	static const char mf[] =
		"0000000000000000000000000000000000000000000000000000000000000000  /bin/x\n";
	static struct list l;
	uint8_t d[40], h[32];
	char err[200];

	memset(&l, 0, sizeof(l));
	add_file_as(&l, "d-ng|xattrnames", "/bin/evil");
	add_file_as(&l, "xattrnames|n-ng", "/bin/evil");
	sha(EVP_sha256(), "/bin/evil", 9, h);
	dng(d, h);
	add(&l, 10, "xattrnames|n-ng|buf", 3, d, (size_t)40, "/bin/evil",
	    (size_t)10, "", (size_t)0);
	give(&opts.pcrs, IMA_BANK_SHA256, 10, l.pcr[10]);
	opts.require_signatures = true;
	opts.manifest = ima_manifest_new();
	assert_non_null(opts.manifest);
	assert_int_equal(ima_manifest_parse(opts.manifest, mf, strlen(mf),
					    "mf", err, sizeof(err)), 0);
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(count(IMA_FC_UNSIGNED, 0), 1);
	assert_int_equal(count(IMA_FC_MANIFEST_PATH, 0), 1);
	assert_int_equal(count(IMA_FC_UNSIGNED, 1), 1);
	assert_int_equal(count(IMA_FC_MANIFEST_DIGEST, 1), 1);
	assert_int_equal(count(IMA_FC_BUF_DIGEST, 2), 1);
	assert_int_equal(a.failure_count, 5);
	ima_manifest_free(opts.manifest);
	done();

	/* a later policy renamed: without a buf, or without a name */
	memset(&l, 0, sizeof(l));
	add_policy(&l, 10, strict);
	sha(EVP_sha256(), perm, strlen(perm), h);
	dng(d, h);
	add(&l, 10, "d-ng|n-ng|evmsig", 3, d, (size_t)40, "ima_policy",
	    (size_t)11, perm, strlen(perm));
	add(&l, 10, "d-ng|iuid|buf", 3, d, (size_t)40, "ima_policy",
	    (size_t)11, perm, strlen(perm));
	give(&opts.pcrs, IMA_BANK_SHA256, 10, l.pcr[10]);
	expect_policy(strict, "strict");
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(count(IMA_FC_POLICY, 1), 1);
	assert_int_equal(count(IMA_FC_POLICY, 2), 1);
	assert_int_equal(a.failure_count, 2);
	done();

	/* control: the same records under their own names pass */
	memset(&l, 0, sizeof(l));
	add_policy(&l, 10, strict);
	add_file_as(&l, "ima-ng", "/bin/x");
	give(&opts.pcrs, IMA_BANK_SHA256, 10, l.pcr[10]);
	expect_policy(strict, "strict");
	assert_int_equal(run(&l), IMA_EXIT_OK);
	done();
}

/*
 * A hostile list fails every record, with long paths: every failure is
 * counted, the first N of each class kept with its path cut to
 * IMA_PATH_KEEP bytes (its length kept), the rest counted per class and
 * reported as not listed. Before, each of up to 100,000 failures kept a
 * copy of its whole path (a 22 MB list peaked at 4.3x its size in RSS).
 */
static void test_failures_bounded(void **state)
{
	static struct list l;
	char path[600], line[64];
	size_t i, listed = 0;
	FILE *f;
	char *text = NULL, *p;
	size_t tlen = 0;

	memset(&l, 0, sizeof(l));
	memset(path, 'p', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	for (i = 0; i < 10; i++) {
		path[1] = (char)('a' + i);
		add_file(&l, 11, path);	/* unbound and unsigned */
	}
	opts.require_signatures = true;
	opts.failures_per_class = 3;
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(a.failure_count, 20);
	assert_int_equal(a.class_count[IMA_FC_UNSIGNED], 10);
	assert_int_equal(a.class_count[IMA_FC_UNBOUND_PCR], 10);
	assert_int_equal(a.class_kept[IMA_FC_UNSIGNED], 3);
	assert_int_equal(a.nfailures, 6);
	for (i = 0; i < a.nfailures; i++) {
		assert_int_equal(strlen(a.failures[i].path), IMA_PATH_KEEP);
		assert_int_equal(a.failures[i].path_len, sizeof(path) - 1);
		assert_true(a.failures[i].index < 3);	/* the first ones */
	}
	/* the text report (-v) says what it left out, per class */
	opts.verbose = true;
	f = open_memstream(&text, &tlen);
	ima_report_failures(&a, f);
	fclose(f);
	assert_non_null(strstr(text, "FAIL: ... 7 more unsigned failures not listed\n"));
	assert_non_null(strstr(text, "FAIL: ... 7 more unbound-pcr failures not listed\n"));
	snprintf(line, sizeof(line), "...(%zu bytes): ", sizeof(path) - 1);
	for (p = text; (p = strstr(p, line)); p++)
		listed++;
	assert_int_equal(listed, 6);
	free(text);
	/*
	 * without -v, each class of more than IMA_COLLAPSE_OVER failures is
	 * one line: its count (listed or not), its entries, the first one
	 * and what to do; nothing else of it
	 */
	opts.verbose = false;
	text = NULL;
	f = open_memstream(&text, &tlen);
	ima_report_failures(&a, f);
	fclose(f);
	assert_non_null(strstr(text, "FAIL: 10 unbound-pcr failures (entries 0..9; -v lists each); the first: entry 0 @"));
	assert_non_null(strstr(text, "FAIL: 10 unsigned failures (entries 0..9; -v lists each); the first: entry 0 @"));
	assert_non_null(strstr(text, ". To fix: Nothing binds this PCR: give its values (--pcrs FILE"));
	assert_null(strstr(text, "not listed"));
	for (listed = 0, p = text; (p = strchr(p, '\n')); p++)
		listed++;
	assert_int_equal(listed, 2);
	free(text);
	done();

	/* the default keeps IMA_FAILURES_PER_CLASS of each */
	opts.require_signatures = true;
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(a.nfailures, 20);
	done();
}

static void test_quote_verdicts(void **state)
{
	static struct ima_quote_check qc;
	static struct list l;
	int i;

	memset(&l, 0, sizeof(l));
	add_boot(&l);
	add_file(&l, 10, "/bin/a");

	/* a failed quote: its reason, "unattested", nothing else, and the
	 * values given with it are dropped */
	memset(&qc, 0, sizeof(qc));
	qc.nreasons = 1;
	qc.reason_class[0] = IMA_FC_QUOTE_NONCE;
	strcpy(qc.reasons[0], "quote: nonce");
	give(&qc.pcrs, IMA_BANK_SHA256, 10, l.pcr[10]);
	give(&opts.pcrs, IMA_BANK_SHA256, 10, l.pcr[10]);
	opts.quote = &qc;
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(a.failure_count, 2);
	assert_int_equal(count(IMA_FC_QUOTE_NONCE, IMA_NO_INDEX), 1);
	assert_int_equal(count(IMA_FC_QUOTE_UNATTESTED, IMA_NO_INDEX), 1);
	assert_int_equal(opts.pcrs.have[IMA_BANK_SHA256], 0);
	done();

	/* a verified quote over PCR 10 only: boot_aggregate unverified */
	qc.nreasons = 0;
	qc.pcrs_ok = true;
	opts.quote = &qc;
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(a.failure_count, 1);
	assert_int_equal(count(IMA_FC_BOOT_UNVERIFIED, 0), 1);
	done();

	passes_boot_waived(&l, &qc);

	/* with PCRs 0-9 in the quote: checked, passes */
	for (i = 0; i < 10; i++)
		give(&qc.pcrs, IMA_BANK_SHA256, i, l.boot[i]);
	opts.quote = &qc;
	assert_int_equal(run(&l), IMA_EXIT_OK);
	assert_int_equal(a.boot, IMA_BOOT_MATCH);
	done();

	/* an empty list: no boot_aggregate (PCR 10 quoted as zeros) */
	memset(&l, 0, sizeof(l));
	give(&qc.pcrs, IMA_BANK_SHA256, 10, l.pcr[10]);
	opts.quote = &qc;
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(a.failure_count, 1);
	assert_int_equal(count(IMA_FC_BOOT_UNVERIFIED, IMA_NO_INDEX), 1);
	done();

	passes_boot_waived(&l, &qc);

	/* a zero boot_aggregate (no TPM) in a list a TPM quoted */
	memset(&l, 0, sizeof(l));
	{
		static const uint8_t zero[32];
		uint8_t d[40];

		dng(d, zero);
		add(&l, 10, "ima-ng", 2, d, (size_t)40, "boot_aggregate",
		    (size_t)15);
	}
	add_file(&l, 10, "/bin/a");
	give(&qc.pcrs, IMA_BANK_SHA256, 10, l.pcr[10]);
	opts.quote = &qc;
	assert_int_equal(run(&l), IMA_EXIT_FAIL);
	assert_int_equal(a.boot, IMA_BOOT_ZERO);
	assert_int_equal(a.failure_count, 1);
	assert_int_equal(count(IMA_FC_BOOT_UNVERIFIED, 0), 1);
	done();
}

/*
 * Every allocation of a run with a failing signature fails in turn: the
 * result is the full run's (exit 1, the same failures) or exit 3, never
 * a pass and never fewer failures.
 */
static void test_alloc_failures(void **state)
{
	static struct list l;
	uint8_t pcr10[32];
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	char path[64], err[300];
	uint64_t want;
	long n, total, exit3 = 0;
	int rc;

	assert_non_null(k);
	test_pubkey_pem(k, "verdict", path, sizeof(path));
	EVP_PKEY_free(k);

	memset(&l, 0, sizeof(l));
	add_file(&l, 10, "/bin/a");
	add_policy(&l, 10, "measure func=BPRM_CHECK\n");
	add_signed(&l, 10, "/bin/signed");	/* unknown key id: a failure */
	memcpy(pcr10, l.pcr[10], 32);

	for (n = 0;; n++) {
		memset(&opts, 0, sizeof(opts));
		assert_int_equal(ima_keyring_load(&opts.keys, path, err,
						  sizeof(err)), 0);
		give(&opts.pcrs, IMA_BANK_SHA256, 10, pcr10);
		opts.jobs = 2;
		expect_policy("measure func=BPRM_CHECK\n", "p");
		__atomic_store_n(&nalloc, 0, __ATOMIC_SEQ_CST);
		__atomic_store_n(&fail_at, n, __ATOMIC_SEQ_CST);
		rc = run(&l);
		__atomic_store_n(&fail_at, 0, __ATOMIC_SEQ_CST);
		total = __atomic_load_n(&nalloc, __ATOMIC_SEQ_CST);
		if (!n) {
			assert_int_equal(rc, IMA_EXIT_FAIL);
			want = a.failure_count;
			assert_int_equal(want, 1);
			assert_int_equal(count(IMA_FC_UNKNOWN_KEY, 2), 1);
		} else if (rc == IMA_EXIT_MALFORMED || rc < 0) {
			exit3++;
		} else {
			assert_int_equal(rc, IMA_EXIT_FAIL);
			assert_int_equal(a.failure_count, want);
		}
		if (rc >= 0)
			ima_audit_free(&a);
		ima_keyring_free(&opts.keys);
		if (n && n > total)
			break;	/* every allocation of the run has failed once */
	}
	print_message("%ld allocations, %ld of their failures exit 3\n",
		      total, exit3);
	assert_true(exit3 > 0);
	unlink(path);
	memset(&opts, 0, sizeof(opts));
}

/* Workers kept across audits (a daemon's case) give each audit its own
 * result: the replay thread with a tail, then the pool with a key. */
static void test_shared_workers(void **state)
{
	static struct list l;
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	char path[64], err[300];
	uint8_t early[32];
	struct hashq *q;
	struct ima_pool *p;
	int i;

	memset(&l, 0, sizeof(l));
	add_file(&l, 10, "/bin/a");
	memcpy(early, l.pcr[10], 32);
	add_signed(&l, 10, "/bin/s1");
	add_signed(&l, 10, "/bin/s2");

	opts.jobs = 2;
	q = ima_audit_hashq_new(&opts);
	assert_non_null(q);
	for (i = 0; i < 3; i++) {
		memset(&opts.pcrs, 0, sizeof(opts.pcrs));
		give(&opts.pcrs, IMA_BANK_SHA256, 10, i == 1 ? early : l.pcr[10]);
		opts.jobs = 2;
		opts.hashq = q;
		assert_int_equal(run(&l), i == 1 ? IMA_EXIT_FAIL : IMA_EXIT_OK);
		assert_int_equal(a.failure_count, i == 1 ? 2 : 0);
		assert_int_equal(a.replay.count[10], 3);
		ima_audit_free(&a);
	}
	ima_audit_hashq_free(q);
	memset(&opts, 0, sizeof(opts));

	assert_non_null(k);
	test_pubkey_pem(k, "shared", path, sizeof(path));
	EVP_PKEY_free(k);
	assert_int_equal(ima_keyring_load(&opts.keys, path, err, sizeof(err)),
			 0);
	opts.jobs = 2;
	p = ima_audit_pool_new(&opts);
	assert_non_null(p);
	for (i = 0; i < 3; i++) {
		memset(&opts.pcrs, 0, sizeof(opts.pcrs));
		give(&opts.pcrs, IMA_BANK_SHA256, 10, l.pcr[10]);
		opts.pool = p;
		assert_int_equal(run(&l), IMA_EXIT_FAIL);
		/* two unknown key ids, every time */
		assert_int_equal(count(IMA_FC_UNKNOWN_KEY, ANY), 2);
		assert_int_equal(a.failure_count, 2);
		ima_audit_free(&a);
	}
	ima_pool_finish(p);
	ima_keyring_free(&opts.keys);
	unlink(path);
	memset(&opts, 0, sizeof(opts));
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_unbound),
	cmocka_unit_test(test_sha1_binds_nothing),
	cmocka_unit_test(test_coverage),
	cmocka_unit_test(test_policy_bound_covered),
	cmocka_unit_test(test_kexec_handover),
	cmocka_unit_test(test_policy_loaded_name),
	cmocka_unit_test(test_policy_of_last_kernel),
	cmocka_unit_test(test_policy_across_pcrs),
	cmocka_unit_test(test_empty_buffer_is_file),
	cmocka_unit_test(test_violation_attests_nothing),
	cmocka_unit_test(test_template_renamed),
	cmocka_unit_test(test_failures_bounded),
	cmocka_unit_test(test_quote_verdicts),
	cmocka_unit_test(test_alloc_failures),
	cmocka_unit_test(test_shared_workers))
