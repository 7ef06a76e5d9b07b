/* SPDX-License-Identifier: GPL-2.0-only */
/* Small helpers of the text inputs (PCR files, deny lists). */
#ifndef IMA_TEXT_H
#define IMA_TEXT_H

#include <ctype.h>
#include <stddef.h>

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
