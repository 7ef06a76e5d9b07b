// SPDX-License-Identifier: GPL-2.0-only
/*
 * The deny list (ima_deny.h): digests read from sha256sum-style lines or
 * a Keylime runtime policy's "digests", kept sorted for lookups.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ima_deny.h"
#include "ima_text.h"

#define MAX_DENY_FILE	(64u << 20)
#define MAX_DEPTH	64

struct deny_entry {
	int alg;		/* kernel hash_algo id */
	unsigned int len;
	uint8_t digest[IMA_MAX_DIGEST];
	unsigned long line;
};

struct ima_denylist {
	struct deny_entry *e;
	size_t n, cap;
	uint32_t algs;		/* bit id: some digest of that algorithm */
	char *name;
};

struct ima_denylist *ima_deny_new(void)
{
	return calloc(1, sizeof(struct ima_denylist));
}

void ima_deny_free(struct ima_denylist *d)
{
	if (!d)
		return;
	free(d->e);
	free(d->name);
	free(d);
}

static int fail(char *err, size_t errlen, const char *what,
		unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail(char *err, size_t errlen, const char *what,
		unsigned long line, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s:%lu: %s", what, line, msg);
	return -1;
}

static int add(struct ima_denylist *d, const struct ima_hash_algo *alg,
	       const char *hex, size_t hexlen, unsigned long line,
	       const char *what, char *err, size_t errlen)
{
	struct deny_entry *e;

	if (!alg)
		return fail(err, errlen, what, line,
			    "a digest of %zu hex digits is of no algorithm (40 sha1, 56 sha224, 64 sha256, 96 sha384, 128 sha512; or ALG:HEX)",
			    hexlen);
	if (hexlen != 2 * (size_t)alg->size)
		return fail(err, errlen, what, line,
			    "%s digest of %zu hex digits, not %u", alg->name,
			    hexlen, 2 * alg->size);
	if (d->n == d->cap) {
		size_t ncap = d->cap ? 2 * d->cap : 64;

		e = realloc(d->e, ncap * sizeof(*e));
		if (!e)
			return fail(err, errlen, what, line, "out of memory");
		d->e = e;
		d->cap = ncap;
	}
	e = &d->e[d->n];
	if (ima_hex2bin(hex, hexlen, e->digest, sizeof(e->digest)) !=
	    (int)alg->size)
		return fail(err, errlen, what, line, "not a hex digest");
	e->alg = alg->id;
	e->len = alg->size;
	e->line = line;
	d->algs |= 1u << alg->id;
	d->n++;
	return 0;
}

/* One line of the text forms; blank and '#' lines were skipped. */
static int parse_line(struct ima_denylist *d, const char *p, const char *end,
		      unsigned long line, const char *what, char *err,
		      size_t errlen)
{
	const struct ima_hash_algo *alg = NULL;
	const char *hex, *close;
	size_t n, hexlen;

	n = ima_span(p, end, ima_is_word);
	if (n && p + n + 1 < end && p[n] == ' ' && p[n + 1] == '(') {
		/* --tag: "SHA256 (PATH) = HEX"; PATH may hold ") = " */
		alg = ima_hash_by_name(p, n);
		for (close = end - 1; close > p + n && *close != '='; close--)
			;
		if (!alg || close - p < (long)n + 4 || close[-1] != ' ' ||
		    close[-2] != ')' || close + 2 > end || close[1] != ' ')
			return fail(err, errlen, what, line,
				    "not 'ALG (PATH) = HEX' (sha256sum --tag)");
		hex = close + 2;
		hexlen = ima_span(hex, end, isxdigit);
		if (hex + hexlen != end)
			return fail(err, errlen, what, line,
				    "trailing characters after the digest");
		return add(d, alg, hex, hexlen, line, what, err, errlen);
	}
	if (n && p + n < end && p[n] == ':') {
		alg = ima_hash_by_name(p, n);
		if (!alg)
			return fail(err, errlen, what, line,
				    "unknown algorithm '%.*s'",
				    (int)(n > 32 ? 32 : n), p);
		p += n + 1;
	}
	hex = p;
	hexlen = ima_span(hex, end, isxdigit);
	if (!hexlen || (hex + hexlen < end && hex[hexlen] != ' ' &&
			hex[hexlen] != '\t'))
		return fail(err, errlen, what, line,
			    "expected 'HEX [PATH]', 'ALG:HEX [PATH]' or 'ALG (PATH) = HEX'");
	if (!alg)
		alg = hexlen % 2 ? NULL : ima_hash_by_size((unsigned)hexlen / 2);
	return add(d, alg, hex, hexlen, line, what, err, errlen);
}

static int parse_lines(struct ima_denylist *d, const char *text, size_t len,
		       const char *what, char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	unsigned long line = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *s = p;

		line++;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (eol > s && eol[-1] == '\r')
			eol--;
		/* sha256sum escapes a name with '\' first: skip the mark */
		if (s < eol && *s == '\\')
			s++;
		if (s < eol && *s != '#' &&
		    parse_line(d, s, eol, line, what, err, errlen))
			return -1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* --- a Keylime runtime policy: JSON, only "digests" read ------------- */

struct js {
	const char *p, *end;
	unsigned long line;
	const char *what;
	char *err;
	size_t errlen;
};

static void ws(struct js *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\r' || *j->p == '\n')) {
		if (*j->p == '\n')
			j->line++;
		j->p++;
	}
}

static int jfail(struct js *j, const char *why)
{
	return fail(j->err, j->errlen, j->what, j->line, "%s", why);
}

/*
 * A string: its raw body (escapes left in) in *s, *n; the digests and
 * keys read here are plain ASCII, and an escape in a digest is refused.
 */
static int jstring(struct js *j, const char **s, size_t *n)
{
	if (j->p >= j->end || *j->p != '"')
		return jfail(j, "expected a JSON string");
	*s = ++j->p;
	while (j->p < j->end && *j->p != '"') {
		if ((unsigned char)*j->p < 0x20)
			return jfail(j, "control character in a JSON string");
		if (*j->p == '\\' && ++j->p == j->end)
			break;
		j->p++;
	}
	if (j->p >= j->end)
		return jfail(j, "unterminated JSON string");
	*n = (size_t)(j->p++ - *s);
	return 0;
}

static int jvalue(struct js *j, int depth);

static int jcontainer(struct js *j, int depth, char close,
		      int (*member)(struct js *, int, const char *, size_t,
				    void *), void *arg)
{
	const char *k = NULL;
	size_t kn = 0;

	if (depth > MAX_DEPTH)
		return jfail(j, "JSON nested too deep");
	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return 0;
	}
	for (;;) {
		ws(j);
		if (close == '}') {
			if (jstring(j, &k, &kn))
				return -1;
			ws(j);
			if (j->p >= j->end || *j->p++ != ':')
				return jfail(j, "expected ':' in a JSON object");
			ws(j);
		}
		if (member ? member(j, depth + 1, k, kn, arg) :
		    jvalue(j, depth + 1))
			return -1;
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return 0;
		}
		return jfail(j, "expected ',' or the end of a JSON container");
	}
}

