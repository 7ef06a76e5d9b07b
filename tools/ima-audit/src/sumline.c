// SPDX-License-Identifier: GPL-2.0-only
/*
 * sha256sum-style lines (ima_sumline.h): the one reader --manifest and
 * --deny share.
 */
#include <stdio.h>
#include <string.h>

#include "ima_audit.h"
#include "ima_sumline.h"
#include "ima_text.h"

/* the message into err; IMA_SUM_ERROR */
#define fail(err, errlen, ...) \
	(ima_errf(err, errlen, __VA_ARGS__), IMA_SUM_ERROR)

static int is_xdigit(int c)
{
	return isxdigit(c);
}

/*
 * A name as coreutils writes it on a line that starts with '\': it
 * escapes '\\' and '\n' in names, and since 9.0 '\r', and nothing else.
 * Returns the decoded length, or -1 with *bad at the escape.
 */
static long unescape(char *dst, const char *src, size_t len, size_t *bad)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (src[i] != '\\') {
			dst[n++] = src[i];
			continue;
		}
		if (i + 1 == len) {
			*bad = i;
			return -1;
		}
		switch (src[++i]) {
		case '\\':
			dst[n++] = '\\';
			break;
		case 'n':
			dst[n++] = '\n';
			break;
		case 'r':
			dst[n++] = '\r';
			break;
		default:
			*bad = i - 1;
			return -1;
		}
	}
	return (long)n;
}

/* The algorithm named by the n bytes at name: known and not weak. */
static int named_algo(const char *name, size_t n,
		      const struct ima_hash_algo **alg, char *err,
		      size_t errlen)
{
	char shown[IMA_REASON_MAX];

	*alg = ima_hash_by_name(name, n);
	if (!*alg) {
		ima_escape(shown, 100, name, n);
		return fail(err, errlen, "unknown algorithm '%s'", shown);
	}
	if (ima_hash_collision_prone(*alg))
		return fail(err, errlen,
			    "%s digests are collision-prone (whoever has one file listed can make another with its digest): not a reference; list sha256 or longer",
			    (*alg)->name);
	return 0;
}

/* HEX (hexlen digits) into out->digest, of alg or of its length's. */
static int digest(const char *hex, size_t hexlen, struct ima_sumline *out,
		  char *err, size_t errlen)
{
	const struct ima_hash_algo *alg = out->alg;

	if (!alg)
		alg = hexlen % 2 ? NULL : ima_hash_by_size((unsigned)hexlen / 2);
	if (!alg)
		return fail(err, errlen,
			    "a digest of %zu hex digits is of no algorithm (40 sha1, 56 sha224, 64 sha256, 96 sha384, 128 sha512; or ALG:HEX)",
			    hexlen);
	if (hexlen != 2 * (size_t)alg->size)
		return fail(err, errlen, "%s digest of %zu hex digits, not %u",
			    alg->name, hexlen, 2 * alg->size);
	if (ima_hex2bin(hex, hexlen, out->digest, sizeof(out->digest)) !=
	    (int)alg->size)
		return fail(err, errlen, "not a hex digest");
	out->alg = alg;
	return 0;
}

/* "ALG (PATH) = HEX" from p (ALG is n bytes); PATH may hold ") = " */
static int tag_form(const char *p, size_t n, const char *end,
		    struct ima_sumline *out, char *err, size_t errlen)
{
	const char *close, *hex;
	size_t hexlen;

	for (close = end - 1; close > p + n && *close != '='; close--)
		;
	if (close - p < (long)n + 4 || close[-1] != ' ' || close[-2] != ')' ||
	    close + 2 > end || close[1] != ' ')
		return fail(err, errlen,
			    "not 'ALG (PATH) = HEX' (sha256sum --tag)");
	if (named_algo(p, n, &out->alg, err, errlen))
		return IMA_SUM_ERROR;
	hex = close + 2;
	hexlen = ima_span(hex, end, is_xdigit);
	if (hex + hexlen != end)
		return fail(err, errlen, "trailing characters after the digest");
	out->tag = true;
	out->path = p + n + 2;
	out->path_len = (size_t)(close - 2 - out->path);
	return digest(hex, hexlen, out, err, errlen);
}

int ima_sumline_parse(const char *line, size_t len, unsigned int flags,
		      struct ima_sumline *out, char *pathbuf, char *err,
		      size_t errlen)
{
	const char *p = line, *end = line + len, *tok, *hex;
	char shown[IMA_REASON_MAX];
	bool escaped = false;
	size_t n, hexlen, bad = 0;
	long dec;

	memset(out, 0, sizeof(*out));
	if ((flags & IMA_SUM_CRLF) && p < end && end[-1] == '\r')
		end--;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p == '#')
		return IMA_SUM_EMPTY;
	if (*p == '\\') {
		escaped = true;
		p++;
	}
	tok = p;
	n = ima_span(p, end, ima_is_word);
	if (n && p + n + 1 < end && p[n] == ' ' && p[n + 1] == '(') {
		if (tag_form(p, n, end, out, err, errlen))
			return IMA_SUM_ERROR;
	} else {
		if (n && p + n < end && p[n] == ':') {
			if (named_algo(p, n, &out->alg, err, errlen))
				return IMA_SUM_ERROR;
			p += n + 1;
		}
		hex = p;
		hexlen = ima_span(hex, end, is_xdigit);
		if (!hexlen || (hex + hexlen < end && hex[hexlen] != ' ' &&
				hex[hexlen] != '\t'))
			return fail(err, errlen,
				    "expected 'HEX [PATH]', 'ALG:HEX [PATH]' or 'ALG (PATH) = HEX'");
		if (digest(hex, hexlen, out, err, errlen))
			return IMA_SUM_ERROR;
		p = hex + hexlen;
		if (p < end)
			p++;
		if (p < end && (*p == ' ' || *p == '*')) {
			out->binary = *p == '*';
			p++;
		}
		out->path = p;
		out->path_len = (size_t)(end - p);
	}
	if (!out->path_len) {
		out->path = NULL;
		if (flags & IMA_SUM_NEED_PATH)
			return fail(err, errlen, "missing path");
		return IMA_SUM_ENTRY;
	}
	/*
	 * sha256sum 9.0 writes a name's '\r' as "\r" (on a '\'-line); a raw
	 * one at the end is a CRLF file or an older sha256sum's unescaped
	 * name, and which cannot be told: refused, never a different path
	 */
	if (out->path[out->path_len - 1] == '\r' && !out->tag)
		return fail(err, errlen,
			    "the path ends in a carriage return: a file with CRLF line ends (convert it), or a name sha256sum before 9.0 did not escape (write it with 9.0 or later)");
	if (escaped) {
		dec = unescape(pathbuf, out->path, out->path_len, &bad);
		if (dec < 0) {
			ima_escape(shown, 20, out->path + bad,
				   out->path_len - bad > 2 ? 2 :
				   out->path_len - bad);
			return fail(err, errlen,
				    "byte %zu: escape '%s' in a name: sha256sum writes only \\\\, \\n and \\r",
				    (size_t)(out->path - tok) + bad + 2, shown);
		}
		out->path = pathbuf;
		out->path_len = (size_t)dec;
	}
	return IMA_SUM_ENTRY;
}
