// SPDX-License-Identifier: GPL-2.0-only
/*
 * The audit engine: one pass over the list, one callback per record.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "audit_internal.h"
#include "ima_html.h"
#include "ima_quote.h"

/* An entry offered to --write-keylime, kept if the audit proves it. */
struct ima_kl_offer {
	uint64_t index;
	uint32_t pcr;
	enum ima_keylime_table table;
	const struct ima_hash_algo *alg;
	uint8_t digest[IMA_MAX_DIGEST];
	char *name;
	size_t nlen;
};

static const char *const class_names[IMA_FC_COUNT] = {
#define IMA_FC_NAME(id, name) [IMA_FC_##id] = name,
	IMA_FAIL_CLASSES(IMA_FC_NAME)
#undef IMA_FC_NAME
};

const char *ima_fail_class_name(int cls)
{
	if (cls < 0 || cls >= IMA_FC_COUNT || !class_names[cls])
		return "failure";
	return class_names[cls];
}

/* The sort key of a class: records, boot, signatures, manifest, global. */
static int class_kind(int cls)
{
	switch (cls) {
	case IMA_FC_BOOT_AGGREGATE:
	case IMA_FC_BOOT_UNVERIFIED:
		return IMA_FK_BOOT;
	case IMA_FC_BAD_SIGNATURE:
	case IMA_FC_UNKNOWN_KEY:
	case IMA_FC_SIG_ALGO:
	case IMA_FC_SIG_MALFORMED:
	case IMA_FC_SIG_UNSUPPORTED:
	case IMA_FC_SIG_TYPE:
	case IMA_FC_UNSIGNED:
	case IMA_FC_LIST_KEY:
		return IMA_FK_SIG;
	case IMA_FC_MANIFEST_PATH:
	case IMA_FC_MANIFEST_DIGEST:
	case IMA_FC_MANIFEST_ALGO:
	case IMA_FC_DENIED:
	case IMA_FC_DENY_ALGO:
		return IMA_FK_MANIFEST;
	case IMA_FC_POLICY:
	case IMA_FC_PCR_MISMATCH:
	case IMA_FC_PCR_BANKS_DISAGREE:
	case IMA_FC_PCR_COVERS_NOTHING:
	case IMA_FC_QUOTE_MAGIC:
	case IMA_FC_QUOTE_TYPE:
	case IMA_FC_QUOTE_NONCE:
	case IMA_FC_QUOTE_SIGNATURE:
	case IMA_FC_QUOTE_PCR_DIGEST:
	case IMA_FC_QUOTE_UNATTESTED:
		return IMA_FK_GLOBAL;
	}
	return IMA_FK_RECORD;
}

static void add_failure(struct ima_audit *a, uint64_t index, uint64_t offset,
			int kind, int cls, const char *path, size_t plen,
			const struct ima_fail_detail *d, const char *reason);

/*
 * A reason may quote input (a template name): it is kept escaped
 * (ima_escape), so that no output can print a line the list wrote.
 */
static void vfail(struct ima_audit *a, uint64_t index, uint64_t offset,
		  int kind, int cls, const char *path, size_t plen,
		  const struct ima_fail_detail *d, const char *fmt, va_list ap)
	__attribute__((format(printf, 9, 0)));

static void vfail(struct ima_audit *a, uint64_t index, uint64_t offset,
		  int kind, int cls, const char *path, size_t plen,
		  const struct ima_fail_detail *d, const char *fmt, va_list ap)
{
	char raw[256], reason[IMA_REASON_MAX];

	vsnprintf(raw, sizeof(raw), fmt, ap);
	ima_escape(reason, sizeof(reason), raw, strlen(raw));
	add_failure(a, index, offset, kind, cls, path, plen, d, reason);
}

void ima_audit_failc(struct ima_audit *a, uint64_t index, uint64_t offset,
		     int cls, const char *path, size_t plen,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(a, index, offset, class_kind(cls), cls, path, plen, NULL, fmt,
	      ap);
	va_end(ap);
}

void ima_audit_faild(struct ima_audit *a, uint64_t index, uint64_t offset,
		     int cls, const char *path, size_t plen,
		     const struct ima_fail_detail *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(a, index, offset, class_kind(cls), cls, path, plen, d, fmt,
	      ap);
	va_end(ap);
}

/*
 * A failure of one record: its PCR is named (unless d names one), and
 * whatever else d holds.
 */
