/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hash algorithm table (kernel enum hash_algo order) and small helpers.
 */
#ifndef IMA_HASH_H
#define IMA_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IMA_MAX_DIGEST 64
#define IMA_SHA1_LEN 20

struct ima_hash_algo {
	const char *name;	/* kernel hash_algo_name[] */
	int id;			/* kernel enum hash_algo */
	unsigned int size;	/* digest size in bytes */
	const char *evp;	/* OpenSSL name, NULL if unsupported */
};

/* By kernel enum hash_algo value; NULL if out of range. */
const struct ima_hash_algo *ima_hash_by_id(int id);
/* By name ("sha256"), case-insensitive; len may be (size_t)-1 for C str. */
const struct ima_hash_algo *ima_hash_by_name(const char *name, size_t len);
/*
 * The one rule for every digest or signature algorithm taken from input
 * (a record's digest a signature is checked over, a manifest reference):
 * whether a digest of it can stand for the data it was computed over.
 * md4 and md5 cannot: collisions (chosen-prefix ones for md5) are
 * practical, so whoever got one file's digest signed or listed can make
 * another with the same digest. The kernel accepts them (ima_hash=md5).
 */
bool ima_hash_collision_prone(const struct ima_hash_algo *alg);
/* Guess from a hex digest length (40 -> sha1, 64 -> sha256, ...). */
const struct ima_hash_algo *ima_hash_by_size(unsigned int size);

/*
 * One-shot digest. Thread-safe; fetches the EVP_MD once per algorithm.
 * Returns 0 on success, -1 if the algorithm is not available.
 */
int ima_digest(const struct ima_hash_algo *alg, const void *data, size_t len,
	       uint8_t *out);

/* Parse hex (upper or lower case) into out; returns bytes or -1. */
int ima_hex2bin(const char *hex, size_t hexlen, uint8_t *out, size_t outmax);
/* Writes 2*len hex digits plus NUL into out. */
void ima_bin2hex(const uint8_t *bin, size_t len, char *out);

/*
 * An array with room for element n: arr itself, or grown (doubling) to a
 * new *cap, or NULL when it cannot grow (arr is then unchanged).
 */
void *ima_reserve(void *arr, size_t *cap, size_t n, size_t size);

#endif
