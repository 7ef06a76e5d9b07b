// SPDX-License-Identifier: GPL-2.0-only
/*
 * Report output: a readable summary, failure lines, or one JSON object.
 */
#include <inttypes.h>
#include <string.h>

#include "ima_audit.h"
#include "ima_html.h"
#include "ima_text.h"
#include "ima_version.h"

static const char *const boot_status[] = {
	[IMA_BOOT_ABSENT] = "absent",
	[IMA_BOOT_NOT_CHECKED] = "not-checked",
	[IMA_BOOT_MATCH] = "match",
	[IMA_BOOT_MISMATCH] = "mismatch",
	[IMA_BOOT_ZERO] = "zero",
	[IMA_BOOT_BAD_FIELD] = "bad-field",
};

/* the kernels of the list and the kexec hand-overs between them */
static void text_kexec(const struct ima_audit *a, FILE *out)
{
	size_t i;

	if (a->kernels <= 1 && !a->nhandovers && !a->kexec_loads)
		return;
	fprintf(out, "kernels:        %" PRIu64 " (%zu kexec hand-over(s), %" PRIu64 " kexec_load record(s))\n",
		a->kernels, a->nhandovers, a->kexec_loads);
	for (i = 0; i < a->nhandovers; i++) {
		const struct ima_handover *h = &a->handovers[i];

		fprintf(out, "  kexec_execute at entry %" PRIu64 ": %" PRIu64 " entries, %" PRIu64 " of %" PRIu64 " segment bytes: %s\n",
			h->index, h->count, h->size, h->segment,
			h->ok ? "ok" : "FAILED");
	}
}

static void json_kexec(const struct ima_audit *a, FILE *out)
{
	size_t i;

	fprintf(out, "\"kernels\":%" PRIu64 ",\"kexec_loads\":%" PRIu64 ",\"handovers\":[",
		a->kernels, a->kexec_loads);
	for (i = 0; i < a->nhandovers; i++) {
		const struct ima_handover *h = &a->handovers[i];

		fprintf(out, "%s{\"entry\":%" PRIu64 ",\"count\":%" PRIu64 ",\"size\":%" PRIu64 ",\"segment\":%" PRIu64 ",\"ok\":%s}",
			i ? "," : "", h->index, h->count, h->size,
			h->segment, h->ok ? "true" : "false");
	}
	fputs("],", out);
}

static const char *order_name(enum ima_byte_order o)
{
	return o == IMA_BO_BIG ? "big-endian" :
	       o == IMA_BO_LITTLE ? "little-endian" : "unknown";
}

static const char *result_name(const struct ima_audit *a)
{
	switch (ima_audit_exit_code(a)) {
	case IMA_EXIT_OK:
		return "pass";
	case IMA_EXIT_FAIL:
		return "fail";
	case IMA_EXIT_USAGE:
		return "error";		/* an output not written */
	}
	return "malformed";
}

/* A byte that text output shows as \xNN: not printable ASCII, or '\'. */
static bool escaped(unsigned char c)
{
	return c < 0x20 || c >= 0x7f || c == '\\';
}

void ima_text_escape(FILE *out, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (escaped(c))
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

size_t ima_escape(char *dst, size_t dstlen, const void *src, size_t len)
{
	static const char hx[] = "0123456789abcdef";
	const unsigned char *s = src;
	size_t i, n = 0;

	if (!dstlen)
		return 0;
	for (i = 0; i < len; i++) {
		if (!escaped(s[i])) {
			if (n + 1 >= dstlen)
				break;
			dst[n++] = (char)s[i];
			continue;
		}
		if (n + 4 >= dstlen)
			break;	/* never half an escape */
		dst[n++] = '\\';
		dst[n++] = 'x';
		dst[n++] = hx[s[i] >> 4];
		dst[n++] = hx[s[i] & 15];
	}
	dst[n] = '\0';
	return n;
}

void ima_json_escape(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		unsigned char c = p[i];
		size_t n = c >= 0x80 ? ima_utf8_len(p + i, len - i) : 0;

		if (c == '"' || c == '\\') {
			fprintf(out, "\\%c", c);
		} else if (c == '\n') {
			fputs("\\n", out);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc(c, out);
		} else if (n) {
			fwrite(p + i, 1, n, out);
			i += n;
			continue;
		} else {
			/* not UTF-8: the byte as a Latin-1 code point */
			fprintf(out, "\\u%04x", c);
		}
		i++;
	}
}

