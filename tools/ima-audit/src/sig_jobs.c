// SPDX-License-Identifier: GPL-2.0-only
/*
 * The signature jobs: signatures verified on a thread pool, in batches,
 * each distinct (algorithm, digest, signature) once (audit_internal.h).
 */
#include <stdlib.h>
#include <string.h>

#include "audit_internal.h"

#define CACHE_SLOTS (1u << 16)

struct sig_job {
	struct ima_audit *a;
	enum audit_sig_kind kind;
	uint64_t index, offset;
	uint32_t pcr;
	const struct ima_hash_algo *alg;
	uint8_t digest[IMA_MAX_DIGEST];
	uint32_t dlen;
	int dtype;		/* enum ima_digest_type */
	struct ima_sig_hdr hdr;
	uint8_t *sig;
	uint32_t siglen;
	size_t plen;		/* the path's length; path holds the first
				 * IMA_PATH_KEEP bytes of it */
	char path[];
};

/* Jobs travel to the workers in batches to keep hand-offs rare. */
#define BATCH 64

struct sig_batch {
	int n;
	struct sig_job *jobs[BATCH];
};

static void *verifier_new(void *arg)
{
	struct ima_audit_opts *opts = arg;

	return ima_verifier_new(&opts->keys);
}

static void verifier_free(void *v)
{
	ima_verifier_free(v);
}

/* Returns false (no caching for this job) if it cannot be computed. */
static bool cache_key(const struct sig_job *j, uint8_t *key)
{
	const struct ima_hash_algo *sha256 = ima_hash_by_name("sha256", 6);
	uint8_t *buf = malloc(16 + j->dlen + j->siglen);
	size_t n = 0;

	if (!buf)
		return false;
	buf[n++] = (uint8_t)j->kind;
	buf[n++] = (uint8_t)j->alg->id;
	buf[n++] = (uint8_t)j->dtype;	/* the same bytes, another verdict */
	memcpy(buf + n, &j->dlen, 4);
	n += 4;
	memcpy(buf + n, j->digest, j->dlen);
	n += j->dlen;
	memcpy(buf + n, j->sig, j->siglen);
	n += j->siglen;
	n = ima_digest(sha256, buf, n, key) ? 0 : 1;
	free(buf);
	return n;
}

