// SPDX-License-Identifier: GPL-2.0-only
/*
 * Excluded paths (ima_exclude.h): Python's re syntax, as Keylime's
 * excludes use it, translated to POSIX ERE and compiled with regcomp().
 *
 * The translation follows CPython's sre_parse for the syntax it accepts:
 * each construct becomes one that matches the same printable-ASCII
 * strings, and a construct without such a form is refused.
 */
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ima_exclude.h"
#include "ima_hash.h"
#include "ima_text.h"

#define MAX_DEPTH	64
#define MAX_REPEAT	255	/* a larger bound makes regcomp() explode */
#define OUT_PER_BYTE	160	/* the longest translation of one byte */
#define MAX_SIZE	20000	/* atoms once repeats are unrolled: a bound
				 * on what regcomp() builds */

struct excl {
	regex_t re;
	char *pattern;
	char *source;
};

struct ima_excludes {
	struct excl *e;
	size_t n;
};

/* --- the translation ---------------------------------------------------- */

struct tr {
	const char *start, *p, *end;
	char *out;
	size_t n, cap;
	int depth;
	long size;		/* atoms, repeats unrolled */
	char *err;
	size_t errlen;
};

/* "byte N: message" (N the pattern's byte, from 1) into t's err; -1 */
#define tfail(t, fmt, ...)						\
	ima_errf((t)->err, (t)->errlen, "byte %zu: " fmt,		\
		 (size_t)((t)->p - (t)->start) + 1, ##__VA_ARGS__)

static int emit(struct tr *t, const char *s, size_t n)
{
	if (t->cap - t->n <= n)
		return tfail(t, "the translation is too long");
	memcpy(t->out + t->n, s, n);
	t->n += n;
	t->out[t->n] = '\0';
	return 0;
}

static int emit_c(struct tr *t, char c)
{
	return emit(t, &c, 1);
}

/* A set of the ASCII characters 1-127 (NUL is in no path). */
struct set {
	uint8_t has[128];
};

static void set_range(struct set *s, int lo, int hi)
{
	for (; lo <= hi; lo++)
		if (lo > 0 && lo < 128)
			s->has[lo] = 1;
}

static void set_add(struct set *s, const struct set *o, bool negate)
{
	int c;

	for (c = 1; c < 128; c++)
		if (o->has[c] != negate)
			s->has[c] = 1;
}

/* \d \w \s as Python reads them in a str pattern, on ASCII */
static bool class_escape(char c, struct set *s)
{
	struct set o = { { 0 } };

	switch (c) {
	case 'd':
	case 'D':
		set_range(&o, '0', '9');
		break;
	case 'w':
	case 'W':
		set_range(&o, '0', '9');
		set_range(&o, 'A', 'Z');
		set_range(&o, 'a', 'z');
		o.has['_'] = 1;
		break;
	case 's':
	case 'S':
		/* str.isspace(): also the information separators 0x1c-0x1f */
		set_range(&o, '\t', '\r');
		set_range(&o, 0x1c, ' ');
		break;
	default:
		return false;
	}
	set_add(s, &o, c >= 'A' && c <= 'Z');
	return true;
}

static bool printable(int c)
{
	return c >= 0x20 && c < 0x7f;
}

/*
 * One escaped character after '\' at t->p (both in and out of a class):
 * its code in *c, or a class in *s (*c = -1). in_class: \b is a
 * backspace there, a word boundary outside (refused by the caller).
 */
static int escape(struct tr *t, bool in_class, int *c, struct set *s)
{
	uint8_t b;
	int x;

	if (t->p + 1 >= t->end)
		return tfail(t, "'\\' at the end of the pattern (Python refuses it)");
	x = (unsigned char)t->p[1];
	t->p += 2;
	if (class_escape((char)x, s)) {
		*c = -1;
		return 0;
	}
	switch (x) {
	case 'n':
		*c = '\n';
		return 0;
	case 't':
		*c = '\t';
		return 0;
	case 'r':
		*c = '\r';
		return 0;
	case 'f':
		*c = '\f';
		return 0;
	case 'v':
		*c = '\v';
		return 0;
	case 'a':
		*c = '\a';
		return 0;
	case 'b':
		if (in_class) {
			*c = '\b';
			return 0;
		}
		t->p -= 2;
		return tfail(t, "\\b (a word boundary): POSIX ERE has none");
	case 'x':
		if (t->end - t->p < 2 || ima_hex2bin(t->p, 2, &b, 1) != 1) {
			t->p -= 2;
			return tfail(t, "\\x needs two hex digits (Python refuses it)");
		}
		t->p += 2;
		*c = b;
		if (*c >= 0x80 || !*c) {
			t->p -= 4;
			return tfail(t, "\\x%02x: only printable ASCII paths are matched",
				     *c);
		}
		return 0;
	}
	t->p -= 2;
	if (x >= '0' && x <= '9')
		return tfail(t, "'\\%c' (a backreference or an octal escape): not supported",
			     x);
	if ((x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z'))
		return tfail(t, "'\\%c': %s", x,
			     strchr("uUNgABZ", x) ?
			     "not supported here" :
			     "not an escape Python knows (it refuses it)");
	if (!printable(x))
		return tfail(t, "a byte outside printable ASCII in the pattern");
	t->p += 2;
	*c = x;		/* an escaped punctuation character: itself */
	return 0;
}

/* One character, outside a bracket expression. */
static int emit_literal(struct tr *t, int c)
{
	char b[4];

	if (strchr(".[()*+?{|^$\\", c)) {
		b[0] = '\\';
		b[1] = (char)c;
		return emit(t, b, 2);
	}
	if (c == ']' || c == '}' || !printable(c)) {
		b[0] = '[';
		b[1] = (char)c;
		b[2] = ']';
		return emit(t, b, 3);
	}
	return emit_c(t, (char)c);
}

/*
 * A set as a bracket expression: ']' first, '^' never first, '[' never
 * before ':', '.' or '=', '-' last: each character itself, no range.
 */
static int emit_set(struct tr *t, const struct set *s)
{
	int c, count = 0, last = 0;
	bool any = false;

	for (c = 1; c < 128; c++)
		if (s->has[c]) {
			count++;
			last = c;
		}
	if (!count)	/* no ASCII character: it matches no path */
		return emit(t, "[^\x01-\x7f]", 6);
	if (count == 1)
		return emit_literal(t, last);
	if (emit_c(t, '['))
		return -1;
	if (s->has[']']) {
		any = true;
		if (emit_c(t, ']'))
			return -1;
	}
	for (c = 1; c < 128; c++) {
		if (!s->has[c] || strchr("]^[-", c))
			continue;
		any = true;
		if (emit_c(t, (char)c))
			return -1;
	}
	if (s->has['['] && emit_c(t, '['))
		return -1;
	if (s->has['^'] && (any || s->has['[']) && emit_c(t, '^'))
		return -1;
	if (s->has['-'] && emit_c(t, '-'))
		return -1;
	if (s->has['^'] && !any && !s->has['['] && emit_c(t, '^'))
		return -1;	/* "[-^]" */
	return emit_c(t, ']');
}

/*
 * One member of a character class, or one end of a range: a character
 * (*c) or an escape (*c, or -1 and the set in *s).
 */
static int class_member(struct tr *t, int *c, struct set *s)
{
	if (*t->p == '\\')
		return escape(t, true, c, s);
	*c = (unsigned char)*t->p++;
	if (!printable(*c))
		return tfail(t, "a byte outside printable ASCII in the pattern");
	return 0;
}

/* A character class after '[' (Python's rules), as a bracket. */
static int char_class(struct tr *t)
{
	struct set s = { { 0 } };
	bool negate = false, first = true;
	int lo, hi;

	t->p++;
	if (t->p < t->end && *t->p == '^') {
		negate = true;
		t->p++;
	}
	for (;;) {
		struct set ls = { { 0 } }, hs = { { 0 } };

		if (t->p >= t->end)
			return tfail(t, "unterminated character set (Python refuses it)");
		if (*t->p == ']' && !first) {
			t->p++;
			break;
		}
		first = false;
		if (class_member(t, &lo, &ls))
			return -1;
		if (t->p + 1 < t->end && *t->p == '-' && t->p[1] != ']') {
			t->p++;
			if (class_member(t, &hi, &hs))
				return -1;
			if (lo < 0 || hi < 0 || hi < lo)
				return tfail(t, "bad character range (Python refuses it)");
			set_range(&s, lo, hi);
			continue;
		}
		if (lo < 0)
			set_add(&s, &ls, false);
		else
			set_range(&s, lo, lo);
	}
	if (negate) {
		struct set n = { { 0 } };

		set_add(&n, &s, true);
		return emit_set(t, &n);
	}
	return emit_set(t, &s);
}

static int digits(struct tr *t, long *v)
{
	const char *s = t->p;

	*v = 0;
	while (t->p < t->end && *t->p >= '0' && *t->p <= '9') {
		if (*v <= 100000)
			*v = *v * 10 + (*t->p - '0');
		t->p++;
	}
	return t->p > s;
}

/*
 * A repeat "{m}", "{m,}", "{,n}", "{m,n}" at t->p, as Python reads one
 * (anything else, "{}" too, is a literal '{'): true with the bounds (n
 * -1: none), t->p after it; false with t->p unchanged.
 */
static bool brace_repeat(struct tr *t, long *m, long *n)
{
	const char *here = t->p;
	bool lo, hi = false;

	if (t->p + 1 >= t->end || *t->p != '{' || t->p[1] == '}')
		return false;
	t->p++;
	lo = digits(t, m);
	if (t->p < t->end && *t->p == ',') {
		t->p++;
		hi = digits(t, n);
		if (!hi)
			*n = -1;
	} else {
		*n = *m;
		hi = lo;
	}
	if (t->p >= t->end || *t->p != '}') {
		t->p = here;
		return false;
	}
	t->p++;
	if (!lo)
		*m = 0;
	return true;
}

static bool repeat_ahead(struct tr *t)
{
	const char *here = t->p;
	long m, n;
	bool r;

	if (t->p >= t->end)
		return false;
	if (*t->p == '*' || *t->p == '+' || *t->p == '?')
		return true;
	r = brace_repeat(t, &m, &n);
	t->p = here;
	return r;
}

/*
 * The repeat after an atom (its size counted from before), if any; lazy
 * ones become greedy.
 */
static int repeat(struct tr *t, long before)
{
	long m, n, f = 1;
	char b[32];
	int len;

	if (t->p >= t->end)
		return 0;
	if (*t->p == '*' || *t->p == '+' || *t->p == '?') {
		f = *t->p == '?' ? 1 : 2;
		if (emit_c(t, *t->p++))
			return -1;
	} else if (brace_repeat(t, &m, &n)) {
		if (n >= 0 && n < m) {
			t->p--;
			return tfail(t, "min repeat greater than max repeat (Python refuses it)");
		}
		if (m > MAX_REPEAT || n > MAX_REPEAT) {
			t->p--;
			return tfail(t, "a repeat bound above %d", MAX_REPEAT);
		}
		if (n < 0)
			len = snprintf(b, sizeof(b), "{%ld,}", m);
		else if (n == m)
			len = snprintf(b, sizeof(b), "{%ld}", m);
		else
			len = snprintf(b, sizeof(b), "{%ld,%ld}", m, n);
		if (emit(t, b, (size_t)len))
			return -1;
		f = n < 0 ? m + 1 : n > 0 ? n : 1;
	} else {
		return 0;
	}
	t->size = before + (t->size - before) * f;
	if (t->size > MAX_SIZE)
		return tfail(t, "the pattern unrolls to more than %d atoms (nested repeats)",
			     MAX_SIZE);
	/* a lazy repeat matches where the greedy one does (whether, not
	 * how much, is what counts); a possessive one does not */
	if (t->p < t->end && *t->p == '?')
		t->p++;
	else if (t->p < t->end && *t->p == '+')
		return tfail(t, "a possessive repeat: POSIX ERE has none");
	if (repeat_ahead(t))
		return tfail(t, "multiple repeat (Python refuses it)");
	return 0;
}

static int alternation(struct tr *t);

/* "(" or "(?...": a group */
static int group(struct tr *t)
{
	const char *open = t->p;

	if (++t->depth > MAX_DEPTH)
		return tfail(t, "groups nested more than %d deep", MAX_DEPTH);
	t->p++;
	if (t->p < t->end && *t->p == '?') {
		if (t->p + 1 < t->end && t->p[1] == ':') {
			t->p += 2;
		} else if (t->end - t->p >= 3 && t->p[1] == 'P' &&
			   t->p[2] == '<') {
			const char *name = t->p += 3;

			while (t->p < t->end && (*t->p == '_' ||
						 (*t->p >= '0' && *t->p <= '9') ||
						 ((*t->p | 0x20) >= 'a' &&
						  (*t->p | 0x20) <= 'z')))
				t->p++;
			if (t->p >= t->end || *t->p != '>' || t->p == name ||
			    (*name >= '0' && *name <= '9')) {
				t->p = open;
				return tfail(t, "a bad group name (Python refuses it)");
			}
			t->p++;
		} else {
			t->p = open;
			return tfail(t, "'(?%c': %s", t->p + 2 < t->end ?
				     t->p[2] : ' ',
				     "lookaround, flags, backreferences, conditionals, atomic groups and comments are not supported");
		}
	}
	if (emit_c(t, '(') || alternation(t))
		return -1;
	if (t->p >= t->end || *t->p != ')') {
		t->p = open;
		return tfail(t, "missing ')' (Python refuses it)");
	}
	t->p++;
	t->depth--;
	return emit_c(t, ')');
}

/* One atom and its repeat; false at the end of a branch. */
static int piece(struct tr *t)
{
	struct set s = { { 0 } };
	long m, n, before = t->size++;
	int c;

	switch (*t->p) {
	case '(':
		if (group(t))
			return -1;
		break;
	case '[':
		if (char_class(t))
			return -1;
		break;
	case '.':
		t->p++;
		if (emit_c(t, '.'))
			return -1;
		break;
	case '^':
	case '$':
		if (emit_c(t, *t->p++))
			return -1;
		if (repeat_ahead(t))
			return tfail(t, "nothing to repeat (Python refuses it)");
		return 0;
	case '*':
	case '+':
	case '?':
		return tfail(t, "nothing to repeat (Python refuses it)");
	case '{':
		if (brace_repeat(t, &m, &n))
			return tfail(t, "nothing to repeat (Python refuses it)");
		t->p++;
		if (emit_literal(t, '{'))
			return -1;
		break;
	case '\\':
		if (t->p + 1 < t->end && (t->p[1] == 'A' || t->p[1] == 'Z')) {
			if (emit_c(t, t->p[1] == 'A' ? '^' : '$'))
				return -1;
			t->p += 2;
			if (repeat_ahead(t))
				return tfail(t, "nothing to repeat (Python refuses it)");
			return 0;
		}
		if (escape(t, false, &c, &s))
			return -1;
		if (c < 0 ? emit_set(t, &s) : emit_literal(t, c))
			return -1;
		break;
	default:
		c = (unsigned char)*t->p;
		if (!printable(c))
			return tfail(t, "a byte outside printable ASCII in the pattern");
		t->p++;
		if (emit_literal(t, c))
			return -1;
	}
	return repeat(t, before);
}

static int alternation(struct tr *t)
{
	for (;;) {
		while (t->p < t->end && *t->p != '|' && *t->p != ')')
			if (piece(t))
				return -1;
		if (t->p >= t->end || *t->p != '|')
			return 0;
		t->p++;
		if (emit_c(t, '|'))
			return -1;
	}
}

int ima_exclude_translate(const char *re, size_t len, char *out,
			  size_t outlen, char *err, size_t errlen)
{
	struct tr t = { .start = re, .p = re, .end = re + len, .out = out,
			.cap = outlen, .err = err, .errlen = errlen };

	if (outlen < 8)
		return tfail(&t, "no room");
	out[0] = '\0';
	if (emit(&t, "^(", 2) || alternation(&t))
		return -1;
	if (t.p < t.end)	/* a ')' no group opened */
		return tfail(&t, "unbalanced parenthesis (Python refuses it)");
	return emit_c(&t, ')');
}

/* --- the set of patterns ---------------------------------------------- */

struct ima_excludes *ima_excludes_new(void)
{
	return calloc(1, sizeof(struct ima_excludes));
}

void ima_excludes_free(struct ima_excludes *x)
{
	size_t i;

	if (!x)
		return;
	for (i = 0; i < x->n; i++) {
		regfree(&x->e[i].re);
		free(x->e[i].pattern);
		free(x->e[i].source);
	}
	free(x->e);
	free(x);
}

int ima_excludes_add(struct ima_excludes *x, const char *re, size_t len,
		     const char *source, char *err, size_t errlen)
{
	char why[256], shown[80];
	struct excl *ne, *e;
	size_t cap = len * OUT_PER_BYTE + 16, i;
	char *ere;
	int rc;

	for (i = 0; i < len && i < sizeof(shown) - 4; i++)
		shown[i] = printable((unsigned char)re[i]) ? re[i] : '?';
	strcpy(shown + i, i < len ? "..." : "");
	if (x->n >= IMA_EXCLUDE_MAX || len > IMA_EXCLUDE_MAX_LEN) {
		snprintf(err, errlen, "%s: more than %d patterns, or one longer than %d bytes",
			 source, IMA_EXCLUDE_MAX, IMA_EXCLUDE_MAX_LEN);
		return -1;
	}
	ere = malloc(cap);
	if (!ere) {
		snprintf(err, errlen, "%s: out of memory", source);
		return -1;
	}
	if (ima_exclude_translate(re, len, ere, cap, why, sizeof(why))) {
		snprintf(err, errlen,
			 "%s: '%s': %s (refused: an exclude is never matched differently from Python's re.match)",
			 source, shown, why);
		free(ere);
		return -1;
	}
	ne = realloc(x->e, (x->n + 1) * sizeof(*ne));
	if (!ne) {
		free(ere);
		snprintf(err, errlen, "%s: out of memory", source);
		return -1;
	}
	x->e = ne;
	e = &x->e[x->n];
	rc = regcomp(&e->re, ere, REG_EXTENDED | REG_NOSUB);
	free(ere);
	if (rc) {
		regerror(rc, &e->re, why, sizeof(why));
		snprintf(err, errlen, "%s: '%s': %s", source, shown, why);
		return -1;
	}
	e->pattern = strndup(re, len);
	e->source = strdup(source);
	if (!e->pattern || !e->source) {
		regfree(&e->re);
		free(e->pattern);
		free(e->source);
		snprintf(err, errlen, "%s: out of memory", source);
		return -1;
	}
	x->n++;
	return 0;
}

size_t ima_excludes_count(const struct ima_excludes *x)
{
	return x ? x->n : 0;
}

const char *ima_excludes_pattern(const struct ima_excludes *x, size_t i)
{
	return x->e[i].pattern;
}

const char *ima_excludes_source(const struct ima_excludes *x, size_t i)
{
	return x->e[i].source;
}

int ima_excludes_match(const struct ima_excludes *x, const char *path,
		       size_t plen, size_t *which)
{
	char small[512], *s;
	size_t i;
	int rc = IMA_EXCLUDE_NO;

	if (!x || !x->n)
		return IMA_EXCLUDE_NO;
	for (i = 0; i < plen; i++)
		if (!printable((unsigned char)path[i]))
			return IMA_EXCLUDE_UNTESTED;
	s = plen < sizeof(small) ? small : malloc(plen + 1);
	if (!s)
		return IMA_EXCLUDE_NO;	/* judged: fail closed */
	memcpy(s, path, plen);
	s[plen] = '\0';
	for (i = 0; i < x->n; i++) {
		if (!regexec(&x->e[i].re, s, 0, NULL, 0)) {
			*which = i;
			rc = IMA_EXCLUDE_YES;
			break;
		}
	}
	if (s != small)
		free(s);
	return rc;
}
