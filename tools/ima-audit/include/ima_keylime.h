/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Keylime's runtime policy (keylime/ima/types.py RuntimePolicyType, the
 * JSON its keylime-policy tool writes; format "meta": {"version": 1}),
 * read as the reference of --manifest, and written (ima_keylime_write):
 *
 *   "digests":  {PATH: [HEX, ...]}	a file measured at PATH must have
 *					one of these digests (ima, ima-ng,
 *					ima-sig; "boot_aggregate" too)
 *   "excludes": [REGEX, ...]		paths never judged (ima_exclude.h)
 *   "keyrings": {KEYRING: [HEX, ...]}	a key measured onto KEYRING (an
 *					ima-buf record of a certificate)
 *   "ima-buf":  {NAME: [HEX, ...]}	any other ima-buf record
 *   "ima": {"ignored_keyrings": [KEYRING or "*", ...],
 *	     "log_hash_alg": "sha1", "dm_policy": null}
 *   "verification-keys": "JSON"	{"pubkeys": [base64 DER, ...],
 *					 "keyids": [N, ...]}: a file whose
 *					signature one of them verifies needs
 *					no digest in "digests"
 *   "meta": {"version": 1, ...}, "release": N
 *
 * HEX is Keylime's: lowercase, 40 to 128 digits (its schema), here of
 * the algorithm of its length (40 sha1, 56 sha224, 64 sha256, 96 sha384,
 * 128 sha512; another length is refused). The verdicts are --manifest's
 * (manifest-path, manifest-digest, manifest-algorithm).
 */
#ifndef IMA_KEYLIME_H
#define IMA_KEYLIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ima_exclude.h"
#include "ima_hash.h"
#include "ima_json.h"
#include "ima_manifest.h"
#include "ima_sig.h"

#define IMA_KEYLIME_VERSION	1
#define IMA_KEYLIME_MAX_FILE	(256u << 20)

struct ima_keylime {
	char *file;
	long long version;
	const struct ima_hash_algo *log_hash_alg;	/* NULL: not given */
	struct ima_manifest *keyrings;	/* keyring name -> key digests */
	struct ima_manifest *bufs;	/* ima-buf name -> digests */
	size_t npaths, nkeyrings, nbufs, nexcludes;
	bool has_boot_aggregate;	/* "digests" names boot_aggregate */
	char **ignored;			/* ima.ignored_keyrings */
	size_t nignored;
	bool ignore_all;		/* "*" among them */
	struct ima_keyring keys;	/* verification-keys */
	struct ima_verifier *verifier;	/* for them (main thread only) */
};

/*
 * Whether the file at path holds JSON (its first non-blank byte is '{'):
 * 1, 0, or -1 with errno.
 */
int ima_keylime_sniff(const char *path);
/*
 * Reads the policy in path: its "digests" into m, its "excludes" into x,
 * the rest into kl. 0, or -1 with err naming the file and line.
 */
int ima_keylime_load(struct ima_keylime *kl, struct ima_manifest *m,
		     struct ima_excludes *x, const char *path, char *err,
		     size_t errlen);
int ima_keylime_parse(struct ima_keylime *kl, struct ima_manifest *m,
		      struct ima_excludes *x, const char *text, size_t len,
		      const char *what, char *err, size_t errlen);
void ima_keylime_free(struct ima_keylime *kl);
bool ima_keylime_ignores_keyring(const struct ima_keylime *kl,
				 const char *name, size_t len);

/*
 * A digests object of a policy ({NAME: [HEX, ...], ...}, field names it
 * in messages): each digest by Keylime's rule, through fn (name: the
 * member, line: the digest's). 0, or -1 with err: why the object is
 * refused, or what fn refused (fn says what in why, -1; err says where).
 */
typedef int (*ima_keylime_digest_fn)(void *ctx, const struct ima_json *name,
				     const struct ima_hash_algo *alg,
				     const uint8_t *digest,
				     unsigned long line, char *why,
				     size_t whylen);
int ima_keylime_digests(const struct ima_json *obj, const char *field,
			ima_keylime_digest_fn fn, void *ctx, const char *what,
			char *err, size_t errlen);

/*
 * A policy being written (ima_keylime_write): names and their digests,
 * each list sorted and without duplicates on output, as keylime-policy
 * writes them.
 */
struct ima_keylime_out;
struct ima_keylime_out *ima_keylime_out_new(void);
void ima_keylime_out_free(struct ima_keylime_out *o);
enum ima_keylime_table { IMA_KL_DIGESTS, IMA_KL_KEYRINGS, IMA_KL_BUFS };
/*
 * Adds a digest of name (nlen bytes) to a table. 0; 1 when name cannot be
 * written (not UTF-8: a JSON string holds characters, Keylime compares
 * them); -1 out of memory.
 */
int ima_keylime_out_add(struct ima_keylime_out *o, enum ima_keylime_table t,
			const char *name, size_t nlen,
			const struct ima_hash_algo *alg,
			const uint8_t *digest);
/* Writes the policy (log_hash_alg: the list's template digests'). */
int ima_keylime_write(const struct ima_keylime_out *o,
		      const struct ima_hash_algo *log_hash_alg, FILE *out);

#endif
