/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The audit: walks the measurement list once and checks template hashes,
 * PCR replay, boot_aggregate, signatures, the manifest and the policy.
 */
#ifndef IMA_AUDIT_H
#define IMA_AUDIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ima_deny.h"
#include "ima_exclude.h"
#include "ima_keylime.h"
#include "ima_listkeys.h"
#include "ima_log.h"
#include "ima_manifest.h"
#include "ima_pcr.h"
#include "ima_sig.h"
#include "ima_verdict.h"

struct ima_quote_check;

enum ima_exit {
	IMA_EXIT_OK = 0,
	IMA_EXIT_FAIL = 1,
	IMA_EXIT_USAGE = 2,
	IMA_EXIT_MALFORMED = 3,
};

#define IMA_NO_INDEX UINT64_MAX
#define IMA_MAX_TEMPLATE_KINDS 16
/*
 * What a hostile list can make the audit keep and print: every failure is
 * counted, the first IMA_FAILURES_PER_CLASS of each class are kept (the
 * rest counted per class and reported as not listed), and a kept path is
 * cut to IMA_PATH_KEEP bytes (its length kept).
 */
#define IMA_FAILURES_PER_CLASS 100
#define IMA_PATH_KEEP 256
#define IMA_REASON_MAX 1024	/* a reason, escaped, with its NUL */
/* the text report lists a class's failures one a line up to this many;
 * more become one line with the count and what to do (-v: all) */
#define IMA_COLLAPSE_OVER 3

struct ima_audit_opts {
	struct ima_reader_opts reader;
	const char *input_name;		/* shown in the report */
	uint32_t pcr_mask;		/* PCRs reported, default PCR 10 */
	uint32_t banks;			/* banks replayed */
	struct ima_pcr_values pcrs;	/* expected values */
	struct ima_keyring keys;
	bool require_signatures;
	bool require_coverage;		/* uncovered entries are failures */
	struct ima_manifest *manifest;
	const uint8_t *expect_policy;	/* NULL: not checked */
	size_t expect_policy_len;
	const char *expect_policy_name;
	int jobs;			/* verification threads, 0: inline */
	bool verbose;			/* -v: every failure on its line */
	unsigned int cache_slots;	/* verify-once cache, power of 2 up to
					 * 65536; 0: 65536 (fuzzers: small) */
	/*
	 * Signature workers kept across audits (ima_audit_pool_new), or
	 * NULL: each audit starts and joins its own. The pool's verifiers
	 * use these opts' keys, which must not change while it lives.
	 */
	struct ima_pool *pool;
	struct hashq *hashq;		/* the same for the replay thread */
	unsigned int failures_per_class;	/* kept; 0: the default */
	size_t hashq_bufsz;		/* PCR replay queue buffers (4 of them);
					 * 0: 256 KiB (fuzzers: small) */
	/*
	 * What binds the list. A PCR is bound when a value of a bank other
	 * than sha1 is given for it (pcrs; with a quote, the quoted values,
	 * and none if the quote failed a check). Every entry on an unbound
	 * PCR fails unless the PCR is in ignore_pcrs; every entry after the
	 * last prefix at which all given banks of its PCR match fails unless
	 * allow_uncovered. Only bound, covered entries can be the recorded
	 * policy.
	 */
	uint32_t ignore_pcrs;		/* --ignore-pcr: waived, reported */
	bool allow_uncovered;		/* uncovered tails reported only */
	bool allow_unverified_boot;	/* with a quote: waive boot_aggregate */
	bool allow_sha1;		/* sha1 values bind too (waiver) */
	const struct ima_quote_check *quote;	/* verified quote, or NULL */
	/*
	 * --ca: keys from the list's .ima records, chained to the CA, verify
	 * signatures whose key id no --key has; each counts only if its
	 * record is bound and covered (ima_listkeys.h). NULL: not used.
	 */
	struct ima_listkeys *listkeys;
	/* --deny: an entry whose digest is listed fails (ima_deny.h) */
	const struct ima_denylist *deny;
	/*
	 * --exclude and a Keylime policy's excludes: a file whose path
	 * matches is never judged (signatures, manifest); its record is
	 * still hashed, replayed, bound and checked against --deny
	 */
	const struct ima_excludes *excludes;
	/* --manifest given a Keylime runtime policy: what it says besides
	 * its digests, which are in manifest (ima_keylime.h) */
	const struct ima_keylime *keylime;
	/*
	 * --write-keylime: every entry the audit proves (its verdict ok:
	 * bound, covered, no failure names it, the audit complete) is added
	 * to this policy: a file's digest by path, a key's by keyring, a
	 * buffer's by name. NULL: none written.
	 */
	struct ima_keylime_out *keylime_out;
	const char *keylime_out_name;		/* shown in the report */
	/* every record read, after its checks (the page's entry table) */
	void (*on_record)(void *ctx, const struct ima_record *rec);
	void *record_ctx;
};