static void rfail(struct ima_audit *a, const struct ima_record *rec,
		  const struct ima_fail_detail *d, int cls, const char *path,
		  size_t plen, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static void rfail(struct ima_audit *a, const struct ima_record *rec,
		  const struct ima_fail_detail *d, int cls, const char *path,
		  size_t plen, const char *fmt, ...)
{
	struct ima_fail_detail dd = { .pcr = (int)rec->pcr };
	va_list ap;

	if (d) {
		dd = *d;
		if (dd.pcr < 0)
			dd.pcr = (int)rec->pcr;
	}
	va_start(ap, fmt);
	vfail(a, rec->index, rec->offset, class_kind(cls), cls, path, plen,
	      &dd, fmt, ap);
	va_end(ap);
}

void ima_audit_fail(struct ima_audit *a, uint64_t index, uint64_t offset,
		    int kind, const char *path, size_t plen,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(a, index, offset, kind, IMA_FC_GENERIC, path, plen, NULL, fmt,
	      ap);
	va_end(ap);
}

/* "ALG:HEX" of a digest, into out (IMA_DIGEST_TEXT bytes) */
#define IMA_DIGEST_TEXT (24 + 2 * IMA_MAX_DIGEST)
static const char *digest_text(char *out, const struct ima_hash_algo *alg,
			       const uint8_t *d, size_t len)
{
	size_t n = (size_t)snprintf(out, IMA_DIGEST_TEXT, "%s:",
				    alg ? alg->name : "?");

	if (len > IMA_MAX_DIGEST)
		len = IMA_MAX_DIGEST;
	ima_bin2hex(d, len, out + n);
	return out;
}

/* A detail's text, escaped as a reason is; NULL for none (or no memory) */
static char *detail_text(const char *s)
{
	char buf[IMA_REASON_MAX];

	if (!s)
		return NULL;
	ima_escape(buf, sizeof(buf), s, strlen(s));
	return strdup(buf);
}

static void add_failure(struct ima_audit *a, uint64_t index, uint64_t offset,
			int kind, int cls, const char *path, size_t plen,
			const struct ima_fail_detail *d, const char *reason)
{
	unsigned int keep = a->opts->failures_per_class ?
			    a->opts->failures_per_class :
			    IMA_FAILURES_PER_CLASS;
	struct ima_failure *f;

	if (cls < 0 || cls >= IMA_FC_COUNT)
		cls = IMA_FC_GENERIC;
	pthread_mutex_lock(&a->lock);
	a->failure_count++;
	a->class_count[cls]++;
	if (index != IMA_NO_INDEX) {
		if (!a->class_entries[cls] || index < a->class_lo[cls])
			a->class_lo[cls] = index;
		if (!a->class_entries[cls] || index > a->class_hi[cls])
			a->class_hi[cls] = index;
		a->class_entries[cls] = true;
	}
	if (a->class_kept[cls] >= keep)
		goto out;	/* counted, reported as not listed */
	f = ima_reserve(a->failures, &a->cap_failures, a->nfailures,
			sizeof(*f));
	if (!f) {
		a->oom = true;
		goto out;
	}
	a->failures = f;
	f = &a->failures[a->nfailures];
	f->index = index;
	f->offset = offset;
	f->kind = kind;
	f->cls = cls;
	f->seq = a->failure_count;
	f->path = path ? strndup(path, plen < IMA_PATH_KEEP ? plen :
				 IMA_PATH_KEEP) : NULL;
	f->path_len = path ? plen : 0;
	f->reason = strdup(reason);
	f->pcr = d ? d->pcr : -1;
	f->has_keyid = d && d->has_keyid;
	f->keyid = d ? d->keyid : 0;
	f->got = d ? detail_text(d->got) : NULL;
	f->expected = d ? detail_text(d->expected) : NULL;
	if (f->reason && (f->path || !path) &&
	    (!d || ((f->got || !d->got) && (f->expected || !d->expected)))) {
		a->nfailures++;
		a->class_kept[cls]++;
	} else {
		a->oom = true;
		free(f->path);
		free(f->reason);
		free(f->got);
		free(f->expected);
	}
out:
	pthread_mutex_unlock(&a->lock);
}

/* n more failures of class cls, counted and not listed */
static void count_failures(struct ima_audit *a, int cls, uint64_t n)
{
	pthread_mutex_lock(&a->lock);
	a->failure_count += n;
	a->class_count[cls] += n;
	pthread_mutex_unlock(&a->lock);
}


/*
 * With a quote, the expected values are the quoted ones if every check
 * passed, and none otherwise: values given by other means only proposed
 * the quoted ones (ima_quote_verify). Then a PCR is bound when a bank
 * other than sha1 has a value: sha1 alone is collision-prone.
 */
static void bind(struct ima_audit *a, struct ima_audit_opts *opts)
{
	int b, p;

	if (opts->quote) {
		a->quote_failed = opts->quote->nreasons > 0 ||
				  !opts->quote->pcrs_ok;
		if (a->quote_failed)
			memset(&opts->pcrs, 0, sizeof(opts->pcrs));
		else
			opts->pcrs = opts->quote->pcrs;
	}
	for (p = 0; p < IMA_NR_PCRS; p++)
		for (b = 0; b < IMA_NR_BANKS; b++)
			if ((b != IMA_BANK_SHA1 || opts->allow_sha1) &&
			    (opts->pcrs.have[b] & (1u << p)))
				a->bound |= 1u << p;
	a->bound &= ~opts->ignore_pcrs;
}


int ima_audit_init(struct ima_audit *a, struct ima_audit_opts *opts)
{
	int b;

	memset(a, 0, sizeof(*a));
	a->opts = opts;
	a->policy_match = -1;
	pthread_mutex_init(&a->lock, NULL);
	bind(a, opts);
	for (b = 0; b < IMA_NR_BANKS; b++)
		if (opts->pcrs.have[b])
			opts->banks |= 1u << b;
	audit_replay_start(a);
	ima_replay_init(&a->replay, opts->banks, &opts->pcrs);
	if (ima_excludes_count(opts->excludes)) {
		a->exclude_hits = calloc(ima_excludes_count(opts->excludes),
					 sizeof(*a->exclude_hits));
		if (!a->exclude_hits) {
			ima_audit_free(a);
			return -1;
		}
	}
	if (audit_sigs_start(a)) {
		ima_audit_free(a);	/* nothing is left to free */
		return -1;
	}
	return 0;
}

void ima_audit_free(struct ima_audit *a)
{
	size_t i;

	audit_replay_finish(a);	/* if ima_audit_run was not called */
	audit_sigs_done(a);

	for (i = 0; i < a->nfailures; i++) {
		free(a->failures[i].path);
		free(a->failures[i].reason);
		free(a->failures[i].got);
		free(a->failures[i].expected);
	}
	free(a->failures);
	for (i = 0; i < a->npolicies; i++)
		free(a->policies[i].data);
	free(a->policies);
	free(a->handovers);
	free(a->kstarts);
	free(a->claimed_policy);
	free(a->policy_got);
	free(a->policy_want);
	a->policy = NULL;
	free(a->cache);
	free(a->exclude_hits);
	for (i = 0; i < a->nkl_offers; i++)
		free(a->kl_offers[i].name);
	free(a->kl_offers);
	ima_replay_free(&a->replay);
	pthread_mutex_destroy(&a->lock);
}

static void count_template(struct ima_audit *a, const char *name)
{
	int i;

	for (i = 0; i < a->ntemplates; i++) {
		if (!strcmp(a->templates[i].name, name)) {
			a->templates[i].count++;
			return;
		}
	}
	if (a->ntemplates == IMA_MAX_TEMPLATE_KINDS) {
		a->other_templates++;
		return;
	}
	strcpy(a->templates[a->ntemplates].name, name);
	a->templates[a->ntemplates++].count = 1;
}

static bool all_zero(const uint8_t *p, size_t len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

struct entry_info {
	const struct ima_hash_algo *alg;	/* file digest algorithm */
	int dtype;				/* enum ima_digest_type */
	int idig, iname;			/* their fields, or -1 */
	const uint8_t *digest;
	uint32_t dlen;
	const char *path;
	size_t plen;
	bool violation;
};

/* Template data as the kernel hashes it (ima_calc_field_array_hash). */
static const uint8_t *hashed_data(const struct ima_record *rec,
				  uint8_t *legacy, size_t *len)
{
	if (!rec->tmpl.legacy) {
		*len = rec->data_len;
		return rec->data;
	}
	/* "ima": d (20 bytes) + n zero-padded to IMA_EVENT_NAME_LEN_MAX+1 */
	memset(legacy, 0, 20 + IMA_LEGACY_NAME_MAX + 1);
	memcpy(legacy, rec->fields[0].data, 20);
	memcpy(legacy + 20, rec->fields[1].data, rec->fields[1].len);
	*len = 20 + IMA_LEGACY_NAME_MAX + 1;
	return legacy;
}

static void replay(struct ima_audit *a, const struct ima_record *rec,
		   const uint8_t *data, size_t len, bool violation)
{
	uint8_t digests[IMA_NR_BANKS][IMA_MAX_DIGEST];
	int b;

	if (a->hashq) {
		audit_replay_add(a, rec, data, len, violation);
		return;
	}
	for (b = 0; b < IMA_NR_BANKS; b++) {
		const struct ima_hash_algo *alg = ima_bank_algo(b);

		if (!(a->opts->banks & (1u << b)))
			continue;
		/* violations invalidate the PCR: 0xff.. is extended */
		if (violation)
			memset(digests[b], 0xff, alg->size);
		else if (b == a->list_bank)
			memcpy(digests[b], rec->digest, alg->size);
		else
			ima_digest(alg, data, len, digests[b]);
	}
	ima_replay_extend_at(&a->replay, rec->pcr, digests, rec->index,
			     rec->offset);
}

static bool get_fields(struct ima_audit *a, const struct ima_record *rec,
		       struct entry_info *e)
{
	const char *algo;
	size_t algo_len;
	bool v2;
	int i;

	e->idig = e->iname = -1;
	i = ima_record_field(rec, IMA_F_N_NG);
	if (i < 0)
		i = ima_record_field(rec, IMA_F_N);
	e->iname = i;
	if (i >= 0) {
		const struct ima_field *f = &rec->fields[i];
		const uint8_t *nul = memchr(f->data, '\0', f->len);

		e->path = (const char *)f->data;
		e->plen = nul ? (size_t)(nul - f->data) : f->len;
	}

	i = ima_record_field(rec, IMA_F_D);
	e->idig = i;
	if (i >= 0) {
		e->alg = ima_bank_algo(IMA_BANK_SHA1);
		e->digest = rec->fields[i].data;
		e->dlen = rec->fields[i].len;
		goto check;
	}
	i = ima_record_field(rec, IMA_F_D_NG);
	if (i < 0)
		i = ima_record_field(rec, IMA_F_D_NGV2);
	if (i < 0)
		return true;	/* no digest field, nothing to check */
	e->idig = i;
	v2 = rec->fields[i].id == IMA_F_D_NGV2;
	/*
	 * d-ngv2 always states what its digest is ("ima:" or "verity:") and
	 * d-ng never does: a type where none belongs (or none where one
	 * does) is a field renamed, the type it dropped or made up
	 */
	if (ima_split_digest_field(rec->fields[i].data, rec->fields[i].len,
				   &e->dtype, &algo, &algo_len, &e->digest,
				   &e->dlen) ||
	    v2 != (e->dtype != IMA_DT_NONE)) {
		rfail(a, rec, NULL, IMA_FC_MALFORMED_FIELD,
			       e->path, e->plen,
			       "malformed %s field (expected %sALGO, \":\", NUL, DIGEST)",
			       ima_field_name(rec->fields[i].id),
			       v2 ? "\"ima:\" or \"verity:\", " : "");
		return false;
	}
	e->alg = ima_hash_by_name(algo, algo_len);
	if (!e->alg) {
		rfail(a, rec, NULL, IMA_FC_MALFORMED_FIELD,
			       e->path, e->plen,
			       "unknown digest algorithm '%.*s'",
			       (int)(algo_len > 32 ? 32 : algo_len), algo);
		return false;
	}
check:
	if (e->dlen != e->alg->size) {
		rfail(a, rec, NULL, IMA_FC_MALFORMED_FIELD,
			       e->path, e->plen,
			       "%s digest has %u bytes, expected %u",
			       e->alg->name, e->dlen, e->alg->size);
		return false;
	}
	return true;
}

/*
 * With a verified quote, boot_aggregate must be checked against it; why
 * says why it was not (rec NULL: the list has no entry at all).
 */
static void boot_unverified(struct ima_audit *a, const struct ima_record *rec,
			    const struct entry_info *e, const char *why)
{
	if (!a->opts->quote || a->quote_failed)
		return;
	if (a->opts->allow_unverified_boot) {
		a->boot_waived = true;
		return;
	}
	ima_audit_failc(a, rec ? rec->index : IMA_NO_INDEX,
			rec ? rec->offset : 0, IMA_FC_BOOT_UNVERIFIED,
			e ? e->path : NULL, e ? e->plen : 0, "boot_aggregate: %s",
			why);
}

static void check_boot_aggregate(struct ima_audit *a,
				 const struct ima_record *rec,
				 const struct entry_info *e)
{
	int bank, def;

	if (!e->alg) {
		a->boot = IMA_BOOT_BAD_FIELD;
		return;
	}
	snprintf(a->boot_algo, sizeof(a->boot_algo), "%s", e->alg->name);
	memcpy(a->boot_digest, e->digest, e->dlen);
	a->boot_len = e->dlen;
	if (all_zero(e->digest, e->dlen)) {
		/*
		 * The kernel writes zeros only when it found no TPM, and then
		 * extends no PCR: a quote covering the list contradicts that,
		 * and zeros verify nothing against PCRs 0-9.
		 */
		a->boot = IMA_BOOT_ZERO;
		boot_unverified(a, rec, e,
				"all zeros (no TPM when the list began), yet a TPM quoted the list");
		return;
	}
	bank = ima_bank_by_name(e->alg->name, strlen(e->alg->name));
	if (bank < 0) {
		a->boot = IMA_BOOT_NOT_CHECKED;
		boot_unverified(a, rec, e,
				"no PCR bank for its digest algorithm");
		return;
	}
	def = ima_boot_aggregate_match(&a->opts->pcrs, bank, e->digest,
				       e->dlen);
	if (def == IMA_BOOT_DEF_MISSING) {
		a->boot = IMA_BOOT_NOT_CHECKED;
		boot_unverified(a, rec, e, bank == IMA_BANK_SHA1 ?
				"the quote lacks sha1 PCRs 0-7" :
				"the quote lacks the bank's PCRs 0-9");
		return;
	}
	if (def != IMA_BOOT_DEF_NONE) {
		/* the definition before 5.8 is named in the report */
		if (def == IMA_BOOT_DEF_PRE_5_8)
			a->boot_pre_5_8 = true;
		a->boot = IMA_BOOT_MATCH;
		return;
	}
	a->boot = IMA_BOOT_MISMATCH;
	{
		char got[IMA_DIGEST_TEXT], want[IMA_DIGEST_TEXT];
		uint8_t agg[IMA_MAX_DIGEST];
		struct ima_fail_detail d = {
			.pcr = -1,
			.got = digest_text(got, e->alg, e->digest, e->dlen),
		};

		if (!ima_boot_aggregate(&a->opts->pcrs, bank, agg))
			d.expected = digest_text(want, e->alg, agg, e->dlen);
		rfail(a, rec, &d, IMA_FC_BOOT_AGGREGATE, e->path, e->plen,
		      "boot_aggregate does not match %s PCRs 0-%d",
		      e->alg->name, bank == IMA_BANK_SHA1 ? 7 : 9);
	}
}

/*
 * The text of an ima_kexec record, exactly as the kernel writes it:
 * "kexec_segment_size=S;ima_binary_runtime_size=B;
 * ima_runtime_measurements_count=N;" with decimal numbers (no sign, no
 * leading zero, at most 19 digits) and nothing else. 0, or -1 with *why.
 */
static const char *const kexec_keys[3] = {
	"kexec_segment_size=", "ima_binary_runtime_size=",
	"ima_runtime_measurements_count=",
};

int ima_kexec_parse(const uint8_t *p, size_t n, uint64_t val[3],
		    const char **why)
{
	size_t pos = 0, k, d;
	int i;

	for (i = 0; i < 3; i++) {
		k = strlen(kexec_keys[i]);
		if (n - pos < k || memcmp(p + pos, kexec_keys[i], k)) {
			*why = "a field is missing or out of order";
			return -1;
		}
		pos += k;
		val[i] = 0;
		for (d = 0; pos < n && p[pos] >= '0' && p[pos] <= '9'; d++) {
			if (d == 19) {
				*why = "a number has more than 19 digits";
				return -1;
			}
			val[i] = val[i] * 10 + (uint64_t)(p[pos++] - '0');
		}
		if (!d || (d > 1 && p[pos - d] == '0')) {
			*why = d ? "a number has a leading zero" : "a field has no number";
			return -1;
		}
		if (pos >= n || p[pos] != ';') {
			*why = "a number is not followed by ';'";
			return -1;
		}
		pos++;
	}
	if (pos != n) {
		*why = "bytes after the last field";
		return -1;
	}
	return 0;
}

/* the binary list's header in the kexec segment: struct ima_kexec_hdr */
#define IMA_KEXEC_HDR_SIZE 24

/*
 * kexec_load and kexec_execute records: measured before they are appended,
 * so the count is the entries before the record and the binary size theirs
 * plus the segment header. kexec_execute must be followed by the next
 * kernel's boot_aggregate, and the list must fit the segment.
 */
static void check_kexec(struct ima_audit *a, const struct ima_record *rec,
			const struct entry_info *e, const struct ima_field *buf,
			bool execute)
{
	/*
	 * the kernel counts the list it hands over, always the sha1 one
	 * (ima_dump_measurement_list): a per-bank list's records are longer
	 * by their digests' extra bytes
	 */
	uint64_t v[3], want = rec->offset + IMA_KEXEC_HDR_SIZE -
			      rec->index * (rec->digest_len - IMA_SHA1_LEN);
	struct ima_handover *h = NULL;
	const char *why;
	bool ok = true;

	if (execute) {
		struct ima_handover *nh = ima_reserve(a->handovers,
						      &a->cap_handovers,
						      a->nhandovers,
						      sizeof(*nh));

		if (!nh) {
			a->oom = true;
			return;
		}
		a->handovers = nh;
		h = &nh[a->nhandovers++];
		memset(h, 0, sizeof(*h));
		h->index = rec->index;
		a->exec_pending = true;
		a->exec_index = rec->index;
		a->exec_offset = rec->offset;
		a->exec_count_ok = false;
	} else {
		a->kexec_loads++;
	}
	if (ima_kexec_parse(buf->data, buf->len, v, &why)) {
		rfail(a, rec, NULL, IMA_FC_KEXEC,
				e->path, e->plen, "malformed ima_kexec record: %s",
				why);
		return;
	}
	if (h) {
		h->segment = v[0];
		h->size = v[1];
		h->count = v[2];
		a->exec_count_ok = true;
		a->exec_pcr = rec->pcr;
		a->exec_count = v[2];
		a->exec_qpos = a->pcr_seen[rec->pcr] - 1;
	}
	if (v[2] != rec->index) {
		char got[24], want[24];
		struct ima_fail_detail d = { .pcr = -1, .got = got,
					     .expected = want };

		snprintf(got, sizeof(got), "%llu", (unsigned long long)v[2]);
		snprintf(want, sizeof(want), "%llu",
			 (unsigned long long)rec->index);
		ok = false;
		rfail(a, rec, &d, IMA_FC_KEXEC,
				e->path, e->plen,
				"it counts %llu entries, %llu precede it",
				(unsigned long long)v[2],
				(unsigned long long)rec->index);
	}
	if (v[1] != want) {
		char got[24], exp[24];
		struct ima_fail_detail d = { .pcr = -1, .got = got,
					     .expected = exp };

		snprintf(got, sizeof(got), "%llu", (unsigned long long)v[1]);
		snprintf(exp, sizeof(exp), "%llu", (unsigned long long)want);
		ok = false;
		rfail(a, rec, &d, IMA_FC_KEXEC,
				e->path, e->plen,
				"it gives the list as %llu bytes, the entries before it take %llu (with the %d-byte header)",
				(unsigned long long)v[1],
				(unsigned long long)want, IMA_KEXEC_HDR_SIZE);
	}
	if (execute && v[1] > v[0]) {
		ok = false;
		rfail(a, rec, NULL, IMA_FC_KEXEC,
				e->path, e->plen,
				"truncated hand-over: the list (%llu bytes) does not fit the kexec segment (%llu bytes)",
				(unsigned long long)v[1],
				(unsigned long long)v[0]);
	}
	if (h)
		h->ok = ok;
}

static bool policy_name(const char *p, size_t n);

/* A key the kernel put on .ima (KEY_CHECK), offered to --ca's chain. */
static void list_key(struct ima_audit *a, const struct ima_record *rec,
		     const struct entry_info *e, const struct ima_field *buf)
{
	char why[256];
	int rc = ima_listkeys_add(a->opts->listkeys, buf->data, buf->len,
				  rec->index, rec->offset, rec->pcr, why,
				  sizeof(why));

	if (rc == -2)
		a->oom = true;
	else if (rc)
		rfail(a, rec, NULL, IMA_FC_LIST_KEY,
				e->path, e->plen, "key refused: %s", why);
}

/*
 * --write-keylime: the entry's digest under its name in table, written
 * at the end if the audit proves the entry (keylime_offers_done).
 */
static void offer(struct ima_audit *a, const struct ima_record *rec,
		  const struct entry_info *e, enum ima_keylime_table table)
{
	struct ima_kl_offer *o;

	if (!a->opts->keylime_out || !e->alg || !e->path || e->violation)
		return;
	o = ima_reserve(a->kl_offers, &a->cap_kl_offers, a->nkl_offers,
			sizeof(*o));
	if (!o) {
		a->oom = true;
		return;
	}
	a->kl_offers = o;
	o += a->nkl_offers;
	o->name = malloc(e->plen ? e->plen : 1);
	if (!o->name) {
		a->oom = true;
		return;
	}
	memcpy(o->name, e->path, e->plen);
	o->nlen = e->plen;
	o->index = rec->index;
	o->pcr = rec->pcr;
	o->table = table;
	o->alg = e->alg;
	memcpy(o->digest, e->digest, e->dlen);
	a->nkl_offers++;
}

/* Whether a listed failure names entry index (failures sorted by it). */
static bool entry_failed(const struct ima_audit *a, uint64_t index)
{
	size_t lo = 0, hi = a->nfailures;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->failures[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->nfailures && a->failures[lo].index == index;
}

/* The offers the audit proved go into the policy; the others are counted. */
static void keylime_offers_done(struct ima_audit *a)
{
	size_t i;

	for (i = 0; i < a->nkl_offers; i++) {
		const struct ima_kl_offer *o = &a->kl_offers[i];
		int rc;

		if (ima_entry_verdict(a, o->pcr, o->index,
				      entry_failed(a, o->index)) != IMA_EV_OK) {
			a->kl_unproven++;
			continue;
		}
		rc = ima_keylime_out_add(a->opts->keylime_out, o->table,
					 o->name, o->nlen, o->alg, o->digest);
		if (rc < 0)
			a->oom = true;
		else if (rc)
			a->kl_unwritable++;
		else
			a->kl_written++;
	}
}

/*
 * Whether the entry's name matches an exclude pattern: then it is never
 * judged (counted). A name outside printable ASCII is tested against
 * none (ima_exclude.h): judged, counted apart.
 */
static bool excluded(struct ima_audit *a, const struct entry_info *e)
{
	size_t which;

	if (!a->opts->excludes || !e->path)
		return false;
	switch (ima_excludes_match(a->opts->excludes, e->path, e->plen,
				   &which)) {
	case IMA_EXCLUDE_YES:
		a->excluded++;
		a->exclude_hits[which]++;
		return true;
	case IMA_EXCLUDE_UNTESTED:
		a->exclude_untested++;
		break;
	}
	return false;
}

/* A buffer's bytes are one DER certificate: a key measured onto a keyring. */
static bool is_certificate(const struct ima_field *buf)
{
	return ima_listkeys_is_cert(buf->data, buf->len);
}

/*
 * A Keylime policy judges buffers too: a key (a certificate measured onto
 * a keyring) by its "keyrings" (unless the keyring is ignored), any other
 * buffer by its "ima-buf", by the record's name.
 */
static void check_keylime_buf(struct ima_audit *a, const struct ima_record *rec,
			      const struct entry_info *e,
			      const struct ima_field *buf)
{
	const struct ima_keylime *kl = a->opts->keylime;
	bool key = is_certificate(buf);
	const char *what = key ? "keyring" : "ima-buf name";
	struct ima_manifest *table = key ? kl->keyrings : kl->bufs;
	char got[IMA_DIGEST_TEXT], want[4 * IMA_DIGEST_TEXT];
	struct ima_fail_detail d = {
		.pcr = -1,
		.got = digest_text(got, e->alg, e->digest, e->dlen),
		.expected = want,
	};
	int rc;

	if (excluded(a, e))
		return;
	if (key && ima_keylime_ignores_keyring(kl, e->path, e->plen)) {
		a->kl_keys_ignored++;
		return;
	}
	a->kl_buf_checked++;
	rc = ima_manifest_check(table, e->path, e->plen, e->alg, e->digest,
				e->dlen);
	if (!ima_manifest_listed(table, e->path, e->plen, NULL, want,
				 sizeof(want)))
		d.expected = NULL;
	switch (rc) {
	case IMA_MF_MATCH:
		a->kl_buf_match++;
		return;
	case IMA_MF_UNKNOWN_PATH:
		rfail(a, rec, &d,
				IMA_FC_MANIFEST_PATH, e->path, e->plen,
				"%s not in the Keylime policy's \"%s\"", what,
				key ? "keyrings" : "ima-buf");
		return;
	case IMA_MF_WRONG_DIGEST:
		rfail(a, rec, &d,
				IMA_FC_MANIFEST_DIGEST, e->path, e->plen,
				"%s digest differs from the Keylime policy's \"%s\"",
				e->alg->name, key ? "keyrings" : "ima-buf");
		return;
	default:
		rfail(a, rec, &d,
				IMA_FC_MANIFEST_ALGO, e->path, e->plen,
				"the Keylime policy's \"%s\" has no %s digest for this %s",
				key ? "keyrings" : "ima-buf", e->alg->name, what);
	}
}

/* The last policy record the list holds after its last boot_aggregate. */
static void claim_policy(struct ima_audit *a, const struct ima_record *rec,
			 const struct ima_field *buf)
{
	uint8_t *copy = malloc(buf->len ? buf->len : 1);

	if (!copy) {
		a->oom = true;
		return;
	}
	memcpy(copy, buf->data, buf->len);
	free(a->claimed_policy);
	a->claimed_policy = copy;
	a->claimed_policy_len = buf->len;
	a->claimed_policy_index = rec->index;
	a->claimed_policy_pcr = rec->pcr;
	a->has_claimed_policy = true;
}

static void check_buf(struct ima_audit *a, const struct ima_record *rec,
		      const struct entry_info *e, const struct ima_field *buf)
{
	uint8_t d[IMA_MAX_DIGEST];

	if (!e->alg && !e->violation) {
		/* a file record relabeled with its digest field renamed */
		a->buf_checked++;
		a->buf_failed++;
		rfail(a, rec, NULL, IMA_FC_BUF_DIGEST,
				e->path, e->plen,
				"no digest field for the buffer (template '%s')",
				rec->name);
	} else if (e->alg && !e->violation) {
		a->buf_checked++;
		if (ima_digest(e->alg, buf->data, buf->len, d) ||
		    memcmp(d, e->digest, e->dlen)) {
			char got[IMA_DIGEST_TEXT], want[IMA_DIGEST_TEXT];
			struct ima_fail_detail fd = {
				.pcr = -1,
				.got = digest_text(got, e->alg, e->digest,
						   e->dlen),
				.expected = digest_text(want, e->alg, d,
							e->dlen),
			};

			a->buf_failed++;
			rfail(a, rec, &fd, IMA_FC_BUF_DIGEST, e->path, e->plen,
			      "buffer digest does not match d-ng");
		} else {
			if (a->opts->listkeys && e->plen == 4 &&
			    !memcmp(e->path, ".ima", 4))
				list_key(a, rec, e, buf);
			if (a->opts->keylime && e->path)
				check_keylime_buf(a, rec, e, buf);
			offer(a, rec, e, is_certificate(buf) ?
			      IMA_KL_KEYRINGS : IMA_KL_BUFS);
		}
	}
	/*
	 * A policy on an unbound PCR can never be the recorded one; which of
	 * the others is depends on coverage, known at the end (pick_policy).
	 */
	if (e->plen == 13 && !memcmp(e->path, "kexec_execute", 13))
		check_kexec(a, rec, e, buf, true);
	else if (e->plen == 10 && !memcmp(e->path, "kexec_load", 10))
		check_kexec(a, rec, e, buf, false);
	/* what the list claims, bound or not (--show-policy without values) */
	if (e->path && policy_name(e->path, e->plen))
		claim_policy(a, rec, buf);
	/* the active policy: "ima_policy" (ours before), "ima_policy_loaded" */
	if (e->path && policy_name(e->path, e->plen) &&
	    (a->bound & (1u << rec->pcr))) {
		struct ima_policy_entry *np;
		uint8_t *copy = malloc(buf->len ? buf->len : 1);

		np = copy ? ima_reserve(a->policies, &a->cap_policies,
					a->npolicies, sizeof(*np)) : NULL;
		if (!np) {
			free(copy);
			a->oom = true;
			return;
		}
		memcpy(copy, buf->data, buf->len);
		a->policies = np;
		np[a->npolicies].index = rec->index;
		np[a->npolicies].offset = rec->offset;
		np[a->npolicies].pcr = rec->pcr;
		np[a->npolicies].qpos = a->pcr_seen[rec->pcr] - 1;
		np[a->npolicies].data = copy;
		np[a->npolicies].len = buf->len;
		a->npolicies++;
	}
}

static bool covered(const struct ima_audit *a, uint32_t pcr, uint64_t index)
{
	const struct ima_replay *rp = &a->replay;

	return (a->bound & (1u << pcr)) && rp->cover_ok[pcr] &&
	       rp->cover_index[pcr] >= 0 &&
	       index <= (uint64_t)rp->cover_index[pcr];
}

/*
 * --ca: a key from the list vouches for the signatures it verified only
 * if its own record is attested (bound and covered); with a waiver
 * (--ignore-pcr, --allow-uncovered) the record passes, but nothing
 * attests the key.
 */
static void check_list_keys(struct ima_audit *a)
{
	struct ima_listkeys *lk = a->opts->listkeys;
	size_t i;

	if (!lk)
		return;
	if (lk->oom)
		a->oom = true;
	for (i = 0; i < lk->nuses; i++) {
		const struct ima_listkey_use *u = &lk->uses[i];
		const struct ima_listkey *k = &lk->keys[u->key];

		if (covered(a, k->pcr, k->index))
			continue;
		struct ima_fail_detail d = { .pcr = -1, .has_keyid = true,
					     .keyid = k->keyid };

		ima_audit_faild(a, u->index, u->offset, IMA_FC_LIST_KEY,
				u->path, u->path ? strlen(u->path) : 0, &d,
				"verified only with the .ima key of entry %llu (key id %08x), which is not attested: %s",
				(unsigned long long)k->index, k->keyid,
				(a->bound & (1u << k->pcr)) ?
				"after the covered prefix of its PCR" :
				"its PCR is not bound");
	}
}

/*
 * The kernel the verdict is about: the last later kernel's boot_aggregate
 * that is attested (bound and covered), or one on a PCR nothing binds (an
 * ignored one: its kernel may be the running one, so fail closed); NULL
 * for the first kernel. A boot_aggregate after the covered prefix
 * (--allow-uncovered) began a kernel after what the PCR values vouch for.
 */
static const struct ima_kernel_start *last_kernel(const struct ima_audit *a)
{
	size_t i = a->nkstarts;

	while (i--) {
		const struct ima_kernel_start *k = &a->kstarts[i];

		if (!(a->bound & (1u << k->pcr)) ||
		    covered(a, k->pcr, k->index))
			return k;
	}
	return NULL;
}

enum { KERNEL_OTHER, KERNEL_MAYBE, KERNEL_LAST };

/*
 * Whether a policy record is of the last kernel (k; NULL: the list has
 * one), by what the TPM orders only. It orders records on one PCR: a
 * record on the PCR of k's boot_aggregate is after it, or not, by its
 * index. It orders nothing across PCRs, and the list's holder can swap
 * records on different PCRs without changing any replay (and a
 * kexec_execute's count and size still hold after a swap of records of
 * equal size; a violation's data, hashed by nothing, can be made any
 * size). A record on another PCR is placed only by the kexec_execute
 * record just before k (same PCR, bound): it counts the entries before
 * it, ke_qpos of them on its own PCR, so at most ke_count - ke_qpos of
 * any other PCR's; a record with at least that many before it on its own
 * PCR came after the hand-over. Anything else may be either kernel's.
 */
static int kernel_of(const struct ima_audit *a,
		     const struct ima_kernel_start *k,
		     const struct ima_policy_entry *pe)
{
	size_t i;

	if (!k)
		return KERNEL_LAST;
	/* boundaries on two PCRs: which kernel is last is cross-PCR order */
	for (i = 0; i < a->nkstarts; i++)
		if (a->kstarts[i].pcr != k->pcr)
			return KERNEL_MAYBE;
	if (!(a->bound & (1u << k->pcr)))
		return KERNEL_MAYBE;
	if (pe->pcr == k->pcr)
		return pe->index > k->index ? KERNEL_LAST : KERNEL_OTHER;
	if (k->has_ke && pe->qpos >= k->ke_count - k->ke_qpos)
		return KERNEL_LAST;
	return KERNEL_MAYBE;
}

static bool same_policy(const struct ima_policy_entry *x,
			const struct ima_policy_entry *y)
{
	return x->len == y->len && !memcmp(x->data, y->data, x->len);
}

/*
 * The recorded policy: the last ima_policy entry, bound and covered, of
 * the last kernel. A policy an earlier kernel recorded before a kexec
 * says nothing of what the kernel running now enforces (it may have
 * booted with another policy and recorded none). Which is last is what
 * the TPM orders: the last candidate on each PCR; when those lie on
 * several PCRs and differ, or none is surely the last kernel's
 * (kernel_of), the list does not say which policy was recorded last:
 * unattributed, never a guess.
 */
static void pick_policy(struct ima_audit *a)
{
	const struct ima_kernel_start *k = last_kernel(a);
	const struct ima_policy_entry *last[IMA_NR_PCRS] = { NULL };
	const struct ima_policy_entry *pick = NULL, *other = NULL;
	int at[IMA_NR_PCRS] = { 0 }, p;
	size_t i;

	a->kernel_start = k ? k->index : 0;
	for (i = 0; i < a->npolicies; i++) {
		const struct ima_policy_entry *pe = &a->policies[i];
		int t;

		if (!covered(a, pe->pcr, pe->index))
			continue;
		t = kernel_of(a, k, pe);
		if (t == KERNEL_OTHER)
			continue;
		last[pe->pcr] = pe;
		at[pe->pcr] = t;
	}
	for (p = 0; p < IMA_NR_PCRS; p++)
		if (last[p] && at[p] == KERNEL_LAST &&
		    (!pick || last[p]->index > pick->index))
			pick = last[p];
	for (p = 0; p < IMA_NR_PCRS; p++) {
		if (!last[p])
			continue;
		a->unattributed[a->nunattributed++] = last[p]->index;
		if (!pick || !same_policy(last[p], pick))
			other = last[p];
	}
	if (!a->nunattributed)
		return;
	if (pick && !other) {
		a->nunattributed = 0;
		a->policy = pick->data;
		a->policy_len = pick->len;
		a->policy_index = pick->index;
		a->policy_offset = pick->offset;
		a->policy_found = true;
		return;
	}
	a->policy_unattributed = true;
	if (pick)
		snprintf(a->policy_diff, sizeof(a->policy_diff),
			 "entries %llu (PCR %u) and %llu (PCR %u) differ, and the TPM orders records on one PCR only: which was recorded last is not attested",
			 (unsigned long long)pick->index, pick->pcr,
			 (unsigned long long)other->index, other->pcr);
	else
		snprintf(a->policy_diff, sizeof(a->policy_diff),
			 "entry %llu (PCR %u) may be an earlier kernel's: nothing the TPM orders puts it after the last kernel's boot_aggregate (entry %llu)",
			 (unsigned long long)other->index, other->pcr,
			 (unsigned long long)a->kernel_start);
}


/*
 * A signature (v2 header h, or a modsig's PKCS#7) whose key the list's
 * .ima records gave: checked here, on the main thread, with the keys
 * seen before it (the kernel appraises with the keys its keyring held).
 * False when no such key is the signer and --key keys may be: the pool
 * checks it then; without --key it is an unknown key.
 */
static bool list_sig(struct ima_audit *a, const struct ima_record *rec,
		     const struct entry_info *e,
		     const struct ima_hash_algo *alg, const uint8_t *digest,
		     uint32_t dlen, const struct ima_sig_hdr *h,
		     const uint8_t *p7, uint32_t p7len)
{
	int dtype = h ? e->dtype : IMA_DT_NONE;
	int rc;

	rc = ima_listkeys_verify(a->opts->listkeys, !h, alg, dtype, digest,
				 dlen, h,
				 p7, p7len, rec->index, rec->offset, e->path,
				 e->plen);
	if (rc == IMA_SIG_UNKNOWN_KEY && a->pool)
		return false;
	audit_sigs_report(a, rec, h ? AUDIT_SIG_V2 : AUDIT_SIG_MODSIG, alg,
			  dtype, h, rc, e->path, e->plen);
	return true;
}

static void check_sigs(struct ima_audit *a, const struct ima_record *rec,
		       const struct entry_info *e)
{
	int is = ima_record_field(rec, IMA_F_SIG);
	int im = ima_record_field(rec, IMA_F_MODSIG);
	int idm = ima_record_field(rec, IMA_F_D_MODSIG);
	bool signed_ = false;

	if (is >= 0 && rec->fields[is].len) {
		const struct ima_field *f = &rec->fields[is];
		struct ima_sig_hdr h;
		int rc = ima_sig_parse(f->data, f->len, &h);

		signed_ = true;
		if (rc != IMA_SIG_OK) {
			pthread_mutex_lock(&a->lock);
			a->sig.failed++;
			pthread_mutex_unlock(&a->lock);
			if (rc == IMA_SIG_UNSUPPORTED)
				rfail(a, rec, NULL,
						IMA_FC_SIG_UNSUPPORTED, e->path, e->plen,
					       "unsupported signature type 0x%02x version %u",
					       h.type, h.version);
			else
				rfail(a, rec, NULL,
					       IMA_FC_SIG_MALFORMED, e->path, e->plen,
					       "malformed signature header");
		} else if (a->opts->listkeys &&
			   list_sig(a, rec, e, e->alg, e->digest, e->dlen, &h,
				    NULL, 0)) {
			/* checked with a key from the list (--ca) */
		} else if (!a->pool) {
			a->sig.not_checked++;
		} else {
			audit_sigs_submit(a, rec, AUDIT_SIG_V2, e->alg,
					  e->dtype, e->digest, e->dlen, f,
					  e->path, e->plen);
		}
	}
	if (im >= 0 && rec->fields[im].len) {
		const struct ima_field *f = &rec->fields[im];
		const char *algo;
		size_t algo_len;
		const uint8_t *d;
		uint32_t dlen;
		int dt;
		const struct ima_hash_algo *alg = NULL;

		signed_ = true;
		if (idm >= 0 && !ima_split_digest_field(rec->fields[idm].data,
							 rec->fields[idm].len,
							 &dt, &algo, &algo_len,
							 &d, &dlen) &&
		    dt == IMA_DT_NONE)
			alg = ima_hash_by_name(algo, algo_len);
		if (!alg || dlen != alg->size) {
			pthread_mutex_lock(&a->lock);
			a->sig.failed++;
			a->sig.modsig_failed++;
			pthread_mutex_unlock(&a->lock);
			rfail(a, rec, NULL,
					IMA_FC_SIG_MALFORMED, e->path, e->plen,
				       "modsig: missing or malformed d-modsig field");
		} else if (a->opts->listkeys &&
			   list_sig(a, rec, e, alg, d, dlen, NULL, f->data,
				    f->len)) {
			/* checked with a key from the list (--ca) */
		} else if (!a->pool) {
			a->sig.not_checked++;
		} else {
			audit_sigs_submit(a, rec, AUDIT_SIG_MODSIG, alg,
					  IMA_DT_NONE, d, dlen, f, e->path,
					  e->plen);
		}
	}
	if (signed_)
		return;
	a->sig.unsigned_++;
	if (a->opts->require_signatures)
		rfail(a, rec, NULL, IMA_FC_UNSIGNED,
			       e->path, e->plen, "unsigned entry");
}

/*
 * Keylime accepts a file whose signature verifies with one of its
 * policy's verification keys without a digest in the policy
 * (_validate_ima_sig): so does a policy read here.
 */
static bool keylime_signed(struct ima_audit *a, const struct ima_record *rec,
			   const struct entry_info *e)
{
	const struct ima_keylime *kl = a->opts->keylime;
	int is = ima_record_field(rec, IMA_F_SIG);
	struct ima_sig_hdr h;

	if (!kl || !kl->verifier || is < 0 || !rec->fields[is].len ||
	    ima_sig_parse(rec->fields[is].data, rec->fields[is].len, &h))
		return false;
	return ima_verify_sig(kl->verifier, e->alg, e->dtype, e->digest,
			      e->dlen, &h) == IMA_SIG_OK;
}

static void check_manifest(struct ima_audit *a, const struct ima_record *rec,
			   const struct entry_info *e)
{
	int rc = ima_manifest_check(a->opts->manifest, e->path, e->plen,
				    e->alg, e->digest, e->dlen);
	char got[IMA_DIGEST_TEXT], want[4 * IMA_DIGEST_TEXT];
	struct ima_fail_detail d = {
		.pcr = -1,
		.got = digest_text(got, e->alg, e->digest, e->dlen),
		.expected = want,
	};

	ima_manifest_listed(a->opts->manifest, e->path, e->plen, NULL, want,
			    sizeof(want));
	if (!want[0])
		d.expected = NULL;

	a->mf_checked++;
	if (rc != IMA_MF_UNKNOWN_PATH && ima_hash_collision_prone(e->alg)) {
		/* the manifest holds no such digest (its parser refuses them) */
		a->mf_no_algo++;
		rfail(a, rec, &d, IMA_FC_MANIFEST_ALGO,
				e->path, e->plen,
				"%s digest: collisions are practical, no reference can vouch for it",
				e->alg->name);
		return;
	}
	if (rc != IMA_MF_MATCH && keylime_signed(a, rec, e)) {
		a->mf_by_signature++;
		return;
	}
	switch (rc) {
	case IMA_MF_MATCH:
		a->mf_match++;
		return;
	case IMA_MF_UNKNOWN_PATH:
		a->mf_unknown++;
		rfail(a, rec, &d, IMA_FC_MANIFEST_PATH,
			       e->path, e->plen, "path not in manifest");
		return;
	case IMA_MF_WRONG_DIGEST:
		a->mf_wrong++;
		rfail(a, rec, &d, IMA_FC_MANIFEST_DIGEST,
			       e->path, e->plen,
			       "%s digest differs from the manifest",
			       e->alg->name);
		return;
	default:
		a->mf_no_algo++;
		rfail(a, rec, &d, IMA_FC_MANIFEST_ALGO,
			       e->path, e->plen,
			       "manifest has no %s digest for this path",
			       e->alg->name);
	}
}

/* "ima_policy" (ours before) or "ima_policy_loaded" (upstream) */
static bool policy_name(const char *p, size_t n)
{
	return (n == 10 && !memcmp(p, "ima_policy", 10)) ||
	       (n == 17 && !memcmp(p, "ima_policy_loaded", 17));
}

/* "kexec_load", "kexec_execute": the ima_kexec records */
static bool kexec_name(const char *p, size_t n)
{
	return (n == 10 && !memcmp(p, "kexec_load", 10)) ||
	       (n == 13 && !memcmp(p, "kexec_execute", 13));
}

/*
 * The template name is hashed by nothing: the list's holder can give a
 * record any name under which its data still frames. A record the kernel
 * wrote as the policy, an ima_kexec record or a boot_aggregate, renamed
 * so that its template has no buf or no such name, would drop out of
 * what they decide: the policy choice (an earlier policy then passing
 * --expect-policy), or the kernel boundaries (the list of two kernels
 * then reading as one, the first kernel's policy as the running one's).
 * So a record is read under every template its data allows
 * (ima_data_view: any field of the kernel's table, in any order and
 * number, the legacy d digest too), and data that reads as such a record
 * under a name that does not say so fails.
 */
static void check_relabeled(struct ima_audit *a, const struct ima_record *rec,
			    const struct entry_info *e, int ibuf)
{
	bool buf = ibuf >= 0 && rec->fields[ibuf].len;
	struct ima_data_view v;

	if (rec->tmpl.legacy ||
	    !ima_data_view(rec->data, rec->data_len, a->order, &v) ||
	    !v.ident)
		return;
	if ((v.ident & IMA_ID_POLICY) &&
	    !(buf && e->path && policy_name(e->path, e->plen)) &&
	    (a->bound & (1u << rec->pcr)))
		rfail(a, rec, NULL, IMA_FC_POLICY,
				e->path, e->plen,
				"policy: an ima-buf policy record logged as template '%s', which hides it: renamed",
				rec->name);
	if ((v.ident & (IMA_ID_KEXEC_LOAD | IMA_ID_KEXEC_EXECUTE)) &&
	    !(buf && e->path && kexec_name(e->path, e->plen)))
		rfail(a, rec, NULL, IMA_FC_KEXEC,
				e->path, e->plen,
				"an ima_kexec record (%s) logged as template '%s', which hides it: renamed",
				v.ident & IMA_ID_KEXEC_EXECUTE ? "kexec_execute" :
				"kexec_load", rec->name);
	if ((v.ident & IMA_ID_BOOT) &&
	    !(e->path && e->plen == 14 && !memcmp(e->path, "boot_aggregate", 14)))
		rfail(a, rec, NULL,
				rec->index ? IMA_FC_KEXEC : IMA_FC_BOOT_AGGREGATE,
				e->path, e->plen,
				"a boot_aggregate record logged as template '%s', which hides it (a kernel boundary): renamed",
				rec->name);
}

/*
 * A buffer record as the kernel writes one under any template: its
 * digest, its name and its buffer, and every other field empty (no file
 * field is filled for a buffer). Read as a buffer, a record escapes the
 * signature and manifest checks, so a record whose template has a buf
 * field but whose data fills other fields too is not one: it is checked
 * as a file.
 */
static bool only_buffer_fields(const struct ima_record *rec,
			       const struct entry_info *e, int ibuf)
{
	int i;

	for (i = 0; i < rec->nfields; i++)
		if (i != ibuf && i != e->idig && i != e->iname &&
		    rec->fields[i].len)
			return false;
	return true;
}

/*
 * --deny: a revoked file (or buffer) fails whatever else vouches for it;
 * an entry of an algorithm the list has no digest of cannot be cleared.
 */
static void check_deny(struct ima_audit *a, const struct ima_record *rec,
		       const struct entry_info *e)
{
	const struct ima_denylist *d = a->opts->deny;
	char got[IMA_DIGEST_TEXT];
	struct ima_fail_detail fd = {
		.pcr = -1,
		.got = digest_text(got, e->alg, e->digest, e->dlen),
	};
	unsigned long line;

	if (!ima_deny_has_algo(d, e->alg)) {
		a->deny_unchecked++;
		rfail(a, rec, &fd, IMA_FC_DENY_ALGO,
				e->path, e->plen,
				"%s lists no %s digest: this entry cannot be checked against it",
				ima_deny_name(d), e->alg->name);
		return;
	}
	a->deny_checked++;
	line = ima_deny_find(d, e->alg, e->digest, e->dlen);
	if (!line)
		return;
	a->denied++;
	rfail(a, rec, &fd, IMA_FC_DENIED, e->path,
			e->plen, "denied: its %s digest is listed in %s (line %lu)",
			e->alg->name, ima_deny_name(d), line);
}

/*
 * A file record (no buf) without a digest or a name field: a renamed
 * template can drop either, and the record must not then escape the
 * checks it would have had.
 */
static void check_unnamed(struct ima_audit *a, const struct ima_record *rec,
			  const struct entry_info *e)
{
	const char *what = !e->alg ? "digest" : "file name";

	if (a->opts->require_signatures) {
		a->sig.unsigned_++;
		rfail(a, rec, NULL, IMA_FC_UNSIGNED,
				e->path, e->plen,
				"no %s field (template '%s'): no signature can be verified",
				what, rec->name);
	}
	if (!a->opts->manifest)
		return;
	a->mf_checked++;
	if (!e->path) {
		a->mf_unknown++;
		rfail(a, rec, NULL,
				IMA_FC_MANIFEST_PATH, NULL, 0,
				"no file name field (template '%s'): not in the manifest",
				rec->name);
	} else {
		a->mf_wrong++;
		rfail(a, rec, NULL,
				IMA_FC_MANIFEST_DIGEST, e->path, e->plen,
				"no digest field (template '%s'): no manifest digest matches",
				rec->name);
	}
}

static void handover_unfollowed(struct ima_audit *a,
				const struct ima_record *rec)
{
	ima_audit_failc(a, a->exec_index, a->exec_offset, IMA_FC_KEXEC,
			NULL, 0, rec ?
			"kexec_execute is not followed by the next kernel's boot_aggregate" :
			"the list ends with a kexec_execute record: no kernel was handed over to");
	if (a->nhandovers)
		a->handovers[a->nhandovers - 1].ok = false;
}

static void add_kernel_start(struct ima_audit *a,
			     const struct ima_record *rec, bool pending)
{
	struct ima_kernel_start *nk = ima_reserve(a->kstarts, &a->cap_kstarts,
						  a->nkstarts, sizeof(*nk));

	if (!nk) {
		a->oom = true;
		return;
	}
	a->kstarts = nk;
	nk += a->nkstarts++;
	memset(nk, 0, sizeof(*nk));
	nk->index = rec->index;
	nk->pcr = rec->pcr;
	nk->has_ke = pending && a->exec_count_ok && a->exec_pcr == rec->pcr &&
		     a->exec_count >= a->exec_qpos;
	nk->ke_count = a->exec_count;
	nk->ke_qpos = a->exec_qpos;
}

static void audit_record(struct ima_audit *a, const struct ima_record *rec)
{
	uint8_t legacy[20 + IMA_LEGACY_NAME_MAX + 1];
	uint8_t tdig[IMA_MAX_DIGEST];
	struct entry_info e = { 0 };
	const uint8_t *data;
	bool fields_ok = false, pending, is_boot;
	size_t len;
	int ibuf;

	a->entries++;
	a->pcr_seen[rec->pcr]++;
	count_template(a, rec->name);
	e.violation = all_zero(rec->digest, rec->digest_len);
	if (rec->tmpl.known) {
		fields_ok = get_fields(a, rec, &e);
	} else {
		a->unknown_templates++;
		rfail(a, rec, NULL, IMA_FC_UNKNOWN_TEMPLATE,
			       NULL, 0, "unknown template '%s'", rec->name);
	}
	/* the table lookup misses the cache: start it before hashing */
	if (fields_ok && e.path && a->opts->manifest)
		ima_manifest_prefetch(a->opts->manifest, e.path, e.plen);
	data = hashed_data(rec, legacy, &len);
	if (e.violation) {
		a->violations++;
	} else {
		a->tmpl_checked++;
		ima_digest(a->list_alg, data, len, tdig);
		if (memcmp(tdig, rec->digest, rec->digest_len)) {
			a->tmpl_failed++;
			char got[IMA_DIGEST_TEXT], want[IMA_DIGEST_TEXT];
			struct ima_fail_detail d = {
				.pcr = -1,
				.got = digest_text(got, a->list_alg,
						   rec->digest,
						   rec->digest_len),
				.expected = digest_text(want, a->list_alg,
							tdig,
							rec->digest_len),
			};

			rfail(a, rec, &d, IMA_FC_TEMPLATE_HASH, e.path, e.plen,
			      "template hash mismatch");
		}
	}
	replay(a, rec, data, len, e.violation);
	if (!(a->bound & (1u << rec->pcr))) {
		if (a->opts->ignore_pcrs & (1u << rec->pcr))
			a->waived_entries[rec->pcr]++;
		else if (!a->quote_failed)
			rfail(a, rec, NULL,
					IMA_FC_UNBOUND_PCR, e.path, e.plen,
					"PCR %u is not bound: %s", rec->pcr,
					a->opts->quote ?
					"not in the quote's selection (or sha1 only)" :
					"no sha256/sha384/sha512 value given for it");
	}
	pending = a->exec_pending;
	a->exec_pending = false;
	if (!fields_ok) {
		if (pending)
			handover_unfollowed(a, rec);
		return;
	}
	/*
	 * A violation extends 0xff.., not a hash of its template data: its
	 * fields are attested by nothing, so it is never a boot_aggregate,
	 * an ima_kexec record, a policy or a file measurement.
	 */
	is_boot = !e.violation && e.plen == 14 &&
		  !memcmp(e.path, "boot_aggregate", 14);
	if (pending && !is_boot)
		handover_unfollowed(a, rec);
	if (rec->index == 0) {
		a->kernels = 1;
		if (is_boot) {
			check_boot_aggregate(a, rec, &e);
			offer(a, rec, &e, IMA_KL_DIGESTS);
			if (a->opts->keylime && e.alg &&
			    a->opts->keylime->has_boot_aggregate)
				check_manifest(a, rec, &e);
			return;
		}
		a->boot = IMA_BOOT_ABSENT;
		boot_unverified(a, rec, NULL,
				"the first entry is not boot_aggregate");
	} else if (is_boot) {
		/* a later kernel: its own boot_aggregate, handed over to */
		enum ima_boot_status before = a->boot;

		a->kernels++;
		add_kernel_start(a, rec, pending);
		/* a policy claimed before it was another kernel's */
		free(a->claimed_policy);
		a->claimed_policy = NULL;
		a->has_claimed_policy = false;
		if (a->opts->listkeys)	/* its .ima keyring starts empty */
			ima_listkeys_new_kernel(a->opts->listkeys);
		if (!pending)
			rfail(a, rec, NULL, IMA_FC_KEXEC,
					e.path, e.plen,
					"a later kernel's boot_aggregate without a kexec_execute record before it");
		check_boot_aggregate(a, rec, &e);
		offer(a, rec, &e, IMA_KL_DIGESTS);
		if (a->opts->keylime && e.alg &&
		    a->opts->keylime->has_boot_aggregate)
			check_manifest(a, rec, &e);
		if (before != IMA_BOOT_MATCH)
			a->boot = before;	/* the worst one is reported */
		return;
	}
	if (e.violation)
		return;
	ibuf = ima_record_field(rec, IMA_F_BUF);
	check_relabeled(a, rec, &e, ibuf);
	if (a->opts->deny && e.alg)
		check_deny(a, rec, &e);
	/*
	 * The kernel measures no empty buffer (ima_measure_critical_data(),
	 * ima_kexec_cmdline() and the key hook refuse one), and a file
	 * measured under a template with a buf field gets an empty one
	 * (ima_eventbuf_init()): a record with a digest and an empty buf is
	 * a file measurement. Checked as a buffer it would pass whenever the
	 * digest is sha256("") (an unsigned empty file's ima-sig record
	 * renamed ima-buf, its empty sig read as the buffer) and escape the
	 * signature and manifest checks. So is one whose buf starts as a
	 * signature (ima_sig_typed()): a file whose content is its own
	 * security.ima bytes, renamed the same way, would pass as a buffer.
	 */
	if (ibuf >= 0 && ((rec->fields[ibuf].len &&
			   !ima_sig_typed(rec->fields[ibuf].data,
					  rec->fields[ibuf].len) &&
			   only_buffer_fields(rec, &e, ibuf)) || !e.alg)) {
		check_buf(a, rec, &e, &rec->fields[ibuf]);
		return;
	}
	if (excluded(a, &e))
		return;		/* never judged */
	if (!e.alg || !e.path) {
		check_unnamed(a, rec, &e);
		return;
	}
	check_sigs(a, rec, &e);
	if (a->opts->manifest)
		check_manifest(a, rec, &e);
	offer(a, rec, &e, IMA_KL_DIGESTS);
}

/*
 * One coverage rule, with a quote or without: a bound PCR's given values
 * must all match one prefix of its entries; the entries after the last
 * such prefix fail unless allow_uncovered; a prefix of zero entries of a
 * PCR the list extends never passes.
 */
static void check_pcrs(struct ima_audit *a)
{
	const struct ima_pcr_values *v = &a->opts->pcrs;
	const struct ima_replay *rp = &a->replay;
	uint64_t k;
	int b, p;

	if (rp->oom)
		a->oom = true;
	for (p = 0; p < IMA_NR_PCRS; p++) {
		struct ima_fail_detail pd = { .pcr = p };
		bool all = true;

		if (!(a->bound & (1u << p)) ||
		    !(rp->count[p] || (a->opts->pcr_mask & (1u << p))))
			continue;
		for (b = 0; b < IMA_NR_BANKS; b++) {
			if (!(v->have[b] & (1u << p)) ||
			    !(rp->banks & (1u << b)) || rp->pcr[b][p].matched)
				continue;
			char got[IMA_DIGEST_TEXT], want[IMA_DIGEST_TEXT];
			const struct ima_hash_algo *alg = ima_bank_algo(b);
			struct ima_fail_detail d = {
				.pcr = p,
				.got = digest_text(got, alg, rp->pcr[b][p].val,
						   alg->size),
				.expected = digest_text(want, alg,
							v->val[b][p],
							alg->size),
			};

			all = false;
			ima_audit_faild(a, IMA_NO_INDEX, 0, IMA_FC_PCR_MISMATCH,
					NULL, 0, &d,
					"PCR %d %s matches no prefix of the log",
					p, ima_bank_name(b));
		}
		if (!all)
			continue;
		if (!rp->cover_ok[p]) {
			ima_audit_faild(a, IMA_NO_INDEX, 0,
					IMA_FC_PCR_BANKS_DISAGREE, NULL, 0, &pd,
					"PCR %d: its banks match different prefixes of the log",
					p);
			continue;
		}
		if (rp->count[p] && !rp->cover_count[p])
			ima_audit_faild(a, IMA_NO_INDEX, 0,
					IMA_FC_PCR_COVERS_NOTHING, NULL, 0, &pd,
					"PCR %d: the value matches before any entry: it covers none of the %llu measurements",
					p, (unsigned long long)rp->count[p]);
		if (!rp->npending[p])
			continue;
		if (a->opts->allow_uncovered) {
			a->uncovered_allowed += rp->npending[p];
			continue;
		}
		for (k = 0; k < rp->npending[p]; k++) {
			if (k >= IMA_REPLAY_MAX_PENDING) {
				/* counted, not listed: still failures */
				count_failures(a, IMA_FC_UNCOVERED,
					       rp->npending[p] - k);
				break;
			}
			ima_audit_faild(a, rp->pending[p][k].index,
					rp->pending[p][k].offset,
					IMA_FC_UNCOVERED, NULL, 0, &pd,
					"PCR %d: entries %llu..%lld not covered by the %s (it covers %llu of %llu measurements)",
					p,
					(unsigned long long)rp->pending[p][0].index,
					(long long)rp->last_index[p],
					a->opts->quote ? "quote" : "PCR values",
					(unsigned long long)rp->cover_count[p],
					(unsigned long long)rp->count[p]);
		}
	}
}

/* The quote's failed checks, and what they leave unattested. */
static void quote_failures(struct ima_audit *a)
{
	const struct ima_quote_check *c = a->opts->quote;
	int i;

	if (!c)
		return;
	for (i = 0; i < c->nreasons; i++)
		ima_audit_failc(a, IMA_NO_INDEX, 0, c->reason_class[i], NULL, 0,
				"%s", c->reasons[i]);
	if (a->quote_failed)
		ima_audit_failc(a, IMA_NO_INDEX, 0, IMA_FC_QUOTE_UNATTESTED,
				NULL, 0,
				"quote: a check failed, so no PCR value is trusted and no entry is attested");
}

/*
 * A policy as rules, the way the kernel reads and prints them: one rule a
 * line, its words separated by blanks, the action first and the options
 * in any order (the kernel prints them in its own order, with a blank
 * after each). The key of a rule: the action, then its options sorted,
 * one blank between. Blank lines never count; comment lines ('#', which
 * the kernel takes and never prints) only in the file (comments).
 */
struct policy_rule {
	const char *line;	/* as written, without its end blanks */
	size_t len;
	unsigned long lineno;
	char *key;
};

static int cmp_word(const void *x, const void *y)
{
	const char *const *a = x, *const *b = y;

	return strcmp(*a, *b);
}

static char *rule_key(const char *p, size_t n)
{
	char *copy = strndup(p, n), *w[256], *save = NULL, *key, *t;
	size_t nw = 0, i, len = 0;

	if (!copy)
		return NULL;
	for (t = strtok_r(copy, " \t\r", &save); t;
	     t = strtok_r(NULL, " \t\r", &save)) {
		if (nw == 256) {
			/* no kernel rule has so many words: compared as is */
			free(copy);
			return strndup(p, n);
		}
		w[nw++] = t;
	}
	if (nw > 1)
		qsort(w + 1, nw - 1, sizeof(*w), cmp_word);
	for (i = 0; i < nw; i++)
		len += strlen(w[i]) + 1;
	key = malloc(len + 1);
	if (key) {
		key[0] = '\0';
		for (i = 0; i < nw; i++) {
			if (i)
				strcat(key, " ");
			strcat(key, w[i]);
		}
	}
	free(copy);
	return key;
}

static int policy_rules(const uint8_t *text, size_t n, bool comments,
			struct policy_rule **out, size_t *count)
{
	const char *p = (const char *)text, *end = p + n;
	struct policy_rule *r = NULL;
	unsigned long lineno = 0;
	size_t cap = 0;

	*count = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *s = p;
		struct policy_rule *nr;

		lineno++;
		p = nl ? nl + 1 : end;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' ||
				 e[-1] == '\r'))
			e--;
		if (s == e || (comments && *s == '#'))
			continue;
		nr = ima_reserve(r, &cap, *count, sizeof(*r));
		if (!nr)
			goto oom;
		r = nr;
		r[*count].line = s;
		r[*count].len = (size_t)(e - s);
		r[*count].lineno = lineno;
		r[*count].key = rule_key(s, (size_t)(e - s));
		if (!r[(*count)++].key)
			goto oom;
	}
	*out = r;
	return 0;
oom:
	while (*count)
		free(r[--*count].key);
	free(r);
	return -1;
}