static int jvalue(struct js *j, int depth)
{
	static const char *const words[] = { "true", "false", "null" };
	const char *s;
	size_t n, i;

	ws(j);
	if (j->p >= j->end)
		return jfail(j, "JSON ends early");
	switch (*j->p) {
	case '{':
		return jcontainer(j, depth, '}', NULL, NULL);
	case '[':
		return jcontainer(j, depth, ']', NULL, NULL);
	case '"':
		return jstring(j, &s, &n);
	}
	for (i = 0; i < 3; i++) {
		n = strlen(words[i]);
		if ((size_t)(j->end - j->p) >= n && !memcmp(j->p, words[i], n)) {
			j->p += n;
			return 0;
		}
	}
	n = ima_span(j->p, j->end, isdigit);
	if (*j->p == '-' || n) {
		j->p++;
		while (j->p < j->end && (isdigit((unsigned char)*j->p) ||
					 (*j->p && strchr("+-.eE", *j->p))))
			j->p++;
		return 0;
	}
	return jfail(j, "not a JSON value");
}

/* each digest of a path: an array of hex strings */
static int jdigest(struct js *j, int depth, const char *k, size_t kn,
		   void *arg)
{
	struct ima_denylist *d = arg;
	const char *s;
	size_t n;

	(void)k;
	(void)kn;
	(void)depth;
	ws(j);
	if (j->p >= j->end || *j->p != '"')
		return jfail(j, "a digest is not a JSON string");
	if (jstring(j, &s, &n))
		return -1;
	if (memchr(s, '\\', n))
		return jfail(j, "an escape in a digest");
	return add(d, n % 2 ? NULL : ima_hash_by_size((unsigned)n / 2), s, n,
		   j->line, j->what, j->err, j->errlen);
}

