/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * IMA signature verification: evmctl v2 signatures (sig field) and
 * appended PKCS#7 signatures (modsig field), a key set and a worker pool.
 */
#ifndef IMA_SIG_H
#define IMA_SIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ima_hash.h"

#define IMA_XATTR_DIGSIG	0x03	/* EVM_IMA_XATTR_DIGSIG */
#define IMA_VERITY_DIGSIG	0x06	/* IMA_VERITY_DIGSIG */
#define IMA_SIG_HDR_LEN		9	/* struct signature_v2_hdr */

/*
 * Whether bytes start as a signature the kernel logs in a sig field
 * (ima_eventsig_init): EVM_IMA_XATTR_DIGSIG, EVM_XATTR_PORTABLE_DIGSIG or
 * IMA_VERITY_DIGSIG, valid or not.
 */
static inline bool ima_sig_typed(const uint8_t *p, uint32_t len)
{
	return len && (p[0] == IMA_XATTR_DIGSIG || p[0] == 0x05 ||
		       p[0] == IMA_VERITY_DIGSIG);
}

struct ima_key {
	void *pkey;		/* EVP_PKEY * */
	void *cert;		/* X509 *, NULL for a bare public key */
	uint32_t keyid;		/* last 4 bytes of the SKID */
	char *file;
};

struct ima_keyring {
	struct ima_key *keys;
	size_t n;
};

/* Loads every certificate (PEM or DER) or public key in path. */
int ima_keyring_load(struct ima_keyring *kr, const char *path, char *err,
		     size_t errlen);
void ima_keyring_free(struct ima_keyring *kr);
/*
 * A DER SubjectPublicKeyInfo (len bytes, nothing after it), RSA or EC,
 * with key id keyid (0: computed as for a bare key). 0, or -1 with err.
 */
int ima_keyring_add_der_pubkey(struct ima_keyring *kr, const uint8_t *der,
			       size_t len, uint32_t keyid, const char *what,
			       char *err, size_t errlen);
/*
 * An X509 * the ring takes over on success (0); -2 for a key neither RSA
 * nor EC (the certificate stays the caller's), -1 out of memory.
 */
int ima_keyring_add_cert(struct ima_keyring *kr, void *cert,
			 const char *what);

enum ima_sig_status {
	IMA_SIG_OK = 0,
	IMA_SIG_BAD,		/* verification failed */
	IMA_SIG_UNKNOWN_KEY,	/* no key with this id / signer */
	IMA_SIG_MALFORMED,	/* header or PKCS#7 cannot be parsed */
	IMA_SIG_ALGO_MISMATCH,	/* signature hash != measured digest hash */
	IMA_SIG_UNSUPPORTED,	/* algorithm or format not supported */
	IMA_SIG_WEAK_DIGEST,	/* over an md4/md5 digest: attests nothing */
	IMA_SIG_TYPE_MISMATCH,	/* a file-hash signature over an fs-verity
				 * digest, or the reverse */
};

/* struct signature_v2_hdr, packed, keyid and sig_size big-endian */
struct ima_sig_hdr {
	uint8_t type;
	uint8_t version;
	uint8_t hash_algo;
	uint32_t keyid;
	uint16_t sig_size;
	const uint8_t *sig;
};

/*
 * A sig field: type 3 version 2 (a signature of the file digest), or type
 * 6 version 3 (of an fs-verity digest). Returns IMA_SIG_OK or
 * IMA_SIG_MALFORMED / IMA_SIG_UNSUPPORTED.
 */
int ima_sig_parse(const uint8_t *data, uint32_t len, struct ima_sig_hdr *h);

/* Per-thread verification state (caches OpenSSL contexts). */
struct ima_verifier;
struct ima_verifier *ima_verifier_new(const struct ima_keyring *kr);
void ima_verifier_free(struct ima_verifier *v);

/*
 * Verify a sig field's signature over a record's digest (algorithm alg,
 * type dtype, enum ima_digest_type), as the kernel's xattr_verify(): a
 * type 3 signature signs the digest itself, a type 6 (version 3) one the
 * digest of struct ima_file_id { u8 type 6, u8 algo, digest }. The types
 * must agree: a file-hash signature (3) over a "verity:" digest, or a
 * verity signature (6) over an "ima:" one, is IMA_SIG_TYPE_MISMATCH (a
 * d-ng digest states no type: the signature's says what was signed).
 * A digest of a collision-prone algorithm (ima_hash_collision_prone) is
 * IMA_SIG_WEAK_DIGEST, whatever the signature.
 */
int ima_verify_sig(struct ima_verifier *v, const struct ima_hash_algo *alg,
		   int dtype, const uint8_t *digest, size_t dlen,
		   const struct ima_sig_hdr *h);
/*
 * Verify a modsig PKCS#7 blob: d-modsig carries the digest the signer
 * signed (content digest, or digest of the authenticated attributes).
 * IMA_SIG_WEAK_DIGEST for a collision-prone algorithm.
 */
int ima_verify_modsig(struct ima_verifier *v, const struct ima_hash_algo *alg,
		      const uint8_t *digest, size_t dlen, const uint8_t *p7,
		      size_t p7len);

/*
 * Thread pool: fn(job, thread_state) runs on a worker; with 0 threads
 * jobs run inline in ima_pool_submit. submit blocks while the bounded
 * queue is full.
 */
struct ima_pool;
typedef void (*ima_pool_fn)(void *job, void *state);
struct ima_pool *ima_pool_new(int threads, size_t queue_len, ima_pool_fn fn,
			      void *(*state_new)(void *arg),
			      void (*state_free)(void *state), void *arg);
void ima_pool_submit(struct ima_pool *p, void *job);
/* Returns when every submitted job has run; the pool stays. */
void ima_pool_wait(struct ima_pool *p);
/* Runs all queued jobs, joins the workers and frees the pool. */
void ima_pool_finish(struct ima_pool *p);

#endif