static void free_rules(struct policy_rule *r, size_t n)
{
	while (n)
		free(r[--n].key);
	free(r);
}

/* A rule as text for a message: escaped, at most 160 bytes of it. */
static char *rule_text(const struct policy_rule *r)
{
	char buf[4 * 160 + 8];

	ima_escape(buf, sizeof(buf), r->line, r->len > 160 ? 160 : r->len);
	if (r->len > 160)
		strcat(buf, "...");
	return strdup(buf);
}

/*
 * The recorded policy against the expected file, rule by rule (above):
 * the first rule that differs, from each side, is what the failure says.
 */
static void policy_compare(struct ima_audit *a, const uint8_t *want,
			   size_t wlen)
{
	const char *name = a->opts->expect_policy_name;
	struct policy_rule *got = NULL, *exp = NULL;
	struct ima_fail_detail d = { .pcr = -1 };
	size_t ng = 0, ne = 0, i;

	if (policy_rules(a->policy, a->policy_len, false, &got, &ng) ||
	    policy_rules(want, wlen, true, &exp, &ne)) {
		free_rules(got, ng);
		a->oom = true;
		return;
	}
	for (i = 0; i < ng && i < ne; i++)
		if (strcmp(got[i].key, exp[i].key))
			break;
	if (i == ng && i == ne) {
		a->policy_match = 1;	/* the same rules, as printed */
		goto out;
	}
	a->policy_match = 0;
	a->policy_rule = i + 1;
	if (i < ng)
		a->policy_got = rule_text(&got[i]);
	if (i < ne) {
		a->policy_want = rule_text(&exp[i]);
		a->policy_want_line = exp[i].lineno;
	}
	if (i < ng && i < ne)
		snprintf(a->policy_diff, sizeof(a->policy_diff),
			 "rule %zu differs: recorded '%s', %s line %lu '%s'",
			 i + 1, a->policy_got ? a->policy_got : "",
			 name, exp[i].lineno,
			 a->policy_want ? a->policy_want : "");
	else if (i < ng)
		snprintf(a->policy_diff, sizeof(a->policy_diff),
			 "the recorded policy has %zu rule(s) more than %s, from rule %zu: '%s'",
			 ng - ne, name, i + 1,
			 a->policy_got ? a->policy_got : "");
	else
		snprintf(a->policy_diff, sizeof(a->policy_diff),
			 "%s has %zu rule(s) more than the recorded policy, from its line %lu: '%s'",
			 name, ne - ng, exp[i].lineno,
			 a->policy_want ? a->policy_want : "");
	d.got = a->policy_got;
	d.expected = a->policy_want;
	ima_audit_faild(a, a->policy_index, a->policy_offset, IMA_FC_POLICY,
			NULL, 0, &d, "policy: %s", a->policy_diff);
out:
	free_rules(got, ng);
	free_rules(exp, ne);
}