/* a C string as a JSON string, escaped */
static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	ima_json_escape(out, s, strlen(s));
	fputc('"', out);
}

/* a C string on a line of text, escaped */
static void text_str(FILE *out, const char *s)
{
	ima_text_escape(out, s, strlen(s));
}

/* Lower-case hex, in one write per 64 bytes (not a printf per byte). */
static void hex(FILE *out, const uint8_t *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char buf[128];
	size_t i, n;

	while (len) {
		n = len > 64 ? 64 : len;
		for (i = 0; i < n; i++) {
			buf[2 * i] = digits[p[i] >> 4];
			buf[2 * i + 1] = digits[p[i] & 15];
		}
		fwrite(buf, 1, 2 * n, out);
		p += n;
		len -= n;
	}
}

/* "FAIL: entry N @OFFSET: PATH: " (or "FAIL: "), then the reason */
static void failure_line(const struct ima_failure *f, FILE *out)
{
	if (f->index != IMA_NO_INDEX)
		fprintf(out, "entry %" PRIu64 " @%" PRIu64 ": ", f->index,
			f->offset);
	if (f->path) {
		size_t kept = strlen(f->path);

		ima_text_escape(out, f->path, kept);
		if (f->path_len > kept)
			fprintf(out, "...(%zu bytes)", f->path_len);
		fputs(": ", out);
	}
	fputs(f->reason, out);
}

/*
 * Every failure, one line each (-v), or: a class with more than
 * IMA_COLLAPSE_OVER failures as one line, at its first failure, with
 * the count, the entries, the first one and what to do.
 */
void ima_report_failures(const struct ima_audit *a, FILE *out)
{
	bool shown[IMA_FC_COUNT] = { false };
	bool verbose = a->opts->verbose;
	size_t i;
	int c;

	for (i = 0; i < a->nfailures; i++) {
		const struct ima_failure *f = &a->failures[i];
		uint64_t n = a->class_count[f->cls];
		const char *fix = ima_fail_class_advice(f->cls);

		if (verbose || n <= IMA_COLLAPSE_OVER) {
			fputs("FAIL: ", out);
			failure_line(f, out);
			fputc('\n', out);
			continue;
		}
		if (shown[f->cls])
			continue;
		shown[f->cls] = true;
		fprintf(out, "FAIL: %" PRIu64 " %s failures (", n,
			ima_fail_class_name(f->cls));
		if (a->class_entries[f->cls])
			fprintf(out, "entries %" PRIu64 "..%" PRIu64 "; ",
				a->class_lo[f->cls], a->class_hi[f->cls]);
		fputs("-v lists each); the first: ", out);
		failure_line(f, out);
		if (fix)
			fprintf(out, ". To fix: %s", fix);
		fputc('\n', out);
	}
	for (c = 0; c < IMA_FC_COUNT; c++)
		if (a->class_count[c] > a->class_kept[c] &&
		    (verbose || a->class_count[c] <= IMA_COLLAPSE_OVER ||
		     !a->class_kept[c]))
			fprintf(out, "FAIL: ... %" PRIu64 " more %s failures not listed\n",
				a->class_count[c] - a->class_kept[c],
				ima_fail_class_name(c));
}

static void text_pcrs(const struct ima_audit *a, FILE *out)
{
	const struct ima_replay *rp = &a->replay;
	int b, p;

	for (p = 0; p < IMA_NR_PCRS; p++) {
		if (!(a->opts->pcr_mask & (1u << p)))
			continue;
		for (b = 0; b < IMA_NR_BANKS; b++) {
			const struct ima_replay_pcr *r = &rp->pcr[b][p];
			bool have = a->opts->pcrs.have[b] & (1u << p);

			if (!(rp->banks & (1u << b)))
				continue;
			fprintf(out, "PCR %-2d %-7s %" PRIu64 " measurements, ",
				p, ima_bank_name(b), rp->count[p]);
			if (!have) {
				fputs("no expected value; computed ", out);
				hex(out, r->val, ima_bank_algo(b)->size);
				fputc('\n', out);
			} else if (!r->matched) {
				fputs("MISMATCH: no prefix of the log matches\n",
				      out);
			} else if (r->match_count == rp->count[p]) {
				fputs("match (all covered)\n", out);
			} else if (!r->match_count) {
				fprintf(out,
					"match before any entry; entries up to %" PRId64 " not covered\n",
					rp->last_index[p]);
			} else {
				fprintf(out,
					"match through entry %" PRId64 " (%" PRIu64 " of %" PRIu64 "); entries %" PRId64 "..%" PRId64 " not covered\n",
					r->match_index, r->match_count,
					rp->count[p], r->match_index + 1,
					rp->last_index[p]);
			}
		}
	}
}

