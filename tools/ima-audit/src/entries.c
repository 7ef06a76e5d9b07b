// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page's entry table: one row per entry (what the list says of it),
 * the verdict the audit gives each entry, and what to do about each class
 * of failure.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ima_audit.h"
#include "ima_html.h"
#include "ima_sig.h"

void ima_table_init(struct ima_table *t)
{
	memset(t, 0, sizeof(*t));
}

void ima_table_free(struct ima_table *t)
{
	free(t->rows);
	free(t->arena);
	memset(t, 0, sizeof(*t));
}

static int intern_template(struct ima_table *t, const char *name)
{
	int i;

	for (i = 0; i < t->ntemplates; i++)
		if (!strcmp(t->templates[i], name))
			return i;
	if (t->ntemplates == IMA_TABLE_MAX_TEMPLATES)
		return IMA_TABLE_MAX_TEMPLATES;
	strcpy(t->templates[t->ntemplates], name);
	return t->ntemplates++;
}

/* The name field: n-ng up to its NUL, or the legacy n. */
static void row_path(struct ima_table *t, struct ima_table_row *row,
		     const struct ima_record *rec)
{
	int i = ima_record_field(rec, IMA_F_N_NG);
	const struct ima_field *f;
	const uint8_t *nul;
	size_t len, keep, ncap;
	char *na;

	row->path_off = SIZE_MAX;
	if (i < 0)
		i = ima_record_field(rec, IMA_F_N);
	if (i < 0)
		return;
	f = &rec->fields[i];
	nul = memchr(f->data, '\0', f->len);
	len = nul ? (size_t)(nul - f->data) : f->len;
	keep = len > IMA_TABLE_MAX_PATH ? IMA_TABLE_MAX_PATH : len;
	if (t->arena_len + keep > t->arena_cap) {
		ncap = t->arena_cap ? t->arena_cap : 1 << 16;
		while (ncap < t->arena_len + keep)
			ncap *= 2;
		na = realloc(t->arena, ncap);
		if (!na) {
			t->oom = true;
			return;
		}
		t->arena = na;
		t->arena_cap = ncap;
	}
	memcpy(t->arena + t->arena_len, f->data, keep);
	row->path_off = t->arena_len;
	row->path_len = (uint32_t)keep;
	row->path_full = (uint32_t)len;
	t->arena_len += keep;
}

static void row_digest(struct ima_table_row *row, const struct ima_record *rec)
{
	const struct ima_hash_algo *alg;
	const uint8_t *d;
	const char *name;
	size_t nlen;
	uint32_t dlen;
	int i = ima_record_field(rec, IMA_F_D_NG);

	if (i < 0)
		i = ima_record_field(rec, IMA_F_D_NGV2);
	if (i >= 0) {
		if (ima_split_digest_field(rec->fields[i].data,
					   rec->fields[i].len, NULL, &name,
					   &nlen, &d, &dlen))
			return;
		alg = ima_hash_by_name(name, nlen);
	} else {
		i = ima_record_field(rec, IMA_F_D);
		if (i < 0)
			return;
		alg = ima_hash_by_name("sha1", (size_t)-1);
		d = rec->fields[i].data;
		dlen = rec->fields[i].len;
	}
	if (!alg || dlen != alg->size || dlen > sizeof(row->digest))
		return;
	row->alg = alg->name;
	row->dlen = (uint8_t)dlen;
	memcpy(row->digest, d, dlen);
}

static void row_sig(struct ima_table_row *row, const struct ima_record *rec)
{
	int i = ima_record_field(rec, IMA_F_SIG);
	struct ima_sig_hdr h;

	if (i >= 0 && rec->fields[i].len) {
		if (ima_sig_parse(rec->fields[i].data, rec->fields[i].len,
				  &h) == IMA_SIG_OK) {
			row->sig = IMA_ES_V2;
			row->keyid = h.keyid;
		} else {
			row->sig = IMA_ES_OTHER;
		}
		return;
	}
	i = ima_record_field(rec, IMA_F_MODSIG);
	if (i >= 0 && rec->fields[i].len)
		row->sig = IMA_ES_MODSIG;
}

