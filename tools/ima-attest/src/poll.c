// SPDX-License-Identifier: GPL-2.0-only
/*
 * Incremental verification of a running guest's measurement list: each
 * round brings a fresh quote and only the entries after the offset the
 * verifier names; the verifier continues from its saved state (Keylime's
 * incremental attestation).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ima_attest.h"
#include "ima_audit.h"
#include "ima_hash.h"
#include "ima_log.h"
#include "ima_sig.h"

static const int banks[2] = { IMA_BANK_SHA1, IMA_BANK_SHA256 };

static int hexin(const char *h, uint8_t *out, size_t n)
{
	return ima_hex2bin(h, strlen(h), out, n) == (int)n ? 0 : -1;
}

#define STATE_MAX	4096

int att_poll_load(struct att_poll_state *st, const char *path, char *err,
		  size_t errlen)
{
	char dir[4096], a[160], rerr[ATT_REASON_LEN];
	const char *name, *line, *nl;
	unsigned long long x, y;
	uint8_t *text;
	size_t len;
	int got = 0, fd, ret = -1;

	memset(st, 0, sizeof(*st));
	fd = att_path_open(path, dir, sizeof(dir), &name, err, errlen);
	if (fd < 0)
		return -1;
	text = att_file_read(fd, dir, name, STATE_MAX, &len, rerr,
			     sizeof(rerr));
	close(fd);
	if (!text) {
		if (errno == ENOENT)
			return 1;	/* no state yet: a new one */
		snprintf(err, errlen, "%s", rerr);
		return -1;
	}
	line = (const char *)text;
	if (strncmp(line, "ima-attest-state 1\n", 19)) {
		snprintf(err, errlen, "%s is not an ima-attest state file", path);
		goto out;
	}
	for (line += 19; *line; line = nl + 1) {
		char l[256];

		nl = strchr(line, '\n');
		if (!nl || (size_t)(nl - line) >= sizeof(l)) {
			snprintf(err, errlen, "%s: a line too long or unfinished", path);
			goto out;
		}
		memcpy(l, line, (size_t)(nl - line));
		l[nl - line] = '\0';
		if (sscanf(l, "ak %159s", a) == 1 && strlen(a) % 2 == 0 &&
		    strlen(a) / 2 <= sizeof(st->ak_name) &&
		    ima_hex2bin(a, strlen(a), st->ak_name, sizeof(st->ak_name)) > 0) {
			st->ak_name_len = strlen(a) / 2;
			got |= 8;
		} else if (sscanf(l, "boot %llu %llu", &x, &y) == 2 && x <= UINT32_MAX &&
		    y <= UINT32_MAX) {
			st->have_boot = true;
			st->reset_count = (uint32_t)x;
			st->restart_count = (uint32_t)y;
		} else if (sscanf(l, "clock %llu", &x) == 1) {
			st->clock = x;
		} else if (sscanf(l, "next %llu %llu", &x, &y) == 2) {
			st->next_index = x;
			st->next_offset = y;
			got |= 1;
		} else if (sscanf(l, "pcr10 sha1 %159s", a) == 1 && !hexin(a, st->pcr[0], 20)) {
			got |= 2;
		} else if (sscanf(l, "pcr10 sha256 %159s", a) == 1 && !hexin(a, st->pcr[1], 32)) {
			got |= 4;
		} else if (sscanf(l, "rounds %llu", &x) == 1) {
			st->rounds = x;
		} else {
			ima_escape(a, 80, l, strlen(l));
			snprintf(err, errlen, "%s: bad line: %s", path, a);
			goto out;
		}
	}
	if (got != 15) {
		snprintf(err, errlen, "%s lacks an ak, next or pcr10 line", path);
		goto out;
	}
	ret = 0;
out:
	free(text);
	return ret;
}