/* the PCRs of mask as "N,N,..." (the text's list, a JSON array's body); any? */
static bool pcr_numbers(FILE *out, uint32_t mask)
{
	bool first = true;
	int p;

	for (p = 0; p < IMA_NR_PCRS; p++) {
		if (!(mask & (1u << p)))
			continue;
		fprintf(out, first ? "%d" : ",%d", p);
		first = false;
	}
	return !first;
}

static void pcr_list(FILE *out, uint32_t mask)
{
	if (!pcr_numbers(out, mask))
		fputs("none", out);
}

static uint32_t extended_pcrs(const struct ima_audit *a)
{
	uint32_t m = 0;
	int p;

	for (p = 0; p < IMA_NR_PCRS; p++)
		if (a->replay.count[p])
			m |= 1u << p;
	return m;
}

/* What binds the list, and every waiver the user gave. */
void ima_report_binding(const struct ima_audit *a, FILE *out)
{
	int p;

	fputs("bound PCRs:     ", out);
	pcr_list(out, a->bound);
	fputs(a->opts->quote ? (a->quote_failed ?
				" (the quote failed: none trusted)" :
				" (by the verified quote)") :
	      " (by the given values)", out);
	fputs("; the list extends ", out);
	pcr_list(out, extended_pcrs(a));
	fputc('\n', out);
	for (p = 0; p < IMA_NR_PCRS; p++)
		if (a->opts->ignore_pcrs & (1u << p))
			fprintf(out,
				"waived:         PCR %d not bound (--ignore-pcr): %" PRIu64 " entries on it not attested\n",
				p, a->waived_entries[p]);
	if (a->opts->allow_sha1)
		fputs("waived:         sha1 values bind PCRs (--allow-sha1): collision-prone\n",
		      out);
	if (a->boot_waived)
		fputs("waived:         boot_aggregate not verified (--allow-unverified-boot)\n",
		      out);
	if (a->uncovered_allowed)
		fprintf(out,
			"waived:         %" PRIu64 " entries not covered (--allow-uncovered): vouched for by nothing\n",
			a->uncovered_allowed);
}

/* an ASCII list, a per-bank list: said on the input line */
static void text_input_form(const struct ima_audit *a, FILE *out)
{
	if (a->list_alg && a->list_bank != IMA_BANK_SHA1)
		fprintf(out, "; template digests %s (the per-bank list of the %s bank)",
			a->list_alg->name, a->list_alg->name);
	if (a->format == IMA_FMT_ASCII)
		fprintf(out,
			"; read from an ASCII list of %" PRIu64 " lines, %" PRIu64 " bytes (@ offsets are the binary list's)",
			a->ascii_lines, a->ascii_bytes);
	fputc('\n', out);
}

/* --ca: the .ima keys the list carries (subjects are escaped already) */
static void text_list_keys(const struct ima_audit *a, FILE *out)
{
	const struct ima_listkeys *lk = a->opts->listkeys;
	size_t i;

	if (!lk)
		return;
	fprintf(out, "list keys:      %zu .ima key(s) chained to ", lk->n);
	text_str(out, lk->ca_file);
	fprintf(out, ", %zu refused\n", lk->refused);
	for (i = 0; i < lk->n; i++)
		fprintf(out, "  entry %" PRIu64 ": key id %08x %s: %" PRIu64 " signature(s) verified\n",
			lk->keys[i].index, lk->keys[i].keyid,
			lk->keys[i].subject, lk->keys[i].verified);
}