static bool zero20(const uint8_t *p)
{
	int i;

	for (i = 0; i < 20; i++)
		if (p[i])
			return false;
	return true;
}

void ima_table_record(void *ctx, const struct ima_record *rec)
{
	struct ima_table *t = ctx;
	struct ima_table_row *row;

	t->seen++;
	if (t->oom || t->nrows == IMA_TABLE_MAX_ROWS)
		return;
	row = ima_reserve(t->rows, &t->cap, t->nrows, sizeof(*row));
	if (!row) {
		t->oom = true;
		return;
	}
	t->rows = row;
	row = &t->rows[t->nrows];
	memset(row, 0, sizeof(*row));
	row->index = rec->index;
	row->offset = rec->offset;
	row->pcr = rec->pcr;
	row->tmpl = (uint8_t)intern_template(t, rec->name);
	row->violation = zero20(rec->digest);
	row_path(t, row, rec);
	if (t->oom)
		return;
	row_digest(row, rec);
	row_sig(row, rec);
	t->nrows++;
}

/*
 * Fail closed: an entry is OK only when the audit is complete, every
 * failure is listed (so none names it unseen), its PCR is bound and the
 * entry lies in the prefix the given or quoted values cover.
 */
int ima_entry_verdict(const struct ima_audit *a, uint32_t pcr,
		      uint64_t index, bool failed)
{
	const struct ima_replay *rp = &a->replay;

	if (failed)
		return IMA_EV_FAIL;
	if (a->malformed || a->io_error || a->oom ||
	    a->failure_count > a->nfailures || pcr >= IMA_NR_PCRS)
		return IMA_EV_UNPROVEN;
	if (a->opts->ignore_pcrs & (1u << pcr))
		return IMA_EV_WAIVED;
	if (ima_audit_covered(a, pcr, index))
		return IMA_EV_OK;
	if (a->opts->allow_uncovered && (a->bound & (1u << pcr)) &&
	    rp->cover_ok[pcr] && (int64_t)index > rp->cover_index[pcr])
		return IMA_EV_WAIVED;
	return IMA_EV_UNPROVEN;
}

const char *ima_entry_verdict_name(int v)
{
	static const char *const names[] = {
		[IMA_EV_OK] = "ok",
		[IMA_EV_FAIL] = "fail",
		[IMA_EV_WAIVED] = "waived",
		[IMA_EV_UNPROVEN] = "unproven",
	};

	return v >= 0 && v < IMA_EV_COUNT ? names[v] : "unproven";
}

