/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PCR values (given by the user) and PCR replay (computed from the log).
 */
#ifndef IMA_PCR_H
#define IMA_PCR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ima_hash.h"

#define IMA_NR_PCRS 24

enum ima_bank {
	IMA_BANK_SHA1,
	IMA_BANK_SHA256,
	IMA_BANK_SHA384,
	IMA_BANK_SHA512,
	IMA_NR_BANKS,
};

struct ima_pcr_values {
	uint32_t have[IMA_NR_BANKS];	/* bit n: PCR n given */
	uint8_t val[IMA_NR_BANKS][IMA_NR_PCRS][IMA_MAX_DIGEST];
};

int ima_bank_by_name(const char *name, size_t len);
const char *ima_bank_name(int bank);
const struct ima_hash_algo *ima_bank_algo(int bank);

/*
 * Parse PCR values from text in either of these formats (mixed is fine):
 *	sha256:10 3F2A...		(also sha256:10=3F2A...)
 *	  sha256:			(tpm2_pcrread output)
 *	    10: 0x3F2A...
 * Returns 0, or -1 with a message naming the line in err.
 */
int ima_pcr_parse_text(struct ima_pcr_values *v, const char *text,
		       size_t len, const char *what, char *err, size_t errlen);
int ima_pcr_load_file(struct ima_pcr_values *v, const char *path, char *err,
		      size_t errlen);
/* DIR/pcr-<bank>/<n>; returns the number of values read, -1 on error. */
int ima_pcr_load_sysfs(struct ima_pcr_values *v, const char *dir, char *err,
		       size_t errlen);

/*
 * boot_aggregate as the kernel computes it (ima_calc_boot_aggregate_tfm):
 * sha1 over PCR 0-7 for the sha1 bank, otherwise over PCR 0-9.
 * Returns 0, or -1 if a needed PCR value is missing.
 */
int ima_boot_aggregate(const struct ima_pcr_values *v, int bank,
		       uint8_t *out);

/*
 * A boot_aggregate digest against the PCR values of its bank, under each
 * definition a kernel has used (ima_calc_boot_aggregate):
 *  - since 5.8 (commit 20c59ce010f8), PCRs 0-9 in a bank other than sha1,
 *    PCRs 0-7 in sha1;
 *  - 5.7 and the stable kernels that took its change of bank (commit
 *    6f1a1d103b48), before 5.8: PCRs 0-7 in that bank too. Such a digest
 *    does not cover PCRs 8-9 (the boot loader's measurements of the
 *    kernel and its command line): named, never taken for the other.
 */
enum ima_boot_def {
	IMA_BOOT_DEF_MISSING = -1,	/* a needed PCR value is not given */
	IMA_BOOT_DEF_NONE = 0,		/* matches no definition */
	IMA_BOOT_DEF_CURRENT,		/* PCRs 0-9 (sha1: 0-7) */
	IMA_BOOT_DEF_PRE_5_8,		/* PCRs 0-7 of a bank not sha1 */
};

int ima_boot_aggregate_match(const struct ima_pcr_values *v, int bank,
			     const uint8_t *digest, size_t len);

struct ima_replay_pcr {
	uint8_t val[IMA_MAX_DIGEST];
	bool matched;		/* some prefix equals the expected value */
	uint64_t match_count;	/* measurements in this PCR covered */
	int64_t match_index;	/* log index of the last covered entry */
};

struct ima_replay_entry {
	uint64_t index, offset;
};

#define IMA_REPLAY_MAX_PENDING 100000	/* listed; all are counted */

struct ima_replay {
	uint32_t banks;		/* bit b: bank b replayed */
	const struct ima_pcr_values *expect;
	uint64_t count[IMA_NR_PCRS];	/* measurements per PCR */
	int64_t last_index[IMA_NR_PCRS];
	struct ima_replay_pcr pcr[IMA_NR_BANKS][IMA_NR_PCRS];
	/*
	 * Coverage of a PCR: the last prefix of its entries at which every
	 * expected bank (replayed and given) matches. cover_ok: there is one
	 * (maybe the empty prefix); cover_count/cover_index: its entries and
	 * its last entry (-1: empty). pending: the entries after it (the
	 * first IMA_REPLAY_MAX_PENDING; npending counts all).
	 */
	bool cover_ok[IMA_NR_PCRS];
	uint64_t cover_count[IMA_NR_PCRS];
	int64_t cover_index[IMA_NR_PCRS];
	struct ima_replay_entry *pending[IMA_NR_PCRS];
	uint64_t npending[IMA_NR_PCRS];
	size_t cap_pending[IMA_NR_PCRS];
	bool oom;		/* a pending list could not grow */
};

void ima_replay_init(struct ima_replay *rp, uint32_t banks,
		     const struct ima_pcr_values *expect);
/*
 * Extend PCR pcr of every replayed bank; digests[bank] is the value to
 * extend with (bank size bytes). index is the log entry index.
 */
void ima_replay_extend(struct ima_replay *rp, uint32_t pcr,
		       uint8_t digests[IMA_NR_BANKS][IMA_MAX_DIGEST],
		       uint64_t index);
/* The same, recording the entry's byte offset for the coverage report. */
void ima_replay_extend_at(struct ima_replay *rp, uint32_t pcr,
			  uint8_t digests[IMA_NR_BANKS][IMA_MAX_DIGEST],
			  uint64_t index, uint64_t offset);
/* Frees the pending lists. */
void ima_replay_free(struct ima_replay *rp);

/*
 * evmctl's PCR file (`evmctl ima_measurement --pcrs ALG,FILE`): lines
 * "PCR-NN: HEX" for bank. Returns 0, or -1 with err naming the line.
 */
int ima_pcr_load_evmctl(struct ima_pcr_values *v, int bank, const char *path,
			char *err, size_t errlen);

#endif