static int jpath(struct js *j, int depth, const char *k, size_t kn,
		 void *arg)
{
	(void)k;
	(void)kn;
	ws(j);
	if (j->p >= j->end || *j->p != '[')
		return jfail(j, "a path's digests are not a JSON array");
	return jcontainer(j, depth, ']', jdigest, arg);
}

struct top {
	struct ima_denylist *d;
	bool seen;
};

static int jtop(struct js *j, int depth, const char *k, size_t kn, void *arg)
{
	struct top *t = arg;

	if (kn != 7 || memcmp(k, "digests", 7))
		return jvalue(j, depth);
	ws(j);
	if (j->p >= j->end || *j->p != '{')
		return jfail(j, "\"digests\" is not a JSON object");
	t->seen = true;
	return jcontainer(j, depth, '}', jpath, t->d);
}

static int parse_json(struct ima_denylist *d, const char *text, size_t len,
		      const char *what, char *err, size_t errlen)
{
	struct js j = { .p = text, .end = text + len, .line = 1, .what = what,
			.err = err, .errlen = errlen };
	struct top t = { .d = d };

	ws(&j);
	if (jcontainer(&j, 0, '}', jtop, &t))
		return -1;
	ws(&j);
	if (j.p != j.end)
		return jfail(&j, "bytes after the JSON object");
	if (!t.seen)
		return jfail(&j,
			     "no \"digests\" object (a Keylime runtime policy's)");
	return 0;
}

static int cmp(const void *a, const void *b)
{
	const struct deny_entry *x = a, *y = b;

	if (x->alg != y->alg)
		return x->alg < y->alg ? -1 : 1;
	return memcmp(x->digest, y->digest, x->len);
}

int ima_deny_parse(struct ima_denylist *d, const char *text, size_t len,
		   const char *what, char *err, size_t errlen)
{
	size_t i = 0;
	int rc;

	while (i < len && isspace((unsigned char)text[i]))
		i++;
	rc = i < len && text[i] == '{' ?
	     parse_json(d, text + i, len - i, what, err, errlen) :
	     parse_lines(d, text, len, what, err, errlen);
	if (!rc)
		qsort(d->e, d->n, sizeof(*d->e), cmp);
	return rc;
}

int ima_deny_load(struct ima_denylist *d, const char *path, char *err,
		  size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
	int rc = -1;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf = malloc(MAX_DENY_FILE + 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	n = fread(buf, 1, MAX_DENY_FILE + 1, f);
	if (ferror(f) || n > MAX_DENY_FILE) {
		snprintf(err, errlen, "%s: read error or larger than %u bytes",
			 path, MAX_DENY_FILE);
		goto out;
	}
	free(d->name);
	d->name = strdup(path);
	if (!d->name) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	rc = ima_deny_parse(d, buf, n, path, err, errlen);
out:
	free(buf);
	fclose(f);
	return rc;
}

unsigned long ima_deny_find(const struct ima_denylist *d,
			    const struct ima_hash_algo *alg,
			    const uint8_t *digest, size_t len)
{
	struct deny_entry key;
	const struct deny_entry *hit;

	if (!d->n || len != alg->size || !(d->algs & (1u << alg->id)))
		return 0;
	key.alg = alg->id;
	key.len = alg->size;
	memcpy(key.digest, digest, len);
	hit = bsearch(&key, d->e, d->n, sizeof(*d->e), cmp);
	return hit ? hit->line : 0;
}

bool ima_deny_has_algo(const struct ima_denylist *d,
		       const struct ima_hash_algo *alg)
{
	return d->algs & (1u << alg->id);
}

size_t ima_deny_count(const struct ima_denylist *d)
{
	return d->n;
}

const char *ima_deny_name(const struct ima_denylist *d)
{
	return d->name ? d->name : "the deny list";
}
