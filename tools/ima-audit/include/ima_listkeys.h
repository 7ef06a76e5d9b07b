/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Keys from the list (--ca): the kernel measures every key put on the
 * .ima keyring (a KEY_CHECK rule: an ima-buf record named ".ima" whose
 * buffer is the key's X.509 certificate). With the CA that keyring's keys
 * must chain to, the certificates the kernel trusted can be read from the
 * list itself and the files' signatures verified with them; a key counts
 * only if its record turns out bound and covered (decided at the end of
 * the audit, so every signature it verified is remembered until then).
 */
#ifndef IMA_LISTKEYS_H
#define IMA_LISTKEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ima_hash.h"
#include "ima_log.h"
#include "ima_sig.h"

struct ima_listkey {
	uint64_t index, offset;		/* the record that measured it */
	uint32_t pcr;
	uint32_t keyid;
	char subject[128];		/* the certificate's, for reports */
	struct ima_keyring *kr;		/* this key alone (the verifier
					 * points to it: not in the array,
					 * which moves as it grows) */
	struct ima_verifier *v;
	uint64_t verified;		/* signatures it verified */
	bool retired;			/* an earlier kernel's (kexec) */
};

struct ima_listkey_use {		/* a signature a list key verified */
	uint64_t index, offset;
	size_t key;
	char *path;
};

struct ima_listkeys {
	void *store;			/* X509_STORE * of the --ca file */
	char *ca_file;
	struct ima_listkey *keys;
	size_t n, refused;
	struct ima_listkey_use *uses;
	size_t nuses, cap_uses;
	bool oom;
};

/* The CA certificates (PEM, one or more, or one DER); -1 with err. */
int ima_listkeys_load_ca(struct ima_listkeys *lk, const char *path,
			 char *err, size_t errlen);
void ima_listkeys_free(struct ima_listkeys *lk);

/*
 * A .ima record's buffer: accepted (returns 0) when it is one DER X.509
 * certificate, not a CA, with digitalSignature if it has a key usage, an
 * RSA or EC key, and chains to a --ca certificate (signatures checked,
 * dates not: the kernel's keyring restriction does not check them);
 * else -1 and why (naming the certificate when it parses), -2 when out
 * of memory.
 */
/* Whether the len bytes at der are one DER X.509 certificate, nothing else. */
bool ima_listkeys_is_cert(const uint8_t *der, size_t len);
int ima_listkeys_add(struct ima_listkeys *lk, const uint8_t *der, size_t len,
		     uint64_t index, uint64_t offset, uint32_t pcr,
		     char *why, size_t whylen);

/*
 * A kexec: the next kernel's .ima keyring starts empty, so the keys seen
 * so far verify nothing after it.
 */
void ima_listkeys_new_kernel(struct ima_listkeys *lk);

/*
 * An evmctl v2 signature (or, modsig, a PKCS#7) over digest (of type
 * dtype, enum ima_digest_type: ima_verify_sig's rules) checked with the
 * accepted keys of its key id; the use is remembered for
 * ima_listkeys_uses. IMA_SIG_UNKNOWN_KEY when no accepted key has the id
 * (or is the signer), else the verification's result.
 */
int ima_listkeys_verify(struct ima_listkeys *lk, bool modsig,
			const struct ima_hash_algo *alg, int dtype,
			const uint8_t *digest,
			size_t dlen, const struct ima_sig_hdr *h,
			const uint8_t *p7, size_t p7len, uint64_t index,
			uint64_t offset, const char *path, size_t plen);

#endif
