/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Paths never judged: --exclude REGEX and a Keylime runtime policy's
 * "excludes". Keylime matches them with Python's re.match (anchored at
 * the start of the path, a prefix match); here each is translated to a
 * POSIX extended regular expression that matches exactly the same
 * printable-ASCII paths (ima_exclude_translate), and compiled once.
 *
 * What cannot be said the same way is refused with a message, never
 * matched differently: lookaround, backreferences, conditionals, inline
 * flags, possessive repeats and atomic groups, \b \B, \u \U \N and octal
 * escapes, a pattern with bytes outside printable ASCII, and whatever
 * Python itself refuses (nothing to repeat, a bad range, unbalanced
 * parentheses). Translated: (?:...) and (?P<name>...) to groups, lazy
 * repeats to greedy ones (whether a match exists does not depend on
 * it), {,n} to {0,n}, \d \w \s (and \D \W \S) and every character class
 * to a bracket expression listing its characters (Python's rules: '\'
 * escapes, '[' is a literal, ']' first is one), \A and \Z to ^ and $,
 * a '{' that starts no repeat to a literal.
 *
 * A path with a byte outside printable ASCII is never excluded (and is
 * counted apart): there Python's re, working on characters, and a regex
 * working on bytes can disagree ('.' and a newline, one character of
 * several bytes), so the entry is judged like any other.
 */
#ifndef IMA_EXCLUDE_H
#define IMA_EXCLUDE_H

#include <stdbool.h>
#include <stddef.h>

#define IMA_EXCLUDE_MAX		4096	/* patterns */
#define IMA_EXCLUDE_MAX_LEN	4096	/* bytes of one pattern */

struct ima_excludes;

struct ima_excludes *ima_excludes_new(void);
void ima_excludes_free(struct ima_excludes *x);
/*
 * Adds a pattern (len bytes); source names where it comes from in
 * messages and the report ("--exclude", "policy.json excludes[3]").
 * 0, or -1 with err.
 */
int ima_excludes_add(struct ima_excludes *x, const char *re, size_t len,
		     const char *source, char *err, size_t errlen);
size_t ima_excludes_count(const struct ima_excludes *x);
const char *ima_excludes_pattern(const struct ima_excludes *x, size_t i);
const char *ima_excludes_source(const struct ima_excludes *x, size_t i);

enum ima_exclude_match {
	IMA_EXCLUDE_NO = 0,		/* no pattern matches: judged */
	IMA_EXCLUDE_YES = 1,		/* a pattern matches: never judged */
	IMA_EXCLUDE_UNTESTED = 2,	/* bytes outside printable ASCII:
					 * judged */
};

/* The path (plen bytes) against every pattern; *which: the first match. */
int ima_excludes_match(const struct ima_excludes *x, const char *path,
		       size_t plen, size_t *which);

/*
 * The translation alone: Python's pattern re (len bytes) as a POSIX ERE
 * anchored at the start, NUL-terminated in out (outlen bytes). 0, or -1
 * with err saying what cannot be translated (at which byte).
 */
int ima_exclude_translate(const char *re, size_t len, char *out,
			  size_t outlen, char *err, size_t errlen);

#endif
