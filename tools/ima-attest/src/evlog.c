// SPDX-License-Identifier: GPL-2.0-only
/*
 * The firmware's TCG event log, as /sys/kernel/security/tpm0/
 * binary_bios_measurements gives it, in either format the TCG PC Client
 * Platform Firmware Profile defines (10.2):
 *  - crypto agile: a TCG_PCClientPCREvent with the Spec ID Event03 naming
 *    the banks and their digest sizes, then TCG_PCR_EVENT2 records, each
 *    with a digest for every bank;
 *  - SHA1 (the TCG 1.2 format, still written by many TPM 2.0 machines'
 *    firmware, cloud VMs among them): TCG_PCClientPCREvent records only,
 *    one sha1 digest each. Only the sha1 bank is attested by such a log.
 * Little-endian; every length is checked against the bytes left.
 */
#include <stdio.h>
#include <string.h>

#include "ima_attest.h"
#include "ima_hash.h"

struct le {
	const uint8_t *p;
	size_t len, off;
};

static bool has(const struct le *b, size_t n)
{
	return n <= b->len - b->off;
}

static uint32_t le32(struct le *b)
{
	const uint8_t *p = b->p + b->off;

	b->off += 4;
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

static uint16_t le16(struct le *b)
{
	const uint8_t *p = b->p + b->off;

	b->off += 2;
	return (uint16_t)(p[1] << 8 | p[0]);
}

static int alg_bank(uint16_t alg, uint16_t *size)
{
	switch (alg) {
	case ATT_ALG_SHA1:
		*size = 20;
		return IMA_BANK_SHA1;
	case ATT_ALG_SHA256:
		*size = 32;
		return IMA_BANK_SHA256;
	case ATT_ALG_SHA384:
		*size = 48;
		return IMA_BANK_SHA384;
	case ATT_ALG_SHA512:
		*size = 64;
		return IMA_BANK_SHA512;
	}
	return -1;
}

#define FAIL(...)                                        \
	do {                                             \
		snprintf(err, errlen, __VA_ARGS__);      \
		ev->err_offset = rec;                    \
		return -1;                               \
	} while (0)

static const char spec_id[16] = "Spec ID Event03";
static const char startup_locality[16] = "StartupLocality";

/*
 * The first record decides the format: the Spec ID Event03 (PCR 0,
 * EV_NO_ACTION) makes a crypto-agile log; anything else is a SHA1 log
 * (its own first record may be another Spec ID, Event00 or Event02, both
 * of the sha1 format).
 */
static bool agile(const struct le *b)
{
	const uint8_t *p = b->p;

	return b->len >= 32 + 16 && !p[0] && !p[1] && !p[2] && !p[3] &&
	       p[4] == ATT_EV_NO_ACTION && !p[5] && !p[6] && !p[7] &&
	       !memcmp(p + 32, spec_id, 16);
}

/* An event, extended or not; digests in dig[] of each of ev's banks. */
static int apply(struct att_evlog *ev, uint32_t pcr, uint32_t type,
		 uint8_t dig[ATT_EV_MAX_BANKS][ATT_MAX_DIGEST],
		 const uint8_t *event, uint32_t size, size_t rec, char *err,
		 size_t errlen)
{
	int j;

	ev->events++;
	if (type == ATT_EV_NO_ACTION) {
		/*
		 * not extended, whatever its PCR index (0xffffffff is legal);
		 * StartupLocality sets PCR 0's start
		 */
		if (pcr == 0 && size == 17 &&
		    !memcmp(event, startup_locality, 16) &&
		    !(ev->touched & 1)) {
			ev->locality = event[16];
			for (j = 0; j < ev->nbanks; j++)
				ev->pcr[j][0][ev->size[j] - 1] = event[16];
		}
		return 0;
	}
	if (pcr >= ATT_EV_PCRS)
		FAIL("event %u extends PCR %u", ev->events, pcr);
	/*
	 * an H-CRTM (TPM 2.0 library part 1, 34.3): the TPM started PCR 0 at
	 * 4, locality 4's value, before the H-CRTM measurement this event
	 * records was extended into it
	 */
	if (type == ATT_EV_EFI_HCRTM_EVENT && pcr == 0 && !(ev->touched & 1)) {
		ev->locality = 4;
		ev->hcrtm = true;
		for (j = 0; j < ev->nbanks; j++)
			ev->pcr[j][0][ev->size[j] - 1] = 4;
	}
	for (j = 0; j < ev->nbanks; j++) {
		uint8_t in[2 * ATT_MAX_DIGEST];

		if (ev->bank[j] < 0)
			continue;	/* framed, not replayed */
		memcpy(in, ev->pcr[j][pcr], ev->size[j]);
		memcpy(in + ev->size[j], dig[j], ev->size[j]);
		if (ima_digest(ima_bank_algo(ev->bank[j]), in, 2u * ev->size[j],
			       ev->pcr[j][pcr]))
			FAIL("digest failed");
	}
	ev->touched |= 1u << pcr;
	return 0;
}

/* The SHA1 format: TCG_PCClientPCREvent records from the first byte. */
static int sha1_log(struct att_evlog *ev, struct le *b, char *err,
		    size_t errlen)
{
	size_t rec = 0;

	ev->sha1_log = true;
	ev->nbanks = 1;
	ev->alg[0] = ATT_ALG_SHA1;
	ev->size[0] = 20;
	ev->bank[0] = IMA_BANK_SHA1;
	while (b->off < b->len) {
		uint8_t dig[ATT_EV_MAX_BANKS][ATT_MAX_DIGEST];
		uint32_t pcr, type, size;
		const uint8_t *event;

		rec = b->off;
		if (ev->events >= ATT_EV_MAX_EVENTS)
			FAIL("more than %u events", ATT_EV_MAX_EVENTS);
		if (!has(b, 32))
			FAIL("event %u truncated (header; a SHA1-format log)",
			     ev->events + 1);
		pcr = le32(b);
		type = le32(b);
		memcpy(dig[0], b->p + b->off, 20);
		b->off += 20;
		size = le32(b);
		if (size > ATT_EV_MAX_EVENT_SIZE || !has(b, size))
			FAIL("event %u: event size %u beyond the end of the log",
			     ev->events + 1, size);
		event = b->p + b->off;
		b->off += size;
		if (apply(ev, pcr, type, dig, event, size, rec, err, errlen))
			return -1;
	}
	return 0;
}

/* The first record and its Spec ID Event03 */
static int spec_event(struct att_evlog *ev, struct le *b, char *err,
		      size_t errlen)
{
	uint32_t pcr, type, size, nalg, i;
	size_t rec = 0, end;
	struct le s;

	if (!has(b, 32))
		FAIL("log of %zu bytes: no first record", b->len);
	pcr = le32(b);
	type = le32(b);
	b->off += 20;
	size = le32(b);
	if (pcr != 0 || type != ATT_EV_NO_ACTION)
		FAIL("first record is PCR %u type 0x%x, not the Spec ID event (PCR 0, EV_NO_ACTION): not a crypto-agile log",
		     pcr, type);
	if (!has(b, size))
		FAIL("first record: event size %u beyond the end of the log", size);
	s = (struct le){ .p = b->p + b->off, .len = size };
	end = b->off + size;
	if (!has(&s, 16 + 4 + 4 + 4) || memcmp(s.p, spec_id, 16))
		FAIL("first record is not a Spec ID Event03: not a crypto-agile log");
	s.off = 16 + 4 + 4;	/* platformClass, version, errata, uintnSize */
	nalg = le32(&s);
	if (nalg == 0 || nalg > ATT_EV_MAX_BANKS)
		FAIL("Spec ID names %u algorithms (1-%d supported)", nalg,
		     ATT_EV_MAX_BANKS);
	if (!has(&s, nalg * 4u + 1))
		FAIL("Spec ID algorithm table beyond its event");
	for (i = 0; i < nalg; i++) {
		uint16_t alg = le16(&s), dsize = le16(&s), want;
		int bank = alg_bank(alg, &want);
		int j;

		/*
		 * a bank of another algorithm (sm3_256, ...) is framed with the
		 * size the Spec ID gives it, and not replayed: nothing is
		 * attested of it
		 */
		if (bank < 0 && (!dsize || dsize > ATT_MAX_DIGEST))
			FAIL("Spec ID gives algorithm 0x%04x a digest size of %u (1-%d)",
			     alg, dsize, ATT_MAX_DIGEST);
		if (bank >= 0 && dsize != want)
			FAIL("Spec ID gives algorithm 0x%04x a digest size of %u (want %u)",
			     alg, dsize, want);
		for (j = 0; j < ev->nbanks; j++)
			if (ev->alg[j] == alg)
				FAIL("Spec ID names algorithm 0x%04x twice", alg);
		ev->alg[ev->nbanks] = alg;
		ev->size[ev->nbanks] = dsize;
		ev->bank[ev->nbanks] = bank;
		ev->nbanks++;
	}
	i = s.p[s.off];	/* vendorInfoSize */
	s.off += 1;
	if (!has(&s, i) || s.off + i != s.len)
		FAIL("Spec ID vendor info (%u bytes) does not end the event", i);
	b->off = end;
	return 0;
}

int att_evlog_replay(struct att_evlog *ev, const uint8_t *buf, size_t len,
		     char *err, size_t errlen)
{
	struct le b = { .p = buf, .len = len };
	size_t rec = 0;

	memset(ev, 0, sizeof(*ev));
	if (!b.len)
		FAIL("an empty log: no first record");
	if (!agile(&b))
		return sha1_log(ev, &b, err, errlen);
	if (spec_event(ev, &b, err, errlen))
		return -1;
	while (b.off < b.len) {
		uint8_t dig[ATT_EV_MAX_BANKS][ATT_MAX_DIGEST];
		bool seen[ATT_EV_MAX_BANKS] = { false };
		uint32_t pcr, type, count, size, i;
		const uint8_t *event;
		char missing[64];
		int j;

		rec = b.off;
		if (ev->events >= ATT_EV_MAX_EVENTS)
			FAIL("more than %u events", ATT_EV_MAX_EVENTS);
		if (!has(&b, 12))
			FAIL("event %u truncated (header)", ev->events + 1);
		pcr = le32(&b);
		type = le32(&b);
		count = le32(&b);
		if (count > (uint32_t)ev->nbanks)
			FAIL("event %u carries %u digests, the Spec ID names %d banks",
			     ev->events + 1, count, ev->nbanks);
		for (i = 0; i < count; i++) {
			uint16_t alg;

			if (!has(&b, 2))
				FAIL("event %u truncated (digest %u)", ev->events + 1, i);
			alg = le16(&b);
			for (j = 0; j < ev->nbanks && ev->alg[j] != alg; j++)
				;
			if (j == ev->nbanks || seen[j])
				FAIL("event %u: digest algorithm 0x%04x %s",
				     ev->events + 1, alg,
				     j == ev->nbanks ? "not in the Spec ID" : "given twice");
			if (!has(&b, ev->size[j]))
				FAIL("event %u truncated (digest 0x%04x)", ev->events + 1, alg);
			memcpy(dig[j], b.p + b.off, ev->size[j]);
			b.off += ev->size[j];
			seen[j] = true;
		}
		/*
		 * the PC Client spec requires a digest for every bank the Spec
		 * ID lists: without one, that bank's PCR is explained by nothing
		 */
		missing[0] = '\0';
		for (j = 0; j < ev->nbanks; j++) {
			size_t at = strlen(missing);

			if (seen[j])
				continue;
			/* a bank of an algorithm we know no name of (framed) */
			if (ev->bank[j] < 0)
				snprintf(missing + at, sizeof(missing) - at,
					 "%salgorithm 0x%04x", at ? ", " : "",
					 ev->alg[j]);
			else
				snprintf(missing + at, sizeof(missing) - at,
					 "%s%s", at ? ", " : "",
					 ima_bank_name(ev->bank[j]));
		}
		if (missing[0])
			FAIL("event %u (PCR %u, type 0x%x) has no %s digest, yet the Spec ID lists the bank: every event must carry one per bank",
			     ev->events + 1, pcr, type, missing);
		if (!has(&b, 4))
			FAIL("event %u truncated (event size)", ev->events + 1);
		size = le32(&b);
		if (size > ATT_EV_MAX_EVENT_SIZE || !has(&b, size))
			FAIL("event %u: event size %u beyond the end of the log",
			     ev->events + 1, size);
		event = b.p + b.off;
		b.off += size;
		if (apply(ev, pcr, type, dig, event, size, rec, err, errlen))
			return -1;
	}
	return 0;
}

void att_evlog_values(const struct att_evlog *ev, struct ima_pcr_values *v)
{
	int j, i;

	memset(v, 0, sizeof(*v));
	for (j = 0; j < ev->nbanks; j++) {
		if (ev->bank[j] < 0)
			continue;
		v->have[ev->bank[j]] = (1u << ATT_EV_PCRS) - 1;
		for (i = 0; i < ATT_EV_PCRS; i++)
			memcpy(v->val[ev->bank[j]][i], ev->pcr[j][i], ev->size[j]);
	}
}

const char *att_evlog_bank_name(const struct att_evlog *ev, int j,
				char *buf, size_t len)
{
	if (ev->bank[j] >= 0)
		return ima_bank_name(ev->bank[j]);
	snprintf(buf, len, "0x%04x (not replayed)", ev->alg[j]);
	return buf;
}

static void hex(const uint8_t *p, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

int att_evlog_compare(const struct att_evlog *ev,
		      const struct ima_pcr_values *quoted, uint32_t pcr_mask,
		      struct att_reasons *rs)
{
	int before = rs->n, bank, j, i;
	uint32_t covered = 0;

	for (bank = 0; bank < IMA_NR_BANKS; bank++) {
		uint32_t q = quoted->have[bank] & pcr_mask;

		if (!q)
			continue;
		for (j = 0; j < ev->nbanks && ev->bank[j] != bank; j++)
			;
		if (j == ev->nbanks) {
			if (ev->sha1_log)
				att_reason(rs, ATT_FC_EVLOG_BANK, "the event log is in the SHA1 (TCG 1.2) format: it explains no quoted %s PCR; only its sha1 bank is attested",
					   ima_bank_name(bank));
			else
				att_reason(rs, ATT_FC_EVLOG_BANK, "the event log has no %s bank, the quote has",
					   ima_bank_name(bank));
			continue;
		}
		for (i = 0; i < ATT_EV_PCRS; i++) {
			char a[2 * ATT_MAX_DIGEST + 1], b[2 * ATT_MAX_DIGEST + 1];

			if (!(q & (1u << i)))
				continue;
			covered |= 1u << i;
			if (!memcmp(ev->pcr[j][i], quoted->val[bank][i], ev->size[j]))
				continue;
			hex(ev->pcr[j][i], 8, a);
			hex(quoted->val[bank][i], 8, b);
			att_reason(rs, ATT_FC_EVLOG_PCR, "PCR %d %s: the event log replays to %s..., the quote has %s...",
				   i, ima_bank_name(bank), a, b);
		}
	}
	if (covered != pcr_mask)
		att_reason(rs, ATT_FC_EVLOG_BANK, "PCRs 0x%06x are not in the quote", pcr_mask & ~covered);
	/*
	 * Every bank the log carries is used (boot_aggregate comes from its
	 * sha256 PCRs 0-9): a bank, or some of its PCRs, the quote leaves out
	 * would be the log's word only, its digests never the TPM's.
	 */
	for (j = 0; j < ev->nbanks; j++) {
		uint32_t q;

		if (ev->bank[j] < 0)
			continue;	/* not replayed: nothing derives from it */
		q = quoted->have[ev->bank[j]] & pcr_mask;
		if (q != pcr_mask)
			att_reason(rs, ATT_FC_EVLOG_BANK, "the event log's %s bank is not quoted for PCRs 0x%06x: its values are not bound to the TPM",
				   ima_bank_name(ev->bank[j]), pcr_mask & ~q);
	}
	return rs->n - before;
}