static void report_result(struct sig_job *j, int rc, bool cached,
			  const char *path, size_t plen)
{
	struct ima_audit *a = j->a;
	bool modsig = j->kind == AUDIT_SIG_MODSIG;
	const char *what = modsig ? "modsig" : "signature";
	struct ima_fail_detail d = { .pcr = (int)j->pcr, .has_keyid = !modsig,
				     .keyid = j->hdr.keyid };

	pthread_mutex_lock(&a->lock);
	if (cached)
		a->sig.cache_hits++;
	if (rc == IMA_SIG_OK) {
		a->sig.verified++;
		if (modsig)
			a->sig.modsig_verified++;
	} else {
		a->sig.failed++;
		if (modsig)
			a->sig.modsig_failed++;
		if (rc == IMA_SIG_UNKNOWN_KEY)
			a->sig.unknown_key++;
	}
	pthread_mutex_unlock(&a->lock);

	switch (rc) {
	case IMA_SIG_OK:
		break;
	case IMA_SIG_BAD:
		if (modsig)
			ima_audit_faild(a, j->index, j->offset, IMA_FC_BAD_SIGNATURE, path,
				       plen, &d, "modsig: bad signature");
		else
			ima_audit_faild(a, j->index, j->offset, IMA_FC_BAD_SIGNATURE, path,
				       plen, &d,
				       "bad signature (key id %08x)",
				       j->hdr.keyid);
		break;
	case IMA_SIG_UNKNOWN_KEY:
		if (modsig)
			ima_audit_faild(a, j->index, j->offset, IMA_FC_UNKNOWN_KEY, path,
				       plen, &d,
				       "modsig: signer certificate not among the keys");
		else
			ima_audit_faild(a, j->index, j->offset, IMA_FC_UNKNOWN_KEY, path,
				       plen, &d, "unknown key id %08x",
				       j->hdr.keyid);
		break;
	case IMA_SIG_ALGO_MISMATCH:
		if (modsig) {
			ima_audit_faild(a, j->index, j->offset, IMA_FC_SIG_ALGO, path,
				       plen, &d,
				       "modsig: PKCS#7 digest algorithm is not the d-modsig %s",
				       j->alg->name);
		} else {
			const struct ima_hash_algo *h =
				ima_hash_by_id(j->hdr.hash_algo);

			ima_audit_faild(a, j->index, j->offset, IMA_FC_SIG_ALGO, path,
				       plen, &d,
				       "signature hash %s does not match d-ng %s",
				       h ? h->name : "unknown", j->alg->name);
		}
		break;
	case IMA_SIG_MALFORMED:
		ima_audit_faild(a, j->index, j->offset,
				IMA_FC_SIG_MALFORMED, path, plen, &d,
			       "%s: malformed %s", what,
			       modsig ? "PKCS#7 message" : "signature header");
		break;
	case IMA_SIG_WEAK_DIGEST:
		ima_audit_faild(a, j->index, j->offset, IMA_FC_SIG_ALGO,
				path, plen, &d,
				"%s%s digest: collisions are practical, so its signature attests nothing",
				modsig ? "modsig: " : "", j->alg->name);
		break;
	case IMA_SIG_TYPE_MISMATCH:
		ima_audit_faild(a, j->index, j->offset, IMA_FC_SIG_TYPE,
				path, plen, &d,
				"%s signature (type 0x%02x) over %s digest: the kernel refuses it",
				j->hdr.type == IMA_VERITY_DIGSIG ? "an fs-verity" :
				"a file-hash", j->hdr.type,
				j->dtype == IMA_DT_VERITY ? "an fs-verity" :
				"a file-hash");
		break;
	default:
		ima_audit_faild(a, j->index, j->offset,
				IMA_FC_SIG_UNSUPPORTED, path, plen, &d,
			       "%s: unsupported algorithm or key type (%s)",
			       what, j->alg->name);
		break;
	}
}

static void report_sig(struct sig_job *j, int rc, bool cached)
{
	report_result(j, rc, cached, j->path, j->plen);
}

void audit_sigs_report(struct ima_audit *a, const struct ima_record *rec,
		       enum audit_sig_kind kind,
		       const struct ima_hash_algo *alg, int dtype,
		       const struct ima_sig_hdr *h, int rc, const char *path,
		       size_t plen)
{
	struct sig_job j = { .a = a, .kind = kind, .index = rec->index,
			     .offset = rec->offset, .pcr = rec->pcr, .alg = alg,
			     .dtype = dtype };

	if (h)
		j.hdr = *h;
	report_result(&j, rc, false, path, plen);
}

static void run_job(void *arg, void *state)
{
	struct sig_job *j = arg;
	struct ima_audit *a = j->a;
	uint8_t key[32];
	uint8_t *slot;
	int rc;

	if (!state) {
		/* the worker has no verifier (allocation failed): exit 3 */
		pthread_mutex_lock(&a->lock);
		a->oom = true;
		pthread_mutex_unlock(&a->lock);
		goto out;
	}
	if (!cache_key(j, key)) {
		/* verify without the cache rather than share a slot */
		slot = NULL;
		goto verify;
	}
	slot = a->cache[(key[0] | key[1] << 8) & (a->cache_slots - 1)];
	pthread_mutex_lock(&a->lock);
	if (slot[32] && !memcmp(slot, key, 32)) {
		rc = slot[32] - 1;
		pthread_mutex_unlock(&a->lock);
		report_sig(j, rc, true);
		goto out;
	}
	pthread_mutex_unlock(&a->lock);
verify:
	if (j->kind == AUDIT_SIG_V2)
		rc = ima_verify_sig(state, j->alg, j->dtype, j->digest,
				    j->dlen, &j->hdr);
	else
		rc = ima_verify_modsig(state, j->alg, j->digest, j->dlen,
				       j->sig, j->siglen);

	if (slot) {
		pthread_mutex_lock(&a->lock);
		memcpy(slot, key, 32);
		slot[32] = (uint8_t)(rc + 1);
		pthread_mutex_unlock(&a->lock);
	}
	report_sig(j, rc, false);
out:
	free(j->sig);
	free(j);
}

