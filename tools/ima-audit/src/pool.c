// SPDX-License-Identifier: GPL-2.0-only
/*
 * A small bounded-queue thread pool (used for signature verification).
 */
#include <pthread.h>
#include <stdlib.h>

#include "ima_sig.h"

struct ima_pool {
	pthread_mutex_t lock;
	pthread_cond_t not_empty, not_full, idle;
	void **queue;
	size_t cap, head, count;
	size_t active;		/* jobs taken, not finished */
	bool done;
	int nthreads;
	pthread_t *threads;
	ima_pool_fn fn;
	void *(*state_new)(void *arg);
	void (*state_free)(void *state);
	void *arg;
	void *inline_state;
};

static void *worker(void *arg)
{
	struct ima_pool *p = arg;
	void *state = p->state_new ? p->state_new(p->arg) : NULL;

	for (;;) {
		void *job;

		pthread_mutex_lock(&p->lock);
		while (!p->count && !p->done)
			pthread_cond_wait(&p->not_empty, &p->lock);
		if (!p->count) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		job = p->queue[p->head];
		p->head = (p->head + 1) % p->cap;
		p->count--;
		p->active++;
		pthread_cond_signal(&p->not_full);
		pthread_mutex_unlock(&p->lock);
		p->fn(job, state);
		pthread_mutex_lock(&p->lock);
		if (!--p->active && !p->count)
			pthread_cond_broadcast(&p->idle);
		pthread_mutex_unlock(&p->lock);
	}
	if (p->state_free)
		p->state_free(state);
	return NULL;
}

struct ima_pool *ima_pool_new(int threads, size_t queue_len, ima_pool_fn fn,
			      void *(*state_new)(void *arg),
			      void (*state_free)(void *state), void *arg)
{
	struct ima_pool *p = calloc(1, sizeof(*p));
	int i;

	if (!p)
		return NULL;
	p->fn = fn;
	p->state_new = state_new;
	p->state_free = state_free;
	p->arg = arg;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->not_empty, NULL);
	pthread_cond_init(&p->not_full, NULL);
	pthread_cond_init(&p->idle, NULL);
	if (threads <= 0) {
		p->inline_state = state_new ? state_new(arg) : NULL;
		return p;
	}
	p->cap = queue_len ? queue_len : 1024;
	p->queue = calloc(p->cap, sizeof(*p->queue));
	p->threads = calloc((size_t)threads, sizeof(*p->threads));
	if (!p->queue || !p->threads)
		goto fail;
	for (i = 0; i < threads; i++) {
		if (pthread_create(&p->threads[i], NULL, worker, p))
			break;
		p->nthreads++;
	}
	if (!p->nthreads)
		goto fail;
	return p;
fail:
	free(p->queue);
	free(p->threads);
	p->queue = NULL;
	p->threads = NULL;
	p->inline_state = state_new ? state_new(arg) : NULL;
	return p;
}

void ima_pool_submit(struct ima_pool *p, void *job)
{
	if (!p->nthreads) {
		p->fn(job, p->inline_state);
		return;
	}
	pthread_mutex_lock(&p->lock);
	while (p->count == p->cap)
		pthread_cond_wait(&p->not_full, &p->lock);
	p->queue[(p->head + p->count) % p->cap] = job;
	p->count++;
	pthread_cond_signal(&p->not_empty);
	pthread_mutex_unlock(&p->lock);
}

void ima_pool_wait(struct ima_pool *p)
{
	if (!p || !p->nthreads)
		return;
	pthread_mutex_lock(&p->lock);
	while (p->count || p->active)
		pthread_cond_wait(&p->idle, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

void ima_pool_finish(struct ima_pool *p)
{
	int i;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->done = true;
	pthread_cond_broadcast(&p->not_empty);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	if (!p->nthreads && p->state_free)
		p->state_free(p->inline_state);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->not_empty);
	pthread_cond_destroy(&p->not_full);
	pthread_cond_destroy(&p->idle);
	free(p->queue);
	free(p->threads);
	free(p);
}
