/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one reader of sha256sum-style lines (--manifest, --deny): a line
 * is one of
 *	HEX  PATH		sha256sum (text mode)
 *	HEX *PATH		sha256sum -b
 *	ALG:HEX PATH		IMA's form (any algorithm the kernel names)
 *	ALG (PATH) = HEX	sha256sum --tag (ALG as it prints it: SHA256)
 * after optional blanks. A line that starts with '\' has its PATH escaped
 * as coreutils writes it: "\\", "\n" and (coreutils 9) "\r" are a
 * backslash, a newline and a carriage return; any other escape, or a '\'
 * at the end, is refused (never read as another path). A bare HEX is of
 * its length's algorithm (40 sha1, 56 sha224, 64 sha256, 96 sha384, 128
 * sha512), never md5's; an md4 or md5 line is refused, as every digest of
 * a collision-prone algorithm is (ima_hash_collision_prone). A blank line
 * or one whose first non-blank is '#' holds nothing.
 */
#ifndef IMA_SUMLINE_H
#define IMA_SUMLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ima_hash.h"

/* flags */
#define IMA_SUM_NEED_PATH	0x1u	/* a line without PATH is refused */
#define IMA_SUM_CRLF		0x2u	/* a '\r' ending the line is dropped
					 * (else one ending PATH is refused:
					 * a CRLF file, or a name an older
					 * sha256sum did not escape) */

struct ima_sumline {
	const struct ima_hash_algo *alg;
	uint8_t digest[IMA_MAX_DIGEST];
	const char *path;	/* decoded, not NUL-terminated; NULL: none */
	size_t path_len;
	bool binary;		/* "HEX *PATH" */
	bool tag;		/* "ALG (PATH) = HEX" */
};

enum ima_sum_result {
	IMA_SUM_ENTRY = 0,	/* *out holds a digest (and maybe a path) */
	IMA_SUM_EMPTY = 1,	/* a blank or '#' line */
	IMA_SUM_ERROR = -1,	/* err says why (no file or line number) */
};

/*
 * One line (len bytes, without its '\n'). pathbuf (at least len bytes)
 * receives an escaped PATH decoded; out->path points into it or into
 * line.
 */
int ima_sumline_parse(const char *line, size_t len, unsigned int flags,
		      struct ima_sumline *out, char *pathbuf, char *err,
		      size_t errlen);

#endif