static void json_list_keys(const struct ima_audit *a, FILE *out)
{
	const struct ima_listkeys *lk = a->opts->listkeys;
	size_t i;

	fputs("\"list_keys\":", out);
	if (!lk) {
		fputs("null,", out);
		return;
	}
	fputs("{\"ca\":", out);
	json_str(out, lk->ca_file);
	fprintf(out, ",\"refused\":%zu,\"accepted\":[", lk->refused);
	for (i = 0; i < lk->n; i++) {
		fprintf(out, "%s{\"entry\":%" PRIu64 ",\"keyid\":\"%08x\",\"subject\":",
			i ? "," : "", lk->keys[i].index, lk->keys[i].keyid);
		json_str(out, lk->keys[i].subject);
		fprintf(out, ",\"verified\":%" PRIu64 "}",
			lk->keys[i].verified);
	}
	fputs("]},", out);
}

/* --manifest given a Keylime runtime policy: what else it judged */
static void text_keylime(const struct ima_audit *a, FILE *out)
{
	const struct ima_keylime *kl = a->opts->keylime;

	if (!kl)
		return;
	fputs("keylime policy: ", out);
	text_str(out, kl->file);
	fprintf(out, " (version %lld): %zu keyring(s), %zu ima-buf name(s), %zu exclude(s), %zu verification key(s); buffers %" PRIu64 " checked, %" PRIu64 " match, %" PRIu64 " keys on ignored keyrings",
		kl->version, kl->nkeyrings, kl->nbufs, kl->nexcludes,
		kl->keys.n, a->kl_buf_checked, a->kl_buf_match,
		a->kl_keys_ignored);
	if (kl->log_hash_alg && a->list_alg && kl->log_hash_alg != a->list_alg)
		fprintf(out, "; its log_hash_alg %s is not the list's %s (not used: the list's own is checked)",
			kl->log_hash_alg->name, a->list_alg->name);
	fputc('\n', out);
}

/* --write-keylime: what went into the policy */
static void text_keylime_out(const struct ima_audit *a, FILE *out)
{
	if (!a->opts->keylime_out)
		return;
	fputs("policy written: ", out);
	text_str(out, a->opts->keylime_out_name);
	fprintf(out, ": %" PRIu64 " proven entries; left out %" PRIu64 " not proven, %" PRIu64 " named in bytes a JSON string cannot hold (not UTF-8)\n",
		a->kl_written, a->kl_unproven, a->kl_unwritable);
}

static void json_keylime_out(const struct ima_audit *a, FILE *out)
{
	fputs("\"keylime_written\":", out);
	if (!a->opts->keylime_out) {
		fputs("null,", out);
		return;
	}
	fputs("{\"file\":", out);
	json_str(out, a->opts->keylime_out_name);
	fprintf(out, ",\"written\":%" PRIu64 ",\"unproven\":%" PRIu64 ",\"not_utf8\":%" PRIu64 "},",
		a->kl_written, a->kl_unproven, a->kl_unwritable);
}

/* --exclude: what was never judged */
static void text_excluded(const struct ima_audit *a, FILE *out)
{
	size_t n = ima_excludes_count(a->opts->excludes);

	if (!n)
		return;
	fprintf(out, "excluded:       %" PRIu64 " entries never judged (%zu pattern(s))",
		a->excluded, n);
	if (a->exclude_untested)
		fprintf(out, "; %" PRIu64 " names outside printable ASCII tested against none (judged)",
			a->exclude_untested);
	fputc('\n', out);
}

static void json_excluded(const struct ima_audit *a, FILE *out)
{
	const struct ima_excludes *x = a->opts->excludes;
	size_t i, n = ima_excludes_count(x);

	fprintf(out, "\"excluded\":{\"entries\":%" PRIu64 ",\"untested\":%" PRIu64 ",\"patterns\":[",
		a->excluded, a->exclude_untested);
	for (i = 0; i < n; i++) {
		const char *p = ima_excludes_pattern(x, i);
		const char *src = ima_excludes_source(x, i);

		fputs(i ? ",{\"pattern\":" : "{\"pattern\":", out);
		json_str(out, p);
		fputs(",\"source\":", out);
		json_str(out, src);
		fprintf(out, ",\"entries\":%" PRIu64 "}",
			a->exclude_hits ? a->exclude_hits[i] : 0);
	}
	fputs("]},", out);
}

