// SPDX-License-Identifier: GPL-2.0-only
/*
 * Small helpers of the text inputs (ima_text.h): a file read whole, the
 * error of an input's line, and UTF-8 as RFC 3629 has it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ima_text.h"

int ima_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int ima_line_error(char *err, size_t errlen, const char *what,
		   unsigned long line, const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s:%lu: %s", what, line, msg);
	return -1;
}

char *ima_read_file(const char *path, size_t max, size_t *len, char *err,
		    size_t errlen)
{
	FILE *f = fopen(path, "rbe");
	char *buf = NULL, *nb;
	size_t cap = 0, n = 0;
	int e;			/* the cause of a failure, errno after the cleanup */

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			if (cap > max) {
				e = EFBIG;
				snprintf(err, errlen, "%s: larger than %zu bytes",
					 path, max);
				goto fail;
			}
			/* one byte past max tells a file of max bytes from a larger one */
			cap = cap ? 2 * cap : 4096;
			if (cap > max + 1)
				cap = max + 1;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				e = ENOMEM;
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			buf = nb;
		}
		n += fread(buf + n, 1, cap - n, f);
		if (ferror(f)) {
			e = errno;
			snprintf(err, errlen, "%s: %s", path, strerror(e));
			goto fail;
		}
		if (feof(f))
			break;
	}
	if (n > max) {
		e = EFBIG;
		snprintf(err, errlen, "%s: larger than %zu bytes", path, max);
		goto fail;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	fclose(f);
	free(buf);
	errno = e;
	return NULL;
}

size_t ima_utf8_len(const unsigned char *s, size_t left)
{
	size_t n, i;
	uint32_t cp;

	if (!left || s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (n > left)
		return 0;
	cp = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}
