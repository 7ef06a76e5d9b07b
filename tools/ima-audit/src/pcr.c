// SPDX-License-Identifier: GPL-2.0-only
/*
 * PCR value input (text formats, sysfs), boot_aggregate and PCR replay.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ima_pcr.h"
#include "ima_text.h"

static const char *const bank_names[IMA_NR_BANKS] = {
	"sha1", "sha256", "sha384", "sha512",
};

int ima_bank_by_name(const char *name, size_t len)
{
	int i;

	for (i = 0; i < IMA_NR_BANKS; i++)
		if (strlen(bank_names[i]) == len &&
		    !strncasecmp(bank_names[i], name, len))
			return i;
	return -1;
}

const char *ima_bank_name(int bank)
{
	/* a bank of no known algorithm (a firmware log's) has no name */
	return bank >= 0 && bank < IMA_NR_BANKS ? bank_names[bank] : "unknown";
}

/* kernel enum hash_algo of each bank */
static const int bank_ids[IMA_NR_BANKS] = { 2, 4, 5, 6 };

const struct ima_hash_algo *ima_bank_algo(int bank)
{
	return ima_hash_by_id(bank_ids[bank]);
}

static int set_value(struct ima_pcr_values *v, int bank, unsigned long pcr,
		     const char *hex, size_t hexlen, char *err, size_t errlen,
		     const char *what, unsigned int line)
{
	unsigned int size = ima_bank_algo(bank)->size;

	if (pcr >= IMA_NR_PCRS) {
		snprintf(err, errlen, "%s:%u: PCR index %lu out of range",
			 what, line, pcr);
		return -1;
	}
	if (hexlen > 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) {
		hex += 2;
		hexlen -= 2;
	}
	if (hexlen != 2 * size ||
	    ima_hex2bin(hex, hexlen, v->val[bank][pcr], size) != (int)size) {
		snprintf(err, errlen,
			 "%s:%u: %s PCR %lu: expected %u hex digits",
			 what, line, bank_names[bank], pcr, 2 * size);
		return -1;
	}
	v->have[bank] |= 1u << pcr;
	return 0;
}

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int is_sep(int c)
{
	return is_blank(c) || c == '=' || c == ':';
}

static int parse_line(struct ima_pcr_values *v, const char *p,
		      const char *end, int *bank, const char *what,
		      unsigned int line, char *err, size_t errlen)
{
	const char *word, *hex;
	size_t wlen, n;
	unsigned long pcr;
	char num[8];
	int b = *bank;

	p += ima_span(p, end, is_blank);
	if (p == end || *p == '#')
		return 0;
	word = p;
	wlen = ima_span(p, end, ima_is_word);
	p += wlen;
	p += ima_span(p, end, is_blank);
	if (!wlen || p == end || *p != ':')
		goto bad;
	p++;
	n = ima_span(word, word + wlen, isdigit);
	if (n == wlen) {
		/* tpm2_pcrread: "  10: 0x..." under a bank header */
		if (*bank == -2)
			goto bad;
		if (*bank == -1 || wlen > 2)
			return 0;	/* unsupported bank: skip */
		memcpy(num, word, wlen);
		num[wlen] = '\0';
		pcr = strtoul(num, NULL, 10);
	} else {
		b = ima_bank_by_name(word, wlen);
		p += ima_span(p, end, is_blank);
		if (p == end) {
			/* bank header, e.g. "  sha256:" */
			*bank = b;
			return 0;
		}
		n = ima_span(p, end, isdigit);
		if (!n || n > 2)
			goto bad;
		if (b < 0) {
			snprintf(err, errlen, "%s:%u: unknown PCR bank '%.*s'",
				 what, line, (int)wlen, word);
			return -1;
		}
		memcpy(num, p, n);
		num[n] = '\0';
		pcr = strtoul(num, NULL, 10);
		p += n;
		if (p == end || !is_sep((unsigned char)*p))
			goto bad;
	}
	p += ima_span(p, end, is_sep);
	hex = p;
	p += ima_span(p, end, isalnum);
	if (ima_span(p, end, is_blank) != (size_t)(end - p))
		goto bad;
	return set_value(v, b, pcr, hex, (size_t)(p - hex), err, errlen,
			 what, line);
bad:
	snprintf(err, errlen,
		 "%s:%u: not a PCR value line (expected 'sha256:10 HEX' or tpm2_pcrread output)",
		 what, line);
	return -1;
}

