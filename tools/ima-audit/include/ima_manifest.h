/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reference manifest: sha256sum-style lines (ima_sumline.h); several
 * digests per path allowed. Hash table by path (also the name tables of
 * a Keylime runtime policy, ima_keylime.h).
 */
#ifndef IMA_MANIFEST_H
#define IMA_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "ima_hash.h"

enum ima_manifest_result {
	IMA_MF_MATCH = 0,
	IMA_MF_UNKNOWN_PATH,
	IMA_MF_WRONG_DIGEST,	/* path known, no listed digest equals it */
	IMA_MF_NO_ALGO,		/* path known, but no digest of this algo */
};

struct ima_manifest;

struct ima_manifest *ima_manifest_new(void);
int ima_manifest_parse(struct ima_manifest *m, const char *text, size_t len,
		       const char *what, char *err, size_t errlen);
int ima_manifest_load(struct ima_manifest *m, const char *path, char *err,
		      size_t errlen);
/* One (path, digest) pair (alg->size bytes); -1 when out of memory. */
int ima_manifest_add(struct ima_manifest *m, const char *path, size_t plen,
		     const struct ima_hash_algo *alg, const uint8_t *digest);
int ima_manifest_check(const struct ima_manifest *m, const char *path,
		       size_t plen, const struct ima_hash_algo *alg,
		       const uint8_t *digest, size_t dlen);
/*
 * The digests listed for path, as "ALG:HEX" joined by ", " into out
 * (outlen bytes, cut at a whole digest); of alg only, unless NULL.
 * Returns how many are listed.
 */
size_t ima_manifest_listed(const struct ima_manifest *m, const char *path,
			   size_t plen, const struct ima_hash_algo *alg,
			   char *out, size_t outlen);
/* A hint: starts loading what ima_manifest_check(path) will read. */
void ima_manifest_prefetch(const struct ima_manifest *m, const char *path,
			   size_t plen);
size_t ima_manifest_paths(const struct ima_manifest *m);
void ima_manifest_free(struct ima_manifest *m);

#endif