static void json_keylime(const struct ima_audit *a, FILE *out)
{
	const struct ima_keylime *kl = a->opts->keylime;

	fputs(",\"keylime\":", out);
	if (!kl) {
		fputs("null", out);
		return;
	}
	fputs("{\"file\":", out);
	json_str(out, kl->file);
	fprintf(out, ",\"version\":%lld,\"keyrings\":%zu,\"ima_buf\":%zu,\"excludes\":%zu,\"verification_keys\":%zu,\"log_hash_alg\":",
		kl->version, kl->nkeyrings, kl->nbufs, kl->nexcludes,
		kl->keys.n);
	if (kl->log_hash_alg)
		fprintf(out, "\"%s\"", kl->log_hash_alg->name);
	else
		fputs("null", out);
	fprintf(out, ",\"by_signature\":%" PRIu64 ",\"buffers\":{\"checked\":%" PRIu64 ",\"match\":%" PRIu64 ",\"ignored_keys\":%" PRIu64 "}}",
		a->mf_by_signature, a->kl_buf_checked, a->kl_buf_match,
		a->kl_keys_ignored);
}

void ima_report_text(const struct ima_audit *a, FILE *out)
{
	int i;

	fprintf(out, "input:          %s, %" PRIu64 " bytes, %s",
		a->opts->input_name ? a->opts->input_name : "-", a->bytes,
		order_name(a->order));
	text_input_form(a, out);
	fprintf(out, "entries:        %" PRIu64, a->entries);
	for (i = 0; i < a->ntemplates; i++) {
		fputs(i ? ", " : " (", out);
		text_str(out, a->templates[i].name);
		fprintf(out, " %" PRIu64, a->templates[i].count);
	}
	if (a->other_templates)
		fprintf(out, ", other %" PRIu64, a->other_templates);
	fputs(a->ntemplates ? ")\n" : "\n", out);
	fprintf(out, "violations:     %" PRIu64 "\n", a->violations);
	fprintf(out, "template hash:  %" PRIu64 " checked, %" PRIu64 " failed\n",
		a->tmpl_checked, a->tmpl_failed);
	fprintf(out, "boot_aggregate: %s", boot_status[a->boot]);
	if (a->boot != IMA_BOOT_ABSENT && a->boot_len)
		fprintf(out, " (%s)", a->boot_algo);
	if (a->boot_pre_5_8)
		fputs("; the definition before Linux 5.8: PCRs 0-7 only, PCRs 8-9 are not in it",
		      out);
	fputc('\n', out);
	text_kexec(a, out);
	ima_report_binding(a, out);
	text_pcrs(a, out);
	if (a->opts->keys.n || a->opts->listkeys)
		fprintf(out,
			"signatures:     %" PRIu64 " verified, %" PRIu64 " failed (%" PRIu64 " unknown key), %" PRIu64 " unsigned\n",
			a->sig.verified, a->sig.failed, a->sig.unknown_key,
			a->sig.unsigned_);
	else
		fprintf(out,
			"signatures:     not checked (no --key); %" PRIu64 " signed, %" PRIu64 " unsigned\n",
			a->sig.not_checked + a->sig.failed, a->sig.unsigned_);
	text_list_keys(a, out);
	if (a->opts->deny) {
		fputs("deny list:      ", out);
		text_str(out, ima_deny_name(a->opts->deny));
		fprintf(out, ", %zu digests; %" PRIu64 " entries checked, %" PRIu64 " denied, %" PRIu64 " of an algorithm it lists none of\n",
			ima_deny_count(a->opts->deny), a->deny_checked,
			a->denied, a->deny_unchecked);
	}
	if (a->opts->manifest) {
		fprintf(out,
			"manifest:       %zu paths; %" PRIu64 " match, %" PRIu64 " unknown path, %" PRIu64 " wrong digest, %" PRIu64 " no digest of the algorithm",
			ima_manifest_paths(a->opts->manifest), a->mf_match,
			a->mf_unknown, a->mf_wrong, a->mf_no_algo);
		if (a->opts->keylime)
			fprintf(out, ", %" PRIu64 " signed by a verification key",
				a->mf_by_signature);
		fputc('\n', out);
	}
	text_keylime(a, out);
	text_excluded(a, out);
	text_keylime_out(a, out);
	if (a->policy_found)
		fprintf(out, "policy:         entry %" PRIu64 ", %zu bytes%s%s\n",
			a->policy_index, a->policy_len,
			a->policy_match == 1 ? ", matches expected" :
			a->policy_match == 0 ? ", DIFFERS: " : "",
			a->policy_match == 0 ? a->policy_diff : "");
	else if (a->policy_unattributed)
		fprintf(out, "policy:         NOT ATTRIBUTED to the last kernel: %s\n",
			a->policy_diff);
	else
		fprintf(out, "policy:         none recorded\n");
	if (a->malformed || a->io_error)
		fprintf(out, "error:          offset %" PRIu64 ": %s\n",
			a->error_offset, a->error);
	else if (a->oom)
		fprintf(out, "error:          %s\n", a->error);
	ima_report_failures(a, out);
	fprintf(out, "result:         %s (%" PRIu64 " failures)\n",
		a->malformed || a->io_error || a->oom ? "MALFORMED" :
		a->failure_count ? "FAIL" : "PASS", a->failure_count);
}

