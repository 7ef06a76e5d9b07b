/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A deny list (--deny): digests of revoked files. An entry whose digest
 * is listed fails however well its signature verifies.
 *
 * Accepted forms, told apart by the first byte that is not a space:
 *  - lines (sha256sum and friends), '#' comments and blank lines skipped:
 *	HEX [PATH]		sha256sum output (PATH may start with '*',
 *				sha256sum -b); the algorithm is the one of
 *				HEX's length: 40 sha1, 56 sha224, 64 sha256,
 *				96 sha384, 128 sha512
 *	ALG:HEX [PATH]		any algorithm the kernel names (sm3:...)
 *	ALG (PATH) = HEX	sha256sum --tag (ALG as it prints it: SHA256)
 *  - '{': a Keylime runtime policy (JSON); the hex strings of its
 *    "digests" object ({"PATH": ["HEX", ...], ...}) are denied, by length
 *    as above. Nothing else of the policy is read.
 * The path is never matched: a revoked file is revoked wherever it lies.
 */
#ifndef IMA_DENY_H
#define IMA_DENY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ima_hash.h"

struct ima_denylist;

struct ima_denylist *ima_deny_new(void);
void ima_deny_free(struct ima_denylist *d);
/* 0, or -1 with err naming the file and line; what names the input. */
int ima_deny_parse(struct ima_denylist *d, const char *text, size_t len,
		   const char *what, char *err, size_t errlen);
int ima_deny_load(struct ima_denylist *d, const char *path, char *err,
		  size_t errlen);
/* The line that listed alg:digest (>= 1), or 0 when it is not listed. */
unsigned long ima_deny_find(const struct ima_denylist *d,
			    const struct ima_hash_algo *alg,
			    const uint8_t *digest, size_t len);
/* Whether any digest of alg is listed (else alg's entries go unchecked). */
bool ima_deny_has_algo(const struct ima_denylist *d,
		       const struct ima_hash_algo *alg);
size_t ima_deny_count(const struct ima_denylist *d);
const char *ima_deny_name(const struct ima_denylist *d);

#endif