enum ima_fail_kind {
	IMA_FK_RECORD,		/* template hash, fields, template */
	IMA_FK_BOOT,
	IMA_FK_SIG,
	IMA_FK_MODSIG,
	IMA_FK_MANIFEST,
	IMA_FK_GLOBAL,		/* PCR, policy */
};

/*
 * What a failure names besides its entry and reason (the JSON report's
 * pcr, key_id, got, expected): got is what the list holds or replays to,
 * expected what the reference (PCR values, manifest, computation) says.
 */
struct ima_fail_detail {
	int pcr;		/* -1: none */
	bool has_keyid;
	uint32_t keyid;
	const char *got, *expected;	/* NULL: none; escaped when kept */
};

struct ima_failure {
	uint64_t index;		/* IMA_NO_INDEX for global failures */
	uint64_t offset;
	int kind;
	uint64_t seq;
	int cls;		/* enum ima_fail_class */
	char *path;		/* may be NULL; at most IMA_PATH_KEEP bytes */
	size_t path_len;	/* the path's whole length */
	char *reason;
	int pcr;		/* -1: none */
	bool has_keyid;
	uint32_t keyid;
	char *got, *expected;	/* NULL: none */
};

enum ima_boot_status {
	IMA_BOOT_ABSENT,	/* first entry is not boot_aggregate */
	IMA_BOOT_NOT_CHECKED,	/* PCR values not given */
	IMA_BOOT_MATCH,
	IMA_BOOT_MISMATCH,
	IMA_BOOT_ZERO,		/* no TPM when the list began */
	IMA_BOOT_BAD_FIELD,
};

struct ima_sig_counts {
	uint64_t verified, failed, unknown_key, unsigned_, not_checked;
	uint64_t modsig_verified, modsig_failed;
	uint64_t cache_hits;
};

/* What --json reports of a verified TPM quote (filled by the command). */
struct ima_quote_summary {
	bool tpm_generated;	/* magic and type of a TPM quote */
	bool nonce_ok, sig_ok, pcrs_ok;
	unsigned int reset_count, restart_count;
	unsigned long long clock_ms;
};

struct ima_audit {
	struct ima_audit_opts *opts;
	const struct ima_quote_summary *quote;	/* NULL without --quote */
	pthread_mutex_t lock;

	/* input */
	uint64_t bytes;
	enum ima_byte_order order;
	enum ima_list_format format;
	const struct ima_hash_algo *list_alg;	/* of the template digests */
	int list_bank;				/* its bank */
	uint64_t ascii_bytes, ascii_lines;	/* ASCII input as read */
	bool malformed, io_error;
	uint64_t error_offset;
	char error[200];

	/* per-entry results */
	uint64_t entries, violations;
	uint64_t tmpl_checked, tmpl_failed, unknown_templates;
	int ntemplates;
	struct {
		char name[IMA_MAX_NAME_LEN + 1];
		uint64_t count;
	} templates[IMA_MAX_TEMPLATE_KINDS];
	uint64_t other_templates;

	struct ima_replay replay;

	enum ima_boot_status boot;
	char boot_algo[16];
	uint8_t boot_digest[IMA_MAX_DIGEST];
	unsigned int boot_len;
	bool boot_pre_5_8;	/* matched PCRs 0-7 of a bank not sha1 */