static void check_policy(struct ima_audit *a)
{
	const uint8_t *want = a->opts->expect_policy;
	size_t wlen = a->opts->expect_policy_len;

	if (!want)
		return;
	if (!a->policy_found) {
		a->policy_match = 0;
		if (a->policy_unattributed) {
			ima_audit_failc(a, IMA_NO_INDEX, 0, IMA_FC_POLICY, NULL,
					0, "policy: cannot attribute a policy to the last kernel: %s",
					a->policy_diff);
			return;
		}
		if (a->kernel_start)
			snprintf(a->policy_diff, sizeof(a->policy_diff),
				 "no ima_policy entry of the last kernel (entries from %llu, after a kexec) bound and covered in the log",
				 (unsigned long long)a->kernel_start);
		else
			snprintf(a->policy_diff, sizeof(a->policy_diff),
				 "no ima_policy entry bound and covered in the log");
		ima_audit_failc(a, IMA_NO_INDEX, 0, IMA_FC_POLICY, NULL, 0,
			       "policy: %s", a->policy_diff);
		return;
	}
	if (wlen == a->policy_len && !memcmp(want, a->policy, wlen)) {
		a->policy_match = 1;
		return;
	}
	policy_compare(a, want, wlen);
}

static int cmp_failure(const void *pa, const void *pb)
{
	const struct ima_failure *x = pa, *y = pb;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return 0;
}

