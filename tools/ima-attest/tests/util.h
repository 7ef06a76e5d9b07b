/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers of the unit tests: fixtures from tests/data, a poll round, its reasons, hex. */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ima_attest.h"

#ifndef DATA_DIR
#define DATA_DIR "tests/data"
#endif

/* tests/data/NAME, whole (at most 16 MiB); NULL when it cannot be read */
static inline unsigned char *fixture(const char *name, size_t *len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", DATA_DIR, name);
	return att_slurp(path, 16u << 20, len);
}

/*
 * r made ready for a poll round over entries (len bytes) quoted as q: the
 * last round's reasons freed, every other field cleared.
 */
static inline void round_init(struct att_poll_round *r,
			      const struct ima_pcr_values *q,
			      const uint8_t *entries, size_t len)
{
	att_reasons_free(&r->rs);
	memset(r, 0, sizeof(*r));
	r->quoted = q;
	r->entries = entries;
	r->entries_len = len;
}

/* whether one of the reasons in rs contains text */
static inline bool has_reason(const struct att_reasons *rs, const char *text)
{
	int i;

	for (i = 0; i < rs->n; i++)
		if (strstr(rs->r[i], text))
			return true;
	return false;
}

static inline size_t unhex(const char *h, unsigned char *out, size_t max)
{
	size_t n = 0;

	while (h[0] && h[1] && n < max) {
		unsigned int b;

		sscanf(h, "%2x", &b);
		out[n++] = (unsigned char)b;
		h += 2;
	}
	return n;
}

#endif
