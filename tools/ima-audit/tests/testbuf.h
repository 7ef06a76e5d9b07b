/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A list built in a test: bytes, u32 and u16 in the list's byte order
 * (.o; zero, as in `struct buf b = { .n = 0 }`, writes little-endian).
 */
#ifndef TESTBUF_H
#define TESTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ima_hash.h"
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

static inline void put16(struct buf *b, uint16_t v)
{
	uint8_t p[2];

	if (b->o == IMA_BO_BIG) {
		p[0] = v >> 8; p[1] = v;
	} else {
		p[1] = v >> 8; p[0] = v;
	}
	put(b, p, 2);
}

/*
 * A record's header: pcr, the template hash (thlen bytes), the template
 * name (its length, then its bytes) and, unless dlen is negative, the
 * length of the template data the caller puts next.
 */
static inline void put_header(struct buf *b, uint32_t pcr,
			      const uint8_t *thash, size_t thlen,
			      const char *name, long dlen)
{
	put32(b, pcr);
	put(b, thash, thlen);
	put32(b, (uint32_t)strlen(name));
	put(b, name, strlen(name));
	if (dlen >= 0)
		put32(b, (uint32_t)dlen);
}

/*
 * An ima-ng record on PCR 10 for path (plen bytes, then a NUL) with the
 * sha256 file digest, its template hash right (the sha1 of its template
 * data); that data's sha256 into tdig unless NULL.
 */
static inline void put_ng_record(struct buf *b, const uint8_t digest[32],
				 const char *path, size_t plen,
				 uint8_t tdig[32])
{
	struct buf d = { .o = b->o };
	uint8_t th[20];

	put32(&d, 40);
	put(&d, "sha256:", 8);
	put(&d, digest, 32);
	put32(&d, (uint32_t)plen + 1);
	put(&d, path, plen);
	put(&d, "", 1);
	ima_digest(ima_hash_by_name("sha1", 4), d.d, d.n, th);
	if (tdig)
		ima_digest(ima_hash_by_name("sha256", 6), d.d, d.n, tdig);
	put_header(b, 10, th, 20, "ima-ng", (long)d.n);
	put(b, d.d, d.n);
}

#endif