static void run_batch(void *arg, void *state)
{
	struct sig_batch *b = arg;
	int i;

	for (i = 0; i < b->n; i++)
		run_job(b->jobs[i], state);
	free(b);
}

static void flush_batch(struct ima_audit *a)
{
	if (a->batch && a->batch->n)
		ima_pool_submit(a->pool, a->batch);
	else
		free(a->batch);
	a->batch = NULL;
}

struct ima_pool *ima_audit_pool_new(struct ima_audit_opts *opts)
{
	return ima_pool_new(opts->jobs, 16, run_batch, verifier_new,
			    verifier_free, opts);
}

void audit_sigs_done(struct ima_audit *a)
{
	if (!a->pool)
		return;
	flush_batch(a);
	if (a->pool_shared)
		ima_pool_wait(a->pool);
	else
		ima_pool_finish(a->pool);
	a->pool = NULL;
}

void audit_sigs_submit(struct ima_audit *a, const struct ima_record *rec,
		       enum audit_sig_kind kind,
		       const struct ima_hash_algo *alg, int dtype,
		       const uint8_t *digest, uint32_t dlen,
		       const struct ima_field *sig, const char *path,
		       size_t plen)
{
	size_t keep = plen < IMA_PATH_KEEP ? plen : IMA_PATH_KEEP;
	struct sig_job *j = malloc(sizeof(*j) + keep + 1);

	if (!j) {
		a->oom = true;	/* a signature not checked is no pass */
		return;
	}
	memset(j, 0, sizeof(*j));
	j->a = a;
	j->kind = kind;
	j->index = rec->index;
	j->offset = rec->offset;
	j->pcr = rec->pcr;
	j->alg = alg;
	j->dtype = dtype;
	memcpy(j->digest, digest, dlen);
	j->dlen = dlen;
	j->sig = malloc(sig->len ? sig->len : 1);
	if (!j->sig) {
		free(j);
		a->oom = true;
		return;
	}
	memcpy(j->sig, sig->data, sig->len);
	j->siglen = sig->len;
	if (kind == AUDIT_SIG_V2)
		ima_sig_parse(j->sig, j->siglen, &j->hdr);
	/* the path is only shown: its first IMA_PATH_KEEP bytes are kept
	 * (what add_failure keeps), plen is its whole length */
	j->plen = plen;
	memcpy(j->path, path, keep);
	j->path[keep] = '\0';
	if (!a->batch) {
		a->batch = calloc(1, sizeof(*a->batch));
		if (!a->batch) {
			free(j->sig);
			free(j);
			a->oom = true;
			return;
		}
	}
	a->batch->jobs[a->batch->n++] = j;
	if (a->batch->n == BATCH)
		flush_batch(a);
}

int audit_sigs_start(struct ima_audit *a)
{
	struct ima_audit_opts *opts = a->opts;

	if (!opts->keys.n)
		return 0;
	a->cache_slots = opts->cache_slots ? opts->cache_slots : CACHE_SLOTS;
	if (a->cache_slots & (a->cache_slots - 1) ||
	    a->cache_slots > CACHE_SLOTS)
		a->cache_slots = CACHE_SLOTS;
	a->cache = calloc(a->cache_slots, sizeof(*a->cache));
	a->pool_shared = opts->pool;
	if (a->cache)
		a->pool = opts->pool ? opts->pool : ima_audit_pool_new(opts);
	return a->pool ? 0 : -1;
}