int ima_pcr_parse_text(struct ima_pcr_values *v, const char *text,
		       size_t len, const char *what, char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	unsigned int line = 0;
	int bank = -2;		/* -2: no header seen, -1: unknown bank */

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		line++;
		if (parse_line(v, p, eol, &bank, what, line, err, errlen))
			return -1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/*
 * A file of another kind given where PCR values text is expected: named
 * with what to do. Binary (a NUL or a byte above 0x7f among the first
 * bytes): tpm2_quote's or tpm2_pcrread's -F serialized/marshaled output,
 * or a list; lines "PCR-NN: HEX": evmctl's PCR file, whose bank is not
 * in it.
 */
static int what_kind(const char *text, size_t len, const char *path,
		     char *err, size_t errlen)
{
	size_t i, n = len < 512 ? len : 512;
	const char *p;

	for (i = 0; i < n; i++)
		if (!text[i] || (unsigned char)text[i] >= 0x80) {
			snprintf(err, errlen,
				 "%s: binary, not PCR values text: a tpm2_quote or tpm2_pcrread file in -F serialized or marshaled format? give tpm2_pcrread's text output, or the quoted values (tpm2_quote -F values) with --quote-pcrs",
				 path);
			return -1;
		}
	for (p = text; p < text + len;) {
		const char *nl = memchr(p, '\n', (size_t)(text + len - p));

		if ((size_t)(text + len - p) >= 7 && !memcmp(p, "PCR-", 4) &&
		    isdigit((unsigned char)p[4]) &&
		    isdigit((unsigned char)p[5]) && p[6] == ':') {
			snprintf(err, errlen,
				 "%s: evmctl's PCR file ('PCR-NN: HEX' lines), which does not say its bank: give it, --pcrs sha256,%s (or sha1,...)",
				 path, path);
			return -1;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

int ima_pcr_load_file(struct ima_pcr_values *v, const char *path, char *err,
		      size_t errlen)
{
	size_t len;
	char *text = ima_read_file(path, 1 << 20, &len, err, errlen);
	int rc;

	if (!text)
		return -1;
	rc = what_kind(text, len, path, err, errlen) ||
	     ima_pcr_parse_text(v, text, len, path, err, errlen);
	free(text);
	return rc ? -1 : 0;
}

int ima_pcr_load_sysfs(struct ima_pcr_values *v, const char *dir, char *err,
		       size_t errlen)
{
	int bank, pcr, count = 0;

	for (bank = 0; bank < IMA_NR_BANKS; bank++) {
		for (pcr = 0; pcr < IMA_NR_PCRS; pcr++) {
			char path[4096], buf[256];
			size_t n;
			FILE *f;

			snprintf(path, sizeof(path), "%s/pcr-%s/%d", dir,
				 bank_names[bank], pcr);
			f = fopen(path, "r");
			if (!f)
				continue;
			n = fread(buf, 1, sizeof(buf) - 1, f);
			fclose(f);
			while (n && isspace((unsigned char)buf[n - 1]))
				n--;
			if (set_value(v, bank, (unsigned long)pcr, buf, n, err,
				      errlen, path, 1))
				return -1;
			count++;
		}
	}
	return count;
}

static int aggregate_n(const struct ima_pcr_values *v, int bank, int n,
		       uint8_t *out)
{
	const struct ima_hash_algo *alg = ima_bank_algo(bank);
	uint8_t buf[10 * IMA_MAX_DIGEST];
	int i;

	for (i = 0; i < n; i++) {
		if (!(v->have[bank] & (1u << i)))
			return -1;
		memcpy(buf + i * alg->size, v->val[bank][i], alg->size);
	}
	return ima_digest(alg, buf, (size_t)n * alg->size, out);
}

/* PCRs 0-7 for sha1, 0-9 for the other banks: since 5.8 */
int ima_boot_aggregate(const struct ima_pcr_values *v, int bank,
		       uint8_t *out)
{
	return aggregate_n(v, bank, bank == IMA_BANK_SHA1 ? 8 : 10, out);
}

int ima_boot_aggregate_match(const struct ima_pcr_values *v, int bank,
			     const uint8_t *digest, size_t len)
{
	const struct ima_hash_algo *alg = ima_bank_algo(bank);
	uint8_t want[IMA_MAX_DIGEST];
	int rc;

	if (len != alg->size)
		return IMA_BOOT_DEF_NONE;
	rc = ima_boot_aggregate(v, bank, want);
	if (!rc && !memcmp(want, digest, len))
		return IMA_BOOT_DEF_CURRENT;
	if (bank != IMA_BANK_SHA1 && !aggregate_n(v, bank, 8, want) &&
	    !memcmp(want, digest, len))
		return IMA_BOOT_DEF_PRE_5_8;
	return rc ? IMA_BOOT_DEF_MISSING : IMA_BOOT_DEF_NONE;
}

int ima_pcr_load_evmctl(struct ima_pcr_values *v, int bank, const char *path,
			char *err, size_t errlen)
{
	size_t len;
	char *text = ima_read_file(path, 1 << 20, &len, err, errlen);
	const char *p, *end, *eol;
	unsigned int line = 0;
	int rc = -1, n = 0;

	if (!text)
		return -1;
	for (p = text, end = text + len; p < end; p = eol + 1) {
		const char *q, *hex;
		unsigned long pcr = 0;
		int digits = 0;

		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		line++;
		q = p + ima_span(p, eol, is_blank);
		if (q == eol)
			continue;
		if (eol - q < 4 || strncmp(q, "PCR-", 4)) {
			snprintf(err, errlen,
				 "%s:%u: expected 'PCR-NN: HEX' (evmctl)",
				 path, line);
			goto out;
		}
		for (q += 4; q < eol && isdigit((unsigned char)*q) &&
		     digits < 3; q++, digits++)
			pcr = pcr * 10 + (unsigned long)(*q - '0');
		if (!digits || q == eol || *q != ':') {
			snprintf(err, errlen,
				 "%s:%u: expected 'PCR-NN: HEX' (evmctl)",
				 path, line);
			goto out;
		}
		q++;
		q += ima_span(q, eol, is_blank);
		hex = q;
		q += ima_span(q, eol, isxdigit);
		if (q + ima_span(q, eol, is_blank) != eol) {
			snprintf(err, errlen, "%s:%u: trailing characters",
				 path, line);
			goto out;
		}
		if (set_value(v, bank, pcr, hex, (size_t)(q - hex), err,
			      errlen, path, line))
			goto out;
		n++;
	}
	if (!n) {
		snprintf(err, errlen, "%s: no 'PCR-NN: HEX' line", path);
		goto out;
	}
	rc = 0;
out:
	free(text);
	return rc;
}

/* Bits of the banks replayed and given for pcr. */
static uint32_t expected_banks(const struct ima_replay *rp, uint32_t pcr)
{
	uint32_t m = 0;
	int b;

	if (!rp->expect)
		return 0;
	for (b = 0; b < IMA_NR_BANKS; b++)
		if ((rp->banks & (1u << b)) &&
		    (rp->expect->have[b] & (1u << pcr)))
			m |= 1u << b;
	return m;
}

void ima_replay_init(struct ima_replay *rp, uint32_t banks,
		     const struct ima_pcr_values *expect)
{
	int b, p;

	memset(rp, 0, sizeof(*rp));
	rp->banks = banks;
	rp->expect = expect;
	for (p = 0; p < IMA_NR_PCRS; p++) {
		rp->last_index[p] = -1;
		rp->cover_index[p] = -1;
	}
	for (p = 0; p < IMA_NR_PCRS; p++) {
		uint32_t want = expected_banks(rp, (uint32_t)p), got = 0;

		for (b = 0; b < IMA_NR_BANKS; b++) {
			struct ima_replay_pcr *r = &rp->pcr[b][p];
			unsigned int size = ima_bank_algo(b)->size;

			r->match_index = -1;
			if (expect && (expect->have[b] & (1u << p)) &&
			    !memcmp(r->val, expect->val[b][p], size)) {
				r->matched = true;
				got |= 1u << b;
			}
		}
		rp->cover_ok[p] = want && (got & want) == want;
	}
}

static void add_pending(struct ima_replay *rp, uint32_t pcr, uint64_t index,
			uint64_t offset)
{
	uint64_t n = rp->npending[pcr]++;
	struct ima_replay_entry *np;

	if (n >= IMA_REPLAY_MAX_PENDING || rp->oom)
		return;		/* counted, not listed (oom: exit 3) */
	np = ima_reserve(rp->pending[pcr], &rp->cap_pending[pcr], n,
			 sizeof(*np));
	if (!np) {
		rp->oom = true;
		return;
	}
	rp->pending[pcr] = np;
	rp->pending[pcr][n].index = index;
	rp->pending[pcr][n].offset = offset;
}

void ima_replay_extend_at(struct ima_replay *rp, uint32_t pcr,
			  uint8_t digests[IMA_NR_BANKS][IMA_MAX_DIGEST],
			  uint64_t index, uint64_t offset)
{
	uint32_t want = expected_banks(rp, pcr), got = 0;
	int b;

	rp->count[pcr]++;
	rp->last_index[pcr] = (int64_t)index;
	for (b = 0; b < IMA_NR_BANKS; b++) {
		const struct ima_hash_algo *alg = ima_bank_algo(b);
		struct ima_replay_pcr *r = &rp->pcr[b][pcr];
		uint8_t buf[2 * IMA_MAX_DIGEST];

		if (!(rp->banks & (1u << b)))
			continue;
		memcpy(buf, r->val, alg->size);
		memcpy(buf + alg->size, digests[b], alg->size);
		ima_digest(alg, buf, 2 * alg->size, r->val);
		if ((want & (1u << b)) &&
		    !memcmp(r->val, rp->expect->val[b][pcr], alg->size)) {
			r->matched = true;
			r->match_count = rp->count[pcr];
			r->match_index = (int64_t)index;
			got |= 1u << b;
		}
	}
	if (!want)
		return;
	if (got == want) {
		rp->cover_ok[pcr] = true;
		rp->cover_count[pcr] = rp->count[pcr];
		rp->cover_index[pcr] = (int64_t)index;
		rp->npending[pcr] = 0;
	} else {
		add_pending(rp, pcr, index, offset);
	}
}

void ima_replay_extend(struct ima_replay *rp, uint32_t pcr,
		       uint8_t digests[IMA_NR_BANKS][IMA_MAX_DIGEST],
		       uint64_t index)
{
	ima_replay_extend_at(rp, pcr, digests, index, 0);
}

void ima_replay_free(struct ima_replay *rp)
{
	int p;

	for (p = 0; p < IMA_NR_PCRS; p++) {
		free(rp->pending[p]);
		rp->pending[p] = NULL;
		rp->cap_pending[p] = 0;
	}
}
