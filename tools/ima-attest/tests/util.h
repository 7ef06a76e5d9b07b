/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers of the unit tests: fixtures from tests/data, hex. */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DATA_DIR
#define DATA_DIR "tests/data"
#endif

static inline unsigned char *fixture(const char *name, size_t *len)
{
	char path[512];
	unsigned char *buf;
	long n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", DATA_DIR, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
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