static void json_pcrs(const struct ima_audit *a, FILE *out)
{
	const struct ima_replay *rp = &a->replay;
	bool first = true;
	int b, p;

	fputs("\"pcrs\":[", out);
	for (p = 0; p < IMA_NR_PCRS; p++) {
		if (!(a->opts->pcr_mask & (1u << p)))
			continue;
		for (b = 0; b < IMA_NR_BANKS; b++) {
			const struct ima_replay_pcr *r = &rp->pcr[b][p];
			unsigned int size = ima_bank_algo(b)->size;
			bool have = a->opts->pcrs.have[b] & (1u << p);

			if (!(rp->banks & (1u << b)))
				continue;
			fprintf(out,
				"%s{\"pcr\":%d,\"bank\":\"%s\",\"measurements\":%" PRIu64 ",\"computed\":\"",
				first ? "" : ",", p, ima_bank_name(b),
				rp->count[p]);
			first = false;
			hex(out, r->val, size);
			fputs("\",\"expected\":", out);
			if (have) {
				fputc('"', out);
				hex(out, a->opts->pcrs.val[b][p], size);
				fputc('"', out);
			} else {
				fputs("null", out);
			}
			fprintf(out, ",\"status\":\"%s\"",
				!have ? "not-checked" :
				r->matched ? "match" : "mismatch");
			if (have && r->matched) {
				fprintf(out, ",\"covered\":%" PRIu64,
					r->match_count);
				fprintf(out, ",\"last_covered_entry\":");
				if (r->match_count)
					fprintf(out, "%" PRId64,
						r->match_index);
				else
					fputs("null", out);
				fprintf(out, ",\"uncovered\":%" PRIu64,
					rp->count[p] - r->match_count);
			}
			fputc('}', out);
		}
	}
	fputs("],", out);
}

static void json_str_or_null(FILE *out, const char *s)
{
	if (s)
		json_str(out, s);
	else
		fputs("null", out);
}

/* What a failure names besides its entry: its PCR, key id, got/expected. */
static void json_detail(FILE *out, const struct ima_failure *f)
{
	fputs(",\"pcr\":", out);
	if (f->pcr >= 0)
		fprintf(out, "%d", f->pcr);
	else
		fputs("null", out);
	fputs(",\"key_id\":", out);
	if (f->has_keyid)
		fprintf(out, "\"%08x\"", f->keyid);
	else
		fputs("null", out);
	fputs(",\"got\":", out);
	json_str_or_null(out, f->got);
	fputs(",\"expected\":", out);
	json_str_or_null(out, f->expected);
}