static const char *const advice[IMA_FC_COUNT] = {
	[IMA_FC_GENERIC] =
		"Read the reason: the check named there failed.",
	[IMA_FC_TEMPLATE_HASH] =
		"The entry was changed after the kernel measured it: treat the list as forged and collect it again from the machine.",
	[IMA_FC_UNKNOWN_TEMPLATE] =
		"The template is not one this auditor reads: check the kernel's ima_template= setting; an unknown name may hide a relabeled record.",
	[IMA_FC_MALFORMED_FIELD] =
		"A field does not parse as the kernel writes it: the list was altered or is not an IMA list.",
	[IMA_FC_BOOT_AGGREGATE] =
		"The first entry does not match PCRs 0-9: the list belongs to another boot or PCRs 0-9 were not read from this TPM. Give the PCR values of the same boot.",
	[IMA_FC_BOOT_UNVERIFIED] =
		"The quote does not cover the PCRs boot_aggregate is made of: quote PCRs 0-9 too (or waive with --allow-unverified-boot, reported).",
	[IMA_FC_BAD_SIGNATURE] =
		"The file's signature does not verify: the file was changed after signing, or signed by another key with the same key id. Do not trust the file.",
	[IMA_FC_UNKNOWN_KEY] =
		"No key given has this key id: pass the right certificate with --key, or the file was signed by a key you do not trust.",
	[IMA_FC_SIG_ALGO] =
		"The signature's hash algorithm is not acceptable for the measured digest (md4/md5, or it differs from the digest's): re-sign with sha256 or better.",
	[IMA_FC_SIG_MALFORMED] =
		"The signature bytes do not parse: the xattr was damaged or forged. Re-sign the file.",
	[IMA_FC_SIG_UNSUPPORTED] =
		"A signature type or algorithm this auditor does not verify: nothing about the file is proven.",
	[IMA_FC_SIG_TYPE] =
		"A file-hash signature over an fs-verity digest, or an fs-verity one over a file hash: the kernel refuses it, and it proves nothing of this file. Sign the file with the type its rule measures (evmctl sign --veritysig for digest_type=verity).",
	[IMA_FC_UNSIGNED] =
		"The file has no signature and --require-signatures is set: sign it (evmctl ima_sign) or find out why it ran.",
	[IMA_FC_MANIFEST_PATH] =
		"The path is not in the manifest: an unexpected file ran. Add it to the manifest only if you know it.",
	[IMA_FC_MANIFEST_DIGEST] =
		"The file's digest differs from the manifest: the file was changed.",
	[IMA_FC_MANIFEST_ALGO] =
		"The manifest has no digest of this algorithm for the path: add one (sha256sum output) or measure with the manifest's algorithm.",
	[IMA_FC_BUF_DIGEST] =
		"The buffer does not hash to the recorded digest: the record was altered.",
	[IMA_FC_POLICY] =
		"The policy the kernel recorded is not the expected one (or none is recorded): compare them below; load the signed policy.",
	[IMA_FC_PCR_MISMATCH] =
		"No prefix of the list replays to the given value: the list is not the TPM's, or the values are from another boot.",
	[IMA_FC_PCR_BANKS_DISAGREE] =
		"The banks match different prefixes: one bank's value was forged or read at another time. Read all banks in one go (a quote).",
	[IMA_FC_PCR_COVERS_NOTHING] =
		"The value matches before any entry: it vouches for nothing in the list. Read the PCRs after the list, not before.",
	[IMA_FC_UNBOUND_PCR] =
		"Nothing binds this PCR: give its values (--pcrs FILE, --pcr-value sha256:N=HEX, --tpm-sysfs on the machine itself, or a TPM quote), or waive it with --ignore-pcr N (reported).",
	[IMA_FC_UNCOVERED] =
		"The entries after the covered prefix were added after the PCRs were read: quote again, or accept with --allow-uncovered (reported).",
	[IMA_FC_QUOTE_MAGIC] =
		"The quote was not generated by a TPM: it is forged.",
	[IMA_FC_QUOTE_TYPE] =
		"The attestation is not a quote: it is another TPM structure, not evidence of PCR values.",
	[IMA_FC_QUOTE_NONCE] =
		"The quote's nonce is not yours: it is replayed. Ask for a fresh quote with a new nonce.",
	[IMA_FC_QUOTE_SIGNATURE] =
		"The quote is not signed by the attestation key given: wrong AK or a forged quote.",
	[IMA_FC_QUOTE_PCR_DIGEST] =
		"The PCR values given do not hash to the quoted digest: they are not the quoted ones.",
	[IMA_FC_QUOTE_UNATTESTED] =
		"Because the quote failed, no PCR value is trusted and no entry is attested: fix the quote first.",
	[IMA_FC_KEXEC] =
		"A kexec hand-over does not add up (entry count, list size, segment) or a kernel boundary is hidden: the list was cut or spliced.",
	[IMA_FC_LIST_KEY] =
		"A key the list put on .ima does not chain to the --ca certificate (or is a CA, or lacks digitalSignature), or the signature rests on a key whose own record is not attested: trust neither.",
	[IMA_FC_DENIED] =
		"The file (or buffer) is on the --deny list: a revoked binary ran on the machine, whatever its signature says.",
	[IMA_FC_DENY_ALGO] =
		"The deny list has no digest of this entry's algorithm, so it cannot clear it: add digests of that algorithm (sha256sum output) or measure with the list's.",
};

const char *ima_fail_class_advice(int cls)
{
	if (cls < 0 || cls >= IMA_FC_COUNT || !advice[cls])
		return NULL;
	return advice[cls];
}
