/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Failure classes: what a failure is about, machine-readable (the JSON
 * report's "class"). Tests compare (entry index, class) sets written by
 * the fixture generators, so a class names one reason and never changes
 * meaning.
 */
#ifndef IMA_VERDICT_H
#define IMA_VERDICT_H

enum ima_fail_class {
	IMA_FC_GENERIC,			/* "failure" */
	IMA_FC_TEMPLATE_HASH,
	IMA_FC_UNKNOWN_TEMPLATE,
	IMA_FC_MALFORMED_FIELD,
	IMA_FC_BOOT_AGGREGATE,		/* differs from PCR 0-9 */
	IMA_FC_BOOT_UNVERIFIED,		/* a quote, but not its PCRs */
	IMA_FC_BAD_SIGNATURE,
	IMA_FC_UNKNOWN_KEY,
	IMA_FC_SIG_ALGO,
	IMA_FC_SIG_MALFORMED,
	IMA_FC_SIG_UNSUPPORTED,
	IMA_FC_UNSIGNED,
	IMA_FC_MANIFEST_PATH,
	IMA_FC_MANIFEST_DIGEST,
	IMA_FC_MANIFEST_ALGO,
	IMA_FC_BUF_DIGEST,
	IMA_FC_POLICY,
	IMA_FC_PCR_MISMATCH,		/* a value matches no prefix */
	IMA_FC_PCR_BANKS_DISAGREE,	/* banks match different prefixes */
	IMA_FC_PCR_COVERS_NOTHING,	/* matches before any entry only */
	IMA_FC_UNBOUND_PCR,		/* entry on a PCR nothing binds */
	IMA_FC_UNCOVERED,		/* entry after the covered prefix */
	IMA_FC_QUOTE_MAGIC,
	IMA_FC_QUOTE_TYPE,
	IMA_FC_QUOTE_NONCE,
	IMA_FC_QUOTE_SIGNATURE,
	IMA_FC_QUOTE_PCR_DIGEST,
	IMA_FC_QUOTE_UNATTESTED,	/* the quote failed: nothing bound */
	IMA_FC_KEXEC,			/* an ima_kexec record or hand-over */
	IMA_FC_LIST_KEY,		/* a .ima key of the list (--ca)
					 * refused, or one not attested that
					 * a signature relies on */
	IMA_FC_DENIED,			/* the digest is in --deny's list */
	IMA_FC_DENY_ALGO,		/* --deny lists no digest of the
					 * entry's algorithm */
	IMA_FC_COUNT,
};

/* "template-hash", ...; "failure" for an unknown class */
const char *ima_fail_class_name(int cls);

#endif
