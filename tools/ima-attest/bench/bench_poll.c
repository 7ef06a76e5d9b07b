// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark: one polling round that brings N new entries, against the
 * same verifier over the whole list from an empty state, and a quote check.
 *
 *   bench_poll FULL.ima FULL.pcrs PLUS.ima PLUS.pcrs CERT ROUNDS
 *
 * FULL is a list, PLUS the same list with N more entries (gen/imagen.py,
 * same seed), each with its PCR values (--pcr-out). Prints the medians of
 * ROUNDS runs in milliseconds. Library calls only: the channel round trip
 * and the guest's quote are not in the figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ima_attest.h"
#include "ima_pcr.h"
#include "ima_sig.h"

/* as ima-audit's --max-size: 1 GiB */
#define MAX_LIST	((size_t)1 << 30)

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct ima_pcr_values pfull, pplus;
	struct att_poll_state st0, st;
	struct ima_keyring kr = { 0 };
	unsigned char *full, *plus;
	size_t flen, plen;
	double tf[16], ti[16];
	int rounds, i;
	char err[256];
	void *v;
	uint64_t nfull = 0, ninc = 0;

	if (argc != 7 || (rounds = atoi(argv[6])) < 1 || rounds > 16) {
		fprintf(stderr, "usage: bench_poll FULL.ima FULL.pcrs PLUS.ima PLUS.pcrs CERT ROUNDS(1-16)\n");
		return 2;
	}
	memset(&pfull, 0, sizeof(pfull));
	memset(&pplus, 0, sizeof(pplus));
	full = att_slurp(argv[1], MAX_LIST, &flen);
	plus = att_slurp(argv[3], MAX_LIST, &plen);
	if (!full || !plus || ima_pcr_load_file(&pfull, argv[2], err, sizeof(err)) ||
	    ima_pcr_load_file(&pplus, argv[4], err, sizeof(err)) ||
	    ima_keyring_load(&kr, argv[5], err, sizeof(err)) ||
	    !(v = ima_verifier_new(&kr))) {
		fprintf(stderr, "bench_poll: cannot load the inputs: %s\n", err);
		return 2;
	}
	for (i = 0; i < rounds; i++) {
		struct att_poll_round r = { .quoted = &pfull, .entries = full,
					    .entries_len = flen, .verifier = v };
		double t0 = now_ms();

		memset(&st0, 0, sizeof(st0));
		if (att_poll(&st0, &r) || r.verified == 0) {
			fprintf(stderr, "bench_poll: the full round failed: %s\n", r.rs.n ? r.rs.r[0] : "");
			return 1;
		}
		tf[i] = now_ms() - t0;
		nfull = r.verified;
	}
	for (i = 0; i < rounds; i++) {
		struct att_poll_round r = { .quoted = &pplus, .verifier = v };
		double t0;

		st = st0;
		r.entries = plus + st.next_offset;
		r.entries_len = plen - st.next_offset;
		r.offset = st.next_offset;
		t0 = now_ms();
		if (att_poll(&st, &r) || r.verified == 0) {
			fprintf(stderr, "bench_poll: the incremental round failed: %s\n", r.rs.n ? r.rs.r[0] : "");
			return 1;
		}
		ti[i] = now_ms() - t0;
		ninc = r.verified;
	}
	qsort(tf, (size_t)rounds, sizeof(double), cmp);
	qsort(ti, (size_t)rounds, sizeof(double), cmp);
	printf("full round, %llu entries from an empty state: %.1f ms (median of %d)\n",
	       (unsigned long long)nfull, tf[rounds / 2], rounds);
	printf("incremental round, %llu new entries from the saved state: %.3f ms (median of %d)\n",
	       (unsigned long long)ninc, ti[rounds / 2], rounds);
	printf("incremental / full: %.3f %%\n", 100.0 * ti[rounds / 2] / tf[rounds / 2]);
	ima_verifier_free(v);
	ima_keyring_free(&kr);
	free(full);
	free(plus);
	return 0;
}