int att_poll_save(const struct att_poll_state *st, const char *path,
		  char *err, size_t errlen)
{
	char dir[4096], text[STATE_MAX], h1[41], h2[65];
	char ak[2 * ATT_MAX_NAME + 1];
	const char *name;
	int fd, n, ret;

	ima_bin2hex(st->pcr[0], 20, h1);
	ima_bin2hex(st->pcr[1], 32, h2);
	ima_bin2hex(st->ak_name, st->ak_name_len, ak);
	n = snprintf(text, sizeof(text), "ima-attest-state 1\nak %s\n", ak);
	if (st->have_boot)
		n += snprintf(text + n, sizeof(text) - (size_t)n,
			      "boot %" PRIu32 " %" PRIu32 "\nclock %" PRIu64 "\n",
			      st->reset_count, st->restart_count, st->clock);
	n += snprintf(text + n, sizeof(text) - (size_t)n,
		      "next %" PRIu64 " %" PRIu64 "\npcr10 sha1 %s\npcr10 sha256 %s\nrounds %" PRIu64 "\n",
		      st->next_index, st->next_offset, h1, h2, st->rounds);
	fd = att_path_open(path, dir, sizeof(dir), &name, err, errlen);
	if (fd < 0)
		return -1;
	ret = att_file_write(fd, dir, name, text, (size_t)n, err, errlen);
	close(fd);
	return ret;
}

static bool matches(uint8_t pcr[2][ATT_MAX_DIGEST], const struct ima_pcr_values *q)
{
	return !memcmp(pcr[0], q->val[IMA_BANK_SHA1][ATT_POLL_PCR], 20) &&
	       !memcmp(pcr[1], q->val[IMA_BANK_SHA256][ATT_POLL_PCR], 32);
}

static void extend(uint8_t *pcr, int bank, const uint8_t *d)
{
	const struct ima_hash_algo *alg = ima_bank_algo(bank);
	uint8_t in[2 * IMA_MAX_DIGEST];

	memcpy(in, pcr, alg->size);
	memcpy(in + alg->size, d, alg->size);
	ima_digest(alg, in, 2 * alg->size, pcr);
}

/*
 * No bank hashes the template name: whoever sends the list can give a
 * record any name under which its data still frames ("ima-sig" and
 * "ima-buf" have the same length and layout). So a record is read here
 * by its data (ima_data_view), never by the name it carries: by position
 * for a file's digest, name and signature (the ima-sig layout, the only
 * one whose signatures poll verifies), and under every template the data
 * allows for what decides the checks (a buffer, a boot_aggregate, a
 * kexec_execute record), in any of the kernel's fields and any order.
 */

/* the record's name for a message, at most 80 bytes */
static int shown(const struct ima_data_view *v, const char **name)
{
	*name = v->name ? v->name : "?";
	return v->name ? (int)(v->nlen > 80 ? 80 : v->nlen) : 1;
}

/* a new file entry must carry a signature that verifies; buffers (keys,
 * the policy, kexec records) and boot_aggregate are not files */
