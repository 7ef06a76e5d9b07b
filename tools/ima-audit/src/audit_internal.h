/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the audit's checks (audit.c) share with the two pieces that run
 * beside them: the replay thread (replay_thread.c) and the signature jobs
 * with their verify-once cache (sig_jobs.c). Not part of the library's
 * interface.
 */
#ifndef IMA_AUDIT_INTERNAL_H
#define IMA_AUDIT_INTERNAL_H

#include "ima_audit.h"

/* --- the replay thread (replay_thread.c) ----------------------------- */

/*
 * With a second CPU and no keys, PCR replay runs on a worker thread: the
 * audit's own, or opts->hashq restarted. Leaves a->hashq NULL (replay
 * inline) otherwise, or when the thread cannot start.
 */
void audit_replay_start(struct ima_audit *a);
/* The bank whose template digests the list logs (extended as logged). */
void audit_replay_list_bank(struct ima_audit *a, int bank);
/* Queue one record's extension (data: the template data as hashed). */
void audit_replay_add(struct ima_audit *a, const struct ima_record *rec,
		      const uint8_t *data, size_t len, bool violation);
/* Drain the queue and take the thread's replay as a->replay. */
void audit_replay_finish(struct ima_audit *a);

/* --- the signature jobs (sig_jobs.c) --------------------------------- */

enum audit_sig_kind { AUDIT_SIG_V2, AUDIT_SIG_MODSIG };

/*
 * With keys: the verify-once cache and the pool (opts->pool, or the
 * audit's own). -1 when out of memory (nothing left to free).
 */
int audit_sigs_start(struct ima_audit *a);
/*
 * Verify a signature on the pool: sig (a v2 header or a PKCS#7 message)
 * over digest (alg, dtype: enum ima_digest_type); path names the entry in
 * a failure. The result is counted in a->sig and failures are reported.
 */
void audit_sigs_submit(struct ima_audit *a, const struct ima_record *rec,
		       enum audit_sig_kind kind,
		       const struct ima_hash_algo *alg, int dtype,
		       const uint8_t *digest, uint32_t dlen,
		       const struct ima_field *sig, const char *path,
		       size_t plen);
/* A result found on the main thread (a key from the list): counted and
 * reported the same way. h is NULL for a modsig. */
void audit_sigs_report(struct ima_audit *a, const struct ima_record *rec,
		       enum audit_sig_kind kind,
		       const struct ima_hash_algo *alg, int dtype,
		       const struct ima_sig_hdr *h, int rc, const char *path,
		       size_t plen);
/* Every submitted job done; the audit's own pool freed. */
void audit_sigs_done(struct ima_audit *a);

#endif
