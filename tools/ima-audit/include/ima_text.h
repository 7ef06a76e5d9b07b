/* SPDX-License-Identifier: GPL-2.0-only */
/* Small helpers of the text inputs (PCR files, deny lists). */
#ifndef IMA_TEXT_H
#define IMA_TEXT_H

#include <ctype.h>
#include <stddef.h>

/* The message into err (printf's format); -1, a parser's failure. */
int ima_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "WHAT:LINE: message" into err, the error of a line of an input; -1. */
int ima_line_error(char *err, size_t errlen, const char *what,
		   unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/*
 * The whole of the file at path, at most max bytes, NUL-terminated (the
 * NUL not counted in *len); free() it. NULL with the reason in err ("PATH:
 * ...", unless err is NULL) and errno: it cannot be opened or read, is
 * larger than max (EFBIG), or memory ran out (ENOMEM). The buffer grows as
 * the file is read: a small file takes little.
 */
char *ima_read_file(const char *path, size_t max, size_t *len, char *err,
		    size_t errlen);
/*
 * The length of the UTF-8 sequence of more than one byte at s (left bytes
 * there), or 0: not one, overlong, a surrogate, above U+10FFFF, cut.
 */
size_t ima_utf8_len(const unsigned char *s, size_t left);

/* The length of the run of characters of class cls at p, before end. */
static inline size_t ima_span(const char *p, const char *end,
			      int (*cls)(int))
{
	const char *s = p;

	while (p < end && cls((unsigned char)*p))
		p++;
	return (size_t)(p - s);
}

/* A word: a bank or an algorithm name (letters, digits, '_', '-'). */
static inline int ima_is_word(int c)
{
	return isalnum(c) || c == '_' || c == '-';
}

#endif
