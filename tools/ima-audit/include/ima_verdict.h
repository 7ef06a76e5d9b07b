/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Failure classes: what a failure is about, machine-readable (the JSON
 * report's "class"). Tests compare (entry index, class) sets written by
 * the fixture generators, so a class names one reason and never changes
 * meaning. Each class and its name are one line of IMA_FAIL_CLASSES.
 */
#ifndef IMA_VERDICT_H
#define IMA_VERDICT_H

#define IMA_FAIL_CLASSES(X)						\
	X(GENERIC, "failure")						\
	X(TEMPLATE_HASH, "template-hash")				\
	X(UNKNOWN_TEMPLATE, "unknown-template")				\
	X(MALFORMED_FIELD, "malformed-field")				\
	X(BOOT_AGGREGATE, "boot-aggregate")	/* differs from PCR 0-9 */ \
	X(BOOT_UNVERIFIED, "boot-aggregate-unverified")	/* a quote, not its PCRs */ \
	X(BAD_SIGNATURE, "bad-signature")				\
	X(UNKNOWN_KEY, "unknown-key")					\
	X(SIG_ALGO, "signature-algorithm")				\
	X(SIG_MALFORMED, "signature-malformed")				\
	X(SIG_UNSUPPORTED, "signature-unsupported")			\
	X(SIG_TYPE, "signature-type")	/* file-hash vs fs-verity */	\
	X(UNSIGNED, "unsigned")						\
	X(MANIFEST_PATH, "manifest-path")				\
	X(MANIFEST_DIGEST, "manifest-digest")				\
	X(MANIFEST_ALGO, "manifest-algorithm")				\
	X(BUF_DIGEST, "buf-digest")					\
	X(POLICY, "policy")						\
	X(PCR_MISMATCH, "pcr-mismatch")	/* a value matches no prefix */	\
	X(PCR_BANKS_DISAGREE, "pcr-banks-disagree")	/* different prefixes */ \
	X(PCR_COVERS_NOTHING, "pcr-covers-nothing")	/* before any entry */ \
	X(UNBOUND_PCR, "unbound-pcr")	/* entry on a PCR nothing binds */ \
	X(UNCOVERED, "uncovered")	/* entry after the covered prefix */ \
	X(QUOTE_MAGIC, "quote-magic")					\
	X(QUOTE_TYPE, "quote-type")					\
	X(QUOTE_NONCE, "quote-nonce")					\
	X(QUOTE_SIGNATURE, "quote-signature")				\
	X(QUOTE_PCR_DIGEST, "quote-pcr-digest")				\
	X(QUOTE_UNATTESTED, "quote-unattested")	/* nothing bound */	\
	X(KEXEC, "kexec-handover")	/* an ima_kexec record or hand-over */ \
	X(LIST_KEY, "list-key")		/* a .ima key of the list (--ca)	\
					 * refused, or one not attested	\
					 * that a signature relies on */ \
	X(DENIED, "denied")		/* the digest is in --deny's list */ \
	X(DENY_ALGO, "deny-algorithm")	/* --deny lists no digest of the \
					 * entry's algorithm */

enum ima_fail_class {
#define IMA_FC_ENUM(id, name) IMA_FC_##id,
	IMA_FAIL_CLASSES(IMA_FC_ENUM)
#undef IMA_FC_ENUM
	IMA_FC_COUNT,
};

/* "template-hash", ...; "failure" for an unknown class */
const char *ima_fail_class_name(int cls);

#endif
