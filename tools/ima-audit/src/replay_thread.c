// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replay thread: PCR replay on a second CPU (audit_internal.h).
 */
#include <stdlib.h>
#include <string.h>

#include "audit_internal.h"

/*
 * Hash queue: with a second CPU, PCR replay (the sha256 of every template
 * data and the extension of every bank) runs on a worker thread while
 * the main thread frames records, checks their sha1 template hash, the
 * manifest and the signatures. The main thread copies each record's
 * logged digest and hashed template data into one of HQ_NBUF buffers;
 * the worker takes full buffers in order and extends its own struct
 * ima_replay, merged back at the end, so entries are extended in log
 * order exactly as inline.
 */
#define HQ_NBUF		4
#define HQ_BUFSZ	(256u << 10)

struct hq_item {		/* followed by len bytes, padded to 8 */
	uint64_t index;
	uint64_t offset;
	uint32_t pcr;
	uint32_t len;
	uint32_t violation;
	uint8_t digest[IMA_MAX_DIGEST];	/* template digest as logged */
};

struct hashq {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t ready, freed;
	uint8_t *buf[HQ_NBUF];
	size_t used[HQ_NBUF];
	bool full[HQ_NBUF];	/* handed to the worker */
	int fill;		/* buffer the main thread fills */
	int next;		/* buffer the worker takes next */
	size_t bufsz;		/* bytes per buffer */
	bool done;
	uint32_t banks;
	int list_bank;		/* the bank whose digest the list logs */
	struct ima_replay replay;
};

static void hq_extend(struct hashq *q, const struct hq_item *it,
		      const uint8_t *data)
{
	uint8_t digests[IMA_NR_BANKS][IMA_MAX_DIGEST];
	int b;

	for (b = 0; b < IMA_NR_BANKS; b++) {
		const struct ima_hash_algo *alg = ima_bank_algo(b);

		if (!(q->banks & (1u << b)))
			continue;
		if (it->violation)
			memset(digests[b], 0xff, alg->size);
		else if (b == q->list_bank)
			memcpy(digests[b], it->digest, alg->size);
		else
			ima_digest(alg, data, it->len, digests[b]);
	}
	ima_replay_extend_at(&q->replay, it->pcr, digests, it->index,
			     it->offset);
}

static size_t hq_item_size(size_t len)
{
	return sizeof(struct hq_item) + ((len + 7) & ~(size_t)7);
}

static void *hq_worker(void *arg)
{
	struct hashq *q = arg;

	for (;;) {
		const uint8_t *p, *end;
		int i;

		pthread_mutex_lock(&q->lock);
		while (!q->full[q->next] && !q->done)
			pthread_cond_wait(&q->ready, &q->lock);
		if (!q->full[q->next]) {
			pthread_mutex_unlock(&q->lock);
			break;
		}
		i = q->next;
		pthread_mutex_unlock(&q->lock);

		p = q->buf[i];
		end = p + q->used[i];
		while (p < end) {
			const struct hq_item *it = (const void *)p;

			hq_extend(q, it, p + sizeof(*it));
			p += hq_item_size(it->len);
		}

		pthread_mutex_lock(&q->lock);
		q->used[i] = 0;
		q->full[i] = false;
		q->next = (i + 1) % HQ_NBUF;
		pthread_cond_signal(&q->freed);
		pthread_mutex_unlock(&q->lock);
	}
	return NULL;
}

static void hq_free(struct hashq *q)
{
	int i;

	for (i = 0; i < HQ_NBUF; i++)
		free(q->buf[i]);
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->ready);
	pthread_cond_destroy(&q->freed);
	free(q);
}

static struct hashq *hq_new(uint32_t banks, const struct ima_pcr_values *pcrs,
			    size_t bufsz)
{
	struct hashq *q = calloc(1, sizeof(*q));
	int i;

	if (!q)
		return NULL;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->ready, NULL);
	pthread_cond_init(&q->freed, NULL);
	q->banks = banks;
	q->bufsz = bufsz;
	ima_replay_init(&q->replay, banks, pcrs);
	for (i = 0; i < HQ_NBUF; i++) {
		q->buf[i] = malloc(bufsz);
		if (!q->buf[i])
			goto fail;
	}
	if (pthread_create(&q->thread, NULL, hq_worker, q))
		goto fail;
	return q;
fail:
	hq_free(q);
	return NULL;
}