static void check_sig(struct att_poll_round *r, const struct ima_data_view *v,
		      uint64_t index)
{
	struct ima_sig_hdr h;
	const char *name;
	int nlen = shown(v, &name), rc;

	/* a boot_aggregate is checked against the quoted PCRs 0-9 instead
	 * (check_handover, entry 0): a file cannot pass that */
	if (v->buf || (v->ident & IMA_ID_BOOT))
		return;
	if (!v->alg) {
		att_reason(&r->rs, IMA_FC_MALFORMED_FIELD, "entry %" PRIu64 " (%.*s): no file digest", index,
			   nlen, name);
		return;
	}
	if (v->n < 3 || v->len[2] == 0) {
		att_reason(&r->rs, IMA_FC_UNSIGNED, "entry %" PRIu64 " (%.*s): unsigned: a file the verifier does not know",
			   index, nlen, name);
		return;
	}
	rc = ima_sig_parse(v->f[2], v->len[2], &h);
	if (rc == IMA_SIG_OK)
		rc = ima_verify_sig(r->verifier, v->alg, v->dtype, v->dig,
				    v->dlen, &h);
	if (rc == IMA_SIG_WEAK_DIGEST)
		att_reason(&r->rs, IMA_FC_SIG_ALGO, "entry %" PRIu64 " (%.*s): a signature over an %s digest attests nothing (collisions are practical)",
			   index, nlen, name, v->alg->name);
	else if (rc == IMA_SIG_TYPE_MISMATCH)
		att_reason(&r->rs, IMA_FC_SIG_TYPE, "entry %" PRIu64 " (%.*s): %s signature over %s digest: the kernel refuses it",
			   index, nlen, name,
			   h.type == IMA_VERITY_DIGSIG ? "an fs-verity" : "a file-hash",
			   v->dtype == IMA_DT_VERITY ? "an fs-verity" : "a file-hash");
	else if (rc != IMA_SIG_OK)
		att_reason(&r->rs, rc == IMA_SIG_UNKNOWN_KEY ? IMA_FC_UNKNOWN_KEY :
			   rc == IMA_SIG_MALFORMED ? IMA_FC_SIG_MALFORMED :
			   rc == IMA_SIG_UNSUPPORTED ? IMA_FC_SIG_UNSUPPORTED :
			   IMA_FC_BAD_SIGNATURE,
			   "entry %" PRIu64 " (%.*s): signature does not verify with the IMA key%s",
			   index, nlen, name,
			   rc == IMA_SIG_UNKNOWN_KEY ? ": no key of its key id was given (--key)" :
			   rc == IMA_SIG_MALFORMED ? ": the signature is malformed" :
			   rc == IMA_SIG_UNSUPPORTED ? ": its algorithm or format is not supported" : "");
}

/*
 * --deny: a revoked file (or buffer) the guest measured fails the round,
 * signed or not; one of an algorithm the list has no digest of cannot be
 * cleared. boot_aggregate is no file.
 */
static void check_deny(struct att_poll_round *r, const struct ima_data_view *v,
		       uint64_t index)
{
	const char *name;
	int nlen = shown(v, &name);
	unsigned long line;

	if (!v->alg || (v->ident & IMA_ID_BOOT))
		return;
	if (!ima_deny_has_algo(r->deny, v->alg)) {
		att_reason(&r->rs, IMA_FC_DENY_ALGO, "entry %" PRIu64 " (%.*s): %s lists no %s digest: it cannot be checked against it",
			   index, nlen, name, ima_deny_name(r->deny), v->alg->name);
		return;
	}
	line = ima_deny_find(r->deny, v->alg, v->dig, v->dlen);
	if (line)
		att_reason(&r->rs, IMA_FC_DENIED, "entry %" PRIu64 " (%.*s): denied: its %s digest is listed in %s (line %lu)",
			   index, nlen, name, v->alg->name, ima_deny_name(r->deny),
			   line);
}

/* a boot_aggregate record whose sha256 digest is the quoted PCRs 0-9's */
static bool aggregate_ok(const struct ima_data_view *v,
			 const struct ima_pcr_values *q)
{
	uint8_t agg[32];

	return v->alg && v->dlen == 32 &&
	       !ima_boot_aggregate(q, IMA_BANK_SHA256, agg) &&
	       !memcmp(agg, v->dig, 32);
}

/*
 * A kexec hands the list over: the old kernel's last record is
 * kexec_execute (critical data, ima-buf), and the next kernel's IMA
 * extends its own boot_aggregate before any process runs. So the record
 * after kexec_execute must be that boot_aggregate, and a boot_aggregate
 * anywhere but entry 0 must follow a kexec_execute (else it is some file
 * that IMA logged under that name, whose signature would go unchecked).
 * *pending: the previous record was kexec_execute (its index in *exec).
 */