	struct ima_sig_counts sig;

	uint64_t mf_checked, mf_match, mf_unknown, mf_wrong, mf_no_algo;
	uint64_t buf_checked, buf_failed;
	uint64_t deny_checked, denied, deny_unchecked;	/* --deny */
	uint64_t mf_by_signature;	/* Keylime: a verification key's */
	uint64_t kl_buf_checked, kl_buf_match, kl_keys_ignored;
	uint64_t excluded, exclude_untested;	/* --exclude */
	uint64_t *exclude_hits;		/* per pattern */
	/* --write-keylime: what the policy was offered, then given */
	struct ima_kl_offer *kl_offers;
	size_t nkl_offers, cap_kl_offers;
	uint64_t kl_written, kl_unproven, kl_unwritable;

	/* binding and coverage (computed at init / at the end) */
	uint32_t bound;		/* bit p: PCR p bound */
	bool quote_failed;	/* a quote was given and failed a check */
	bool oom;		/* an allocation failed: exit 3 */
	uint64_t waived_entries[IMA_NR_PCRS];	/* --ignore-pcr */
	uint64_t uncovered_allowed;	/* --allow-uncovered */
	bool boot_waived;

	/*
	 * kexec: every boot_aggregate after the first is a new kernel, which
	 * a kexec_execute record (ima_kexec) must hand over; the hand-overs
	 * are kept for the report
	 */
	uint64_t kernels, kexec_loads;
	bool exec_pending;		/* the last entry was a kexec_execute */
	uint64_t exec_index, exec_offset;
	struct ima_handover {
		uint64_t index;		/* of the kexec_execute record */
		uint64_t count, size, segment;	/* as the record states them */
		bool ok;
	} *handovers;
	size_t nhandovers, cap_handovers;
	/*
	 * The boot_aggregate of every later kernel: a policy recorded before
	 * the last one that is attested was another kernel's (pick_policy).
	 * The TPM orders records on one PCR only, so a record on another PCR
	 * is placed only by the kexec_execute record just before it: it
	 * counts the entries before it (ke_count), ke_qpos of them on its own
	 * PCR, so at most ke_count - ke_qpos on all the others.
	 */
	struct ima_kernel_start {
		uint64_t index;
		uint32_t pcr;
		bool has_ke;		/* kexec_execute just before, same PCR,
					 * its count read */
		uint64_t ke_count, ke_qpos;
	} *kstarts;
	size_t nkstarts, cap_kstarts;

	/* ima_policy entries seen; the recorded one is chosen at the end */
	struct ima_policy_entry {
		uint64_t index, offset;
		uint32_t pcr;
		uint64_t qpos;		/* entries on its PCR before it */
		uint8_t *data;
		size_t len;
	} *policies;
	size_t npolicies, cap_policies;
	bool policy_found;
	/*
	 * The last ima_policy record after the list's last boot_aggregate,
	 * bound or not: what the list claims, for --show-policy when nothing
	 * attests a policy (never a verdict)
	 */
	uint8_t *claimed_policy;
	size_t claimed_policy_len;
	uint64_t claimed_policy_index;
	uint32_t claimed_policy_pcr;
	bool has_claimed_policy;
	/* --expect-policy: the first rule that differs, as each side has it */
	char *policy_got, *policy_want;
	unsigned long policy_rule, policy_want_line;
	/*
	 * Policy records that may each be the last kernel's last, but differ
	 * (or none is surely the last kernel's): what the TPM orders does not
	 * say which is the recorded policy (policy_diff says why)
	 */
	bool policy_unattributed;
	uint64_t unattributed[IMA_NR_PCRS];
	int nunattributed;
	uint64_t kernel_start;	/* first entry of the kernel it must be of */
	uint64_t pcr_seen[IMA_NR_PCRS];	/* entries read per PCR */
	bool exec_count_ok;	/* the last kexec_execute's count read */
	uint32_t exec_pcr;
	uint64_t exec_count, exec_qpos;
	uint64_t policy_index, policy_offset;
	uint8_t *policy;
	size_t policy_len;
	int policy_match;	/* -1 not checked, 0 mismatch, 1 match */
	char policy_diff[600];

