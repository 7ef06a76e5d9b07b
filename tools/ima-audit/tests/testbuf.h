/* SPDX-License-Identifier: GPL-2.0-only */
/* A list built in a test: bytes and u32 in the list's byte order. */
#ifndef TESTBUF_H
#define TESTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ima_log.h"

struct buf {
	uint8_t d[8192];
	size_t n;
	enum ima_byte_order o;
};

static inline void put(struct buf *b, const void *p, size_t n)
{
	assert_true(b->n + n <= sizeof(b->d));
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

static inline void put32(struct buf *b, uint32_t v)
{
	uint8_t p[4];

	if (b->o == IMA_BO_BIG) {
		p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
	} else {
		p[3] = v >> 24; p[2] = v >> 16; p[1] = v >> 8; p[0] = v;
	}
	put(b, p, 4);
}

#endif