/* Hand the buffer being filled to the worker; wait for the next one. */
static void hq_flush(struct hashq *q)
{
	pthread_mutex_lock(&q->lock);
	if (q->used[q->fill]) {
		q->full[q->fill] = true;
		pthread_cond_signal(&q->ready);
		q->fill = (q->fill + 1) % HQ_NBUF;
	}
	while (q->full[q->fill])
		pthread_cond_wait(&q->freed, &q->lock);
	pthread_mutex_unlock(&q->lock);
}

static void hq_add(struct hashq *q, const struct ima_record *rec,
		   const uint8_t *data, size_t len, bool violation)
{
	struct hq_item it = {
		.index = rec->index,
		.offset = rec->offset,
		.pcr = rec->pcr,
		.len = (uint32_t)len,
		.violation = violation,
	};
	size_t size = hq_item_size(len);
	int i;

	memcpy(it.digest, rec->digest, rec->digest_len);
	if (size > q->bufsz) {
		/* a huge entry: let the worker drain, then extend here */
		hq_flush(q);
		pthread_mutex_lock(&q->lock);
		for (i = 0; i < HQ_NBUF; i++)
			while (q->full[i])
				pthread_cond_wait(&q->freed, &q->lock);
		pthread_mutex_unlock(&q->lock);
		hq_extend(q, &it, data);
		return;
	}
	if (q->used[q->fill] + size > q->bufsz)
		hq_flush(q);
	memcpy(q->buf[q->fill] + q->used[q->fill], &it, sizeof(it));
	memcpy(q->buf[q->fill] + q->used[q->fill] + sizeof(it), data, len);
	q->used[q->fill] += size;
}

/* Drain the queue, stop the worker, take its replay as a->replay. */
void audit_replay_finish(struct ima_audit *a)
{
	struct hashq *q = a->hashq;
	int i;

	if (!q)
		return;
	hq_flush(q);
	pthread_mutex_lock(&q->lock);
	if (a->hashq_shared) {
		/* the worker stays: wait until it has taken every buffer */
		for (i = 0; i < HQ_NBUF; i++)
			while (q->full[i])
				pthread_cond_wait(&q->freed, &q->lock);
		a->replay = q->replay;	/* its pending lists move too */
		memset(&q->replay, 0, sizeof(q->replay));
		pthread_mutex_unlock(&q->lock);
		a->hashq = NULL;
		return;
	}
	q->done = true;
	pthread_cond_signal(&q->ready);
	pthread_mutex_unlock(&q->lock);
	pthread_join(q->thread, NULL);
	a->replay = q->replay;	/* same banks and expected values */
	hq_free(q);
	a->hashq = NULL;
}

struct hashq *ima_audit_hashq_new(const struct ima_audit_opts *opts)
{
	return hq_new(0, NULL, opts->hashq_bufsz ? opts->hashq_bufsz :
		      HQ_BUFSZ);
}

void ima_audit_hashq_free(struct hashq *q)
{
	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->done = true;
	pthread_cond_signal(&q->ready);
	pthread_mutex_unlock(&q->lock);
	pthread_join(q->thread, NULL);
	hq_free(q);
}

void audit_replay_start(struct ima_audit *a)
{
	struct ima_audit_opts *opts = a->opts;

	/*
	 * With keys, the verification threads have the CPUs; replay is
	 * cheap next to them and stays inline.
	 */
	if (opts->jobs <= 0 || opts->keys.n || !opts->banks)
		return;
	if (opts->hashq) {
		struct hashq *q = opts->hashq;

		/* idle since the last audit's audit_replay_finish: afresh */
		pthread_mutex_lock(&q->lock);
		q->banks = opts->banks;
		ima_replay_init(&q->replay, opts->banks, &opts->pcrs);
		q->fill = q->next = 0;
		pthread_mutex_unlock(&q->lock);
		a->hashq = q;
		a->hashq_shared = true;
		return;
	}
	a->hashq = hq_new(opts->banks, &opts->pcrs,
			  opts->hashq_bufsz ? opts->hashq_bufsz : HQ_BUFSZ);
}

void audit_replay_list_bank(struct ima_audit *a, int bank)
{
	if (a->hashq)
		a->hashq->list_bank = bank;
}

void audit_replay_add(struct ima_audit *a, const struct ima_record *rec,
		      const uint8_t *data, size_t len, bool violation)
{
	hq_add(a->hashq, rec, data, len, violation);
}