	/* failures: all counted, the first of each class kept */
	struct ima_failure *failures;
	size_t nfailures, cap_failures;
	uint64_t failure_count;
	uint64_t class_count[IMA_FC_COUNT];	/* counted per class */
	uint64_t class_kept[IMA_FC_COUNT];	/* kept per class */
	uint64_t class_lo[IMA_FC_COUNT], class_hi[IMA_FC_COUNT];
					/* their entries (hi 0, lo 0: none
					 * or global only; see class_entries) */
	bool class_entries[IMA_FC_COUNT];

	/* signature verification (internal) */
	struct ima_pool *pool;
	bool pool_shared;	/* opts->pool: wait for it, do not free it */
	struct sig_batch *batch;
	uint8_t (*cache)[33];
	unsigned int cache_slots;
	struct hashq *hashq;	/* PCR replay on a worker thread */
	bool hashq_shared;	/* opts->hashq: keep it running */

	/* set by the command: an output it could not write (exit 2) */
	const char *write_error;
};

/* -1 when out of memory; then a holds nothing to free. */
int ima_audit_init(struct ima_audit *a, struct ima_audit_opts *opts);
/* Reads the whole list from the reader and runs every check. */
void ima_audit_run(struct ima_audit *a, struct ima_reader *r);
void ima_audit_free(struct ima_audit *a);
/* A pool for opts->pool (opts->jobs threads); free with ima_pool_finish. */
struct ima_pool *ima_audit_pool_new(struct ima_audit_opts *opts);
/* A replay thread for opts->hashq, kept across audits; stop with _free. */
struct hashq *ima_audit_hashq_new(const struct ima_audit_opts *opts);
void ima_audit_hashq_free(struct hashq *q);
int ima_audit_exit_code(const struct ima_audit *a);
/* Entry index on pcr is bound and in its PCR's covered prefix (after run). */
bool ima_audit_covered(const struct ima_audit *a, uint32_t pcr,
		       uint64_t index);
/*
 * The text of an ima_kexec record: val[0] segment size, val[1] binary
 * list size, val[2] entry count. 0, or -1 with *why set.
 */
int ima_kexec_parse(const uint8_t *p, size_t n, uint64_t val[3],
		    const char **why);

/*
 * Thread-safe; reason is printf-style. ima_audit_fail() derives the class
 * from kind; ima_audit_failc() names it.
 */
void ima_audit_failc(struct ima_audit *a, uint64_t index, uint64_t offset,
		     int cls, const char *path, size_t plen,
		     const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

void ima_audit_fail(struct ima_audit *a, uint64_t index, uint64_t offset,
		    int kind, const char *path, size_t plen,
		    const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* The same with what it names besides (d may be NULL). */
void ima_audit_faild(struct ima_audit *a, uint64_t index, uint64_t offset,
		     int cls, const char *path, size_t plen,
		     const struct ima_fail_detail *d, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

/* Output (report.c) */
void ima_report_text(const struct ima_audit *a, FILE *out);
void ima_report_json(const struct ima_audit *a, FILE *out);
/*
 * The one JSON object of a run that produced no report (a usage error, an
 * input that cannot be read): tool, version, input, exit code, message.
 */
void ima_report_json_error(FILE *out, const char *input, int exit_code,
			   const char *message);
void ima_report_failures(const struct ima_audit *a, FILE *out);
/* The text report's lines on what binds the list and every waiver. */
void ima_report_binding(const struct ima_audit *a, FILE *out);
/* JSON string body (no quotes); invalid UTF-8 bytes become \u00XX. */
void ima_json_escape(FILE *out, const char *s, size_t len);
/*
 * Printable form: bytes outside printable ASCII, and '\', as \xNN, so
 * that no input can start a line of its own or send a terminal control.
 */
void ima_text_escape(FILE *out, const char *s, size_t len);
/*
 * The same into dst (dstlen bytes with the NUL; cut short, never inside
 * an escape, when it does not fit). Returns the length written.
 */
size_t ima_escape(char *dst, size_t dstlen, const void *src, size_t len);

#endif