void ima_audit_run(struct ima_audit *a, struct ima_reader *r)
{
	struct ima_record *rec = malloc(sizeof(*rec));
	int rc;

	if (!rec) {
		a->io_error = true;
		a->oom = true;
		snprintf(a->error, sizeof(a->error), "out of memory");
		audit_replay_finish(a);
		audit_sigs_done(a);	/* no job outlives the run */
		return;
	}
	/*
	 * The list's template digests: sha1, or a per-bank list's bank
	 * (given, or an ASCII list's digest length); that bank extends them
	 * as logged, the others hash the template data.
	 */
	rc = ima_reader_start(r);
	a->format = r->format;
	a->list_alg = r->digest_alg ? r->digest_alg :
		      ima_bank_algo(IMA_BANK_SHA1);
	a->list_bank = ima_bank_by_name(a->list_alg->name,
					strlen(a->list_alg->name));
	audit_replay_list_bank(a, a->list_bank);
	while (rc == IMA_READ_RECORD) {
		rc = ima_reader_next(r, rec);
		if (rc != IMA_READ_RECORD)
			break;
		a->order = r->order;
		audit_record(a, rec);
		if (a->opts->on_record)
			a->opts->on_record(a->opts->record_ctx, rec);
	}
	a->bytes = r->buf_pos;
	a->order = r->order;
	a->ascii_bytes = ima_reader_ascii_bytes(r);
	a->ascii_lines = ima_reader_ascii_lines(r);
	if (rc == IMA_READ_MALFORMED) {
		a->malformed = true;
		a->error_offset = r->err_offset;
		snprintf(a->error, sizeof(a->error), "%s", r->err);
	} else if (rc == IMA_READ_IO) {
		a->io_error = true;
		a->error_offset = r->buf_pos;
		snprintf(a->error, sizeof(a->error), "%s", r->err);
	}
	free(rec);
	if (a->exec_pending && rc == IMA_READ_EOF)
		handover_unfollowed(a, NULL);
	/* an empty list has no boot_aggregate either (nor is a kernel's) */
	if (!a->entries && rc == IMA_READ_EOF)
		boot_unverified(a, NULL, NULL, "the list is empty");
	audit_replay_finish(a);
	audit_sigs_done(a);
	quote_failures(a);
	if (!a->malformed && !a->io_error) {
		check_pcrs(a);
		check_list_keys(a);
		pick_policy(a);
		check_policy(a);
	}
	if (a->oom && !a->malformed && !a->io_error)
		snprintf(a->error, sizeof(a->error),
			 "out of memory: the audit is incomplete");
	if (a->nfailures)
		qsort(a->failures, a->nfailures, sizeof(*a->failures),
		      cmp_failure);
	if (a->opts->keylime_out) {
		keylime_offers_done(a);
		if (a->oom && !a->error[0])
			snprintf(a->error, sizeof(a->error),
				 "out of memory: the audit is incomplete");
	}
}

bool ima_audit_covered(const struct ima_audit *a, uint32_t pcr,
		       uint64_t index)
{
	return pcr < IMA_NR_PCRS && covered(a, pcr, index);
}

int ima_audit_exit_code(const struct ima_audit *a)
{
	if (a->malformed || a->io_error || a->oom)
		return IMA_EXIT_MALFORMED;
	if (a->failure_count)
		return IMA_EXIT_FAIL;
	if (a->write_error)
		return IMA_EXIT_USAGE;
	return IMA_EXIT_OK;
}