static void check_handover(struct att_poll_round *r,
			   const struct ima_data_view *v,
			   uint64_t index, bool violation, bool *pending,
			   uint64_t *exec)
{
	bool boot = !violation && (v->ident & IMA_ID_BOOT);

	if (index > 0 && boot && !*pending)
		att_reason(&r->rs, IMA_FC_KEXEC, "entry %" PRIu64 ": a boot_aggregate after entry 0 without a kexec_execute record just before it",
			   index);
	else if (index > 0 && boot && !aggregate_ok(v, r->quoted))
		att_reason(&r->rs, IMA_FC_KEXEC, "entry %" PRIu64 ": the next kernel's boot_aggregate is not the one of the quoted PCRs 0-9",
			   index);
	else if (*pending && !boot)
		att_reason(&r->rs, IMA_FC_KEXEC, "entry %" PRIu64 ": kexec_execute (entry %" PRIu64 ") is not followed by the next kernel's boot_aggregate",
			   index, *exec);
	*pending = !violation && (v->ident & IMA_ID_KEXEC_EXECUTE);
	if (*pending)
		*exec = index;
}

int att_poll(struct att_poll_state *st, struct att_poll_round *r)
{
	/* the agent sends binary entries (their offsets are the binary list's) */
	struct ima_reader_opts opts = { .order = IMA_BO_LITTLE,
					.format = IMA_FMT_BINARY };
	uint8_t pcr[2][ATT_MAX_DIGEST], best[2][ATT_MAX_DIGEST];
	uint64_t n = 0, covered = 0, covered_end = 0, index;
	const struct ima_pcr_values *q = r->quoted;
	bool matched, first_agg_ok = true, pending = false, covered_pending = false;
	uint64_t exec = 0;
	struct ima_record rec;
	struct ima_reader rd;
	struct ima_data_view v;
	int st_r, b, before = r->rs.n;

	r->verified = r->uncovered = 0;
	if (!(q->have[IMA_BANK_SHA1] & (1u << ATT_POLL_PCR)) ||
	    !(q->have[IMA_BANK_SHA256] & (1u << ATT_POLL_PCR))) {
		att_reason(&r->rs, IMA_FC_UNBOUND_PCR, "PCR 10 of the sha1 and sha256 banks is not in the quote");
		return r->rs.n - before;
	}
	if (st->have_boot && (r->reset_count != st->reset_count ||
			      r->restart_count != st->restart_count))
		att_reason(&r->rs, ATT_FC_REBOOT, "the guest rebooted since the last round (resetCount %" PRIu32 " -> %" PRIu32 ", restartCount %" PRIu32 " -> %" PRIu32 "): the saved state is of another boot",
			   st->reset_count, r->reset_count, st->restart_count,
			   r->restart_count);
	if (st->have_boot && r->clock < st->clock)
		att_reason(&r->rs, ATT_FC_CLOCK, "the TPM clock went backwards (%" PRIu64 " ms, last round %" PRIu64 " ms)",
			   r->clock, st->clock);
	if (r->offset != st->next_offset)
		att_reason(&r->rs, ATT_FC_OFFSET, "the entries start at byte %" PRIu64 ", the verifier asked for byte %" PRIu64 " (entries withheld or repeated)",
			   r->offset, st->next_offset);
	if (r->rs.n > before)
		return r->rs.n - before;

	memcpy(pcr, st->pcr, sizeof(pcr));
	matched = matches(pcr, q);
	if (ima_reader_init_mem(&rd, r->entries, r->entries_len, &opts)) {
		att_reason(&r->rs, IMA_FC_GENERIC, "cannot read the entries");
		return r->rs.n - before;
	}
	while ((st_r = ima_reader_next(&rd, &rec)) == IMA_READ_RECORD) {
		uint8_t d[2][IMA_MAX_DIGEST], sha1[20];
		static const uint8_t zero[20];
		bool violation = !memcmp(rec.digest, zero, 20);

		index = st->next_index + n;
		if (rec.pcr != ATT_POLL_PCR) {
			att_reason(&r->rs, IMA_FC_UNBOUND_PCR, "entry %" PRIu64 " extends PCR %u", index, rec.pcr);
			break;
		}
		if (rec.tmpl.legacy) {
			att_reason(&r->rs, IMA_FC_UNKNOWN_TEMPLATE, "entry %" PRIu64 ": the legacy ima template is not supported", index);
			break;
		}
		ima_digest(ima_bank_algo(IMA_BANK_SHA1), rec.data, rec.data_len, sha1);
		if (!violation && memcmp(sha1, rec.digest, 20)) {
			att_reason(&r->rs, IMA_FC_TEMPLATE_HASH, "entry %" PRIu64 ": template hash mismatch", index);
			break;
		}
		for (b = 0; b < 2; b++) {
			if (violation)
				memset(d[b], 0xff, ima_bank_algo(banks[b])->size);
			else if (b == 0)
				memcpy(d[b], rec.digest, 20);
			else
				ima_digest(ima_bank_algo(banks[b]), rec.data, rec.data_len, d[b]);
			extend(pcr[b], banks[b], d[b]);
		}
		if (!ima_data_view(rec.data, rec.data_len, opts.order, &v))
			memset(&v, 0, sizeof(v)); /* no digest, no name */
		if (index == 0)
			first_agg_ok = aggregate_ok(&v, q);
		check_handover(r, &v, index, violation, &pending, &exec);
		if (r->verifier && !violation)
			check_sig(r, &v, index);
		if (r->deny && !violation)
			check_deny(r, &v, index);
		n++;
		if (matches(pcr, q)) {
			matched = true;
			covered = n;
			covered_end = rec.data_offset + rec.data_len;
			covered_pending = pending;
			memcpy(best, pcr, sizeof(best));
		}
	}
	if (st_r == IMA_READ_MALFORMED)
		att_reason(&r->rs, IMA_FC_MALFORMED_FIELD, "entry %" PRIu64 " malformed: %s", st->next_index + n, rd.err);
	ima_reader_free(&rd);
	if (!matched)
		att_reason(&r->rs, IMA_FC_PCR_MISMATCH, "the entries do not replay from the saved state to the quoted PCR 10 (sha1, sha256) at any prefix: the list presented disagrees with the quote");
	if (!first_agg_ok)
		att_reason(&r->rs, IMA_FC_BOOT_AGGREGATE, "boot_aggregate (entry 0) is not the one of the quoted PCRs 0-9");
	/* IMA extends boot_aggregate before any process runs: a quote from
	 * user space that covers no entry 0 is of a machine that measures
	 * nothing, and every later round would pass with no entries */
	else if (st->next_index == 0 && matched && !covered)
		att_reason(&r->rs, IMA_FC_PCR_COVERS_NOTHING, "the quoted PCR 10 covers no entry: boot_aggregate (entry 0) is not in it, nothing was measured");
	/*
	 * The quote was made by the user space of a kernel that runs after
	 * the last covered record; after kexec_execute that is the next
	 * kernel, whose IMA would have extended its boot_aggregate first. A
	 * quote that stops at kexec_execute is of a kernel that measures
	 * nothing (no IMA, or no TPM for it). (A quote made in the old
	 * kernel's last instant, between that record and the TPM's shutdown,
	 * is refused too; the state does not move, and the next round, from
	 * the next kernel, passes.)
	 */
	if (matched && covered_pending)
		att_reason(&r->rs, IMA_FC_KEXEC, "the quoted PCR 10 ends at kexec_execute (entry %" PRIu64 "): the kernel it handed over to extended no boot_aggregate, so it measures nothing",
			   st->next_index + covered - 1);
	if (r->rs.n > before)
		return r->rs.n - before;
	/* signature reasons may name uncovered entries too: those fail as well,
	 * the guest ran them; the state moves only over the covered prefix */
	r->verified = covered;
	r->uncovered = n - covered;
	if (covered) {
		memcpy(st->pcr, best, sizeof(best));
		st->next_index += covered;
		st->next_offset += covered_end;
	}
	st->have_boot = true;
	st->reset_count = r->reset_count;
	st->restart_count = r->restart_count;
	st->clock = r->clock;
	st->rounds++;
	return 0;
}