void ima_report_json(const struct ima_audit *a, FILE *out)
{
	size_t i;
	int t;

	fputs("{\"tool\":\"ima-audit\",\"version\":\"" IMA_AUDIT_VERSION "\",\"input\":{\"name\":", out);
	json_str_or_null(out, a->opts->input_name);
	fprintf(out, ",\"bytes\":%" PRIu64 ",\"byte_order\":\"%s\",\"format\":\"%s\",\"template_hash\":\"%s\"",
		a->bytes, order_name(a->order),
		a->format == IMA_FMT_ASCII ? "ascii" : "binary",
		a->list_alg ? a->list_alg->name : "sha1");
	if (a->format == IMA_FMT_ASCII)
		fprintf(out, ",\"ascii_lines\":%" PRIu64 ",\"ascii_bytes\":%" PRIu64,
			a->ascii_lines, a->ascii_bytes);
	fputs("},", out);
	fprintf(out, "\"entries\":%" PRIu64 ",\"templates\":{", a->entries);
	for (t = 0; t < a->ntemplates; t++) {
		fputs(t ? "," : "", out);
		json_str(out, a->templates[t].name);
		fprintf(out, ":%" PRIu64, a->templates[t].count);
	}
	if (a->other_templates)
		fprintf(out, "%s\"(other)\":%" PRIu64, t ? "," : "",
			a->other_templates);
	fprintf(out, "},\"unknown_templates\":%" PRIu64, a->unknown_templates);
	fprintf(out, ",\"violations\":%" PRIu64, a->violations);
	fprintf(out,
		",\"template_hash\":{\"checked\":%" PRIu64 ",\"failed\":%" PRIu64 "},",
		a->tmpl_checked, a->tmpl_failed);
	fprintf(out, "\"boot_aggregate\":{\"status\":\"%s\"",
		boot_status[a->boot]);
	if (a->boot != IMA_BOOT_ABSENT && a->boot_len) {
		fprintf(out, ",\"algorithm\":\"%s\",\"digest\":\"",
			a->boot_algo);
		hex(out, a->boot_digest, a->boot_len);
		fputc('"', out);
	}
	if (a->boot_pre_5_8)
		fputs(",\"definition\":\"pre-5.8: PCRs 0-7\"", out);
	fputs("},", out);
	json_kexec(a, out);
	json_pcrs(a, out);
	fprintf(out,
		"\"signatures\":{\"checked\":%s,\"verified\":%" PRIu64 ",\"failed\":%" PRIu64 ",\"unknown_key\":%" PRIu64 ",\"unsigned\":%" PRIu64 ",\"not_checked\":%" PRIu64 ",\"modsig_verified\":%" PRIu64 ",\"modsig_failed\":%" PRIu64 "},",
		a->opts->keys.n || a->opts->listkeys ? "true" : "false",
		a->sig.verified,
		a->sig.failed, a->sig.unknown_key, a->sig.unsigned_,
		a->sig.not_checked, a->sig.modsig_verified,
		a->sig.modsig_failed);
	json_list_keys(a, out);
	fputs("\"deny\":", out);
	if (a->opts->deny) {
		fputs("{\"file\":", out);
		json_str(out, ima_deny_name(a->opts->deny));
		fprintf(out, ",\"digests\":%zu,\"checked\":%" PRIu64 ",\"denied\":%" PRIu64 ",\"unchecked_algorithm\":%" PRIu64 "},",
			ima_deny_count(a->opts->deny), a->deny_checked,
			a->denied, a->deny_unchecked);
	} else {
		fputs("null,", out);
	}
	if (a->opts->manifest) {
		fprintf(out,
			"\"manifest\":{\"paths\":%zu,\"checked\":%" PRIu64 ",\"match\":%" PRIu64 ",\"unknown_path\":%" PRIu64 ",\"wrong_digest\":%" PRIu64 ",\"no_digest_for_algorithm\":%" PRIu64,
			ima_manifest_paths(a->opts->manifest), a->mf_checked,
			a->mf_match, a->mf_unknown, a->mf_wrong,
			a->mf_no_algo);
		json_keylime(a, out);
		fputs("},", out);
	} else {
		fputs("\"manifest\":null,", out);
	}
	json_excluded(a, out);
	json_keylime_out(a, out);
	fprintf(out,
		"\"buffers\":{\"checked\":%" PRIu64 ",\"failed\":%" PRIu64 "},",
		a->buf_checked, a->buf_failed);
	fputs("\"policy\":", out);
	if (a->policy_found) {
		fprintf(out, "{\"entry\":%" PRIu64 ",\"bytes\":%zu,\"expected\":%s",
			a->policy_index, a->policy_len,
			a->policy_match < 0 ? "null" :
			a->policy_match ? "\"match\"" : "\"differs\"");
		if (a->policy_match == 0) {
			fputs(",\"difference\":", out);
			json_str(out, a->policy_diff);
			fprintf(out, ",\"rule\":%lu,\"recorded_rule\":",
				a->policy_rule);
			json_str_or_null(out, a->policy_got);
			fputs(",\"expected_rule\":", out);
			json_str_or_null(out, a->policy_want);
			fputs(",\"expected_line\":", out);
			if (a->policy_want)
				fprintf(out, "%lu", a->policy_want_line);
			else
				fputs("null", out);
		}
		fputs("},", out);
	} else {
		fputs("null,", out);
	}
	fputs("\"policy_unattributed\":[", out);
	for (t = 0; t < a->nunattributed; t++)
		fprintf(out, "%s%" PRIu64, t ? "," : "", a->unattributed[t]);
	fputs("],", out);
	fputs("\"quote\":", out);
	if (a->quote)
		fprintf(out,
			"{\"tpm_generated\":%s,\"nonce\":%s,\"signature\":%s,\"pcr_digest\":%s,\"reset_count\":%u,\"restart_count\":%u,\"clock_ms\":%llu},",
			a->quote->tpm_generated ? "true" : "false",
			a->quote->nonce_ok ? "\"match\"" : "\"mismatch\"",
			a->quote->sig_ok ? "\"verified\"" : "\"bad\"",
			a->quote->pcrs_ok ? "\"match\"" : "\"mismatch\"",
			a->quote->reset_count, a->quote->restart_count,
			a->quote->clock_ms);
	else
		fputs("null,", out);
	fputs("\"binding\":{\"bound_pcrs\":[", out);
	pcr_numbers(out, a->bound);
	fputs("],\"extended_pcrs\":[", out);
	pcr_numbers(out, extended_pcrs(a));
	fputs("],\"ignored_pcrs\":[", out);
	pcr_numbers(out, a->opts->ignore_pcrs);
	fprintf(out,
		"],\"uncovered_allowed\":%" PRIu64 ",\"boot_aggregate_waived\":%s,\"sha1_binds\":%s},",
		a->uncovered_allowed, a->boot_waived ? "true" : "false",
		a->opts->allow_sha1 ? "true" : "false");
	fputs("\"failures\":[", out);
	for (i = 0; i < a->nfailures; i++) {
		const struct ima_failure *f = &a->failures[i];

		fputs(i ? ",{" : "{", out);
		if (f->index == IMA_NO_INDEX)
			fputs("\"entry\":null,\"offset\":null", out);
		else
			fprintf(out, "\"entry\":%" PRIu64 ",\"offset\":%" PRIu64,
				f->index, f->offset);
		fputs(",\"path\":", out);
		if (f->path)
			json_str(out, f->path);
		else
			fputs("null", out);
		if (f->path && f->path_len > strlen(f->path))
			fprintf(out, ",\"path_length\":%zu", f->path_len);
		fprintf(out, ",\"class\":\"%s\",\"reason\":",
			ima_fail_class_name(f->cls));
		json_str(out, f->reason);
		json_detail(out, f);
		fputc('}', out);
	}
	fputs("],\"failures_not_listed\":{", out);
	for (t = 0, i = 0; t < IMA_FC_COUNT; t++)
		if (a->class_count[t] > a->class_kept[t])
			fprintf(out, "%s\"%s\":%" PRIu64, i++ ? "," : "",
				ima_fail_class_name(t),
				a->class_count[t] - a->class_kept[t]);
	fprintf(out, "},\"failure_count\":%" PRIu64 ",\"error\":",
		a->failure_count);
	if (a->malformed || a->io_error || a->oom) {
		fprintf(out, "{\"offset\":%" PRIu64 ",\"message\":",
			a->error_offset);
		json_str(out, a->error);
		fputc('}', out);
	} else {
		fputs("null", out);
	}
	fputs(",\"write_error\":", out);
	json_str_or_null(out, a->write_error);
	fprintf(out, ",\"result\":\"%s\",\"exit_code\":%d}\n",
		result_name(a), ima_audit_exit_code(a));
}

void ima_report_json_error(FILE *out, const char *input, int exit_code,
			   const char *message)
{
	fputs("{\"tool\":\"ima-audit\",\"version\":\"" IMA_AUDIT_VERSION "\",\"input\":{\"name\":", out);
	json_str_or_null(out, input);
	fputs("},\"result\":\"error\",\"error\":{\"message\":", out);
	json_str_or_null(out, message);
	fprintf(out, "},\"exit_code\":%d}\n", exit_code);
}
