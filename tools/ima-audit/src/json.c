// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON reader (ima_json.h): recursive descent over the whole text,
 * values in blocks that never move, strings decoded into one buffer no
 * longer than the text (a string never decodes longer than it is
 * written).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ima_audit.h"
#include "ima_json.h"
#include "ima_text.h"

#define BLOCK_VALUES 4096

struct ima_json_block {
	struct ima_json_block *next;
	size_t used;
	struct ima_json v[BLOCK_VALUES];
};

struct parser {
	const char *p, *end;
	char *out;			/* next free byte of doc->strings */
	unsigned long line;
	struct ima_json_doc *doc;
	const char *what;
	char *err;
	size_t errlen;
};

/* "WHAT:LINE: message" for the line ps is on; -1 */
#define fail(ps, ...)							\
	ima_line_error((ps)->err, (ps)->errlen, (ps)->what, (ps)->line,	\
		       __VA_ARGS__)

const char *ima_json_type_name(enum ima_json_type type)
{
	switch (type) {
	case IMA_JSON_NULL:
		return "null";
	case IMA_JSON_FALSE:
	case IMA_JSON_TRUE:
		return "a boolean";
	case IMA_JSON_NUMBER:
		return "a number";
	case IMA_JSON_STRING:
		return "a string";
	case IMA_JSON_ARRAY:
		return "an array";
	case IMA_JSON_OBJECT:
		return "an object";
	}
	return "a value";
}

static struct ima_json *new_value(struct parser *ps, enum ima_json_type t)
{
	struct ima_json_doc *doc = ps->doc;
	struct ima_json_block *b = doc->blocks;
	struct ima_json *v;

	if (doc->nvalues >= IMA_JSON_MAX_VALUES) {
		fail(ps, "more than %u JSON values", IMA_JSON_MAX_VALUES);
		return NULL;
	}
	if (!b || b->used == BLOCK_VALUES) {
		b = malloc(sizeof(*b));
		if (!b) {
			fail(ps, "out of memory");
			return NULL;
		}
		b->next = doc->blocks;
		b->used = 0;
		doc->blocks = b;
	}
	v = &b->v[b->used++];
	doc->nvalues++;
	memset(v, 0, sizeof(*v));
	v->type = t;
	v->line = ps->line;
	return v;
}

static void blanks(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\r' || *ps->p == '\n')) {
		if (*ps->p == '\n')
			ps->line++;
		ps->p++;
	}
}

/* four hex digits (a \u escape) */
static int hex4(const char *p, unsigned int *out)
{
	uint8_t b[2];

	if (ima_hex2bin(p, 4, b, 2) != 2)
		return -1;
	*out = (unsigned int)b[0] << 8 | b[1];
	return 0;
}

static char *put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | cp >> 12);
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | cp >> 18);
		*o++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* A string at ps->p (its '"'), decoded into doc->strings. */
static int string(struct parser *ps, const char **s, size_t *n)
{
	char *o = ps->out;
	unsigned int u, lo;
	size_t k;

	if (ps->p >= ps->end || *ps->p != '"')
		return fail(ps, "expected a JSON string");
	*s = o;
	ps->p++;
	for (;;) {
		unsigned char c;

		if (ps->p >= ps->end)
			return fail(ps, "unterminated JSON string");
		c = (unsigned char)*ps->p;
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(ps, "control character 0x%02x in a JSON string (write it as \\u%04x)",
				    c, c);
		if (c >= 0x80) {
			k = ima_utf8_len((const unsigned char *)ps->p,
					 (size_t)(ps->end - ps->p));
			if (!k)
				return fail(ps, "byte 0x%02x in a JSON string is not UTF-8",
					    c);
			memcpy(o, ps->p, k);
			o += k;
			ps->p += k;
			continue;
		}
		if (c != '\\') {
			*o++ = (char)c;
			ps->p++;
			continue;
		}
		if (ps->end - ps->p < 2)
			return fail(ps, "unterminated JSON string");
		switch (ps->p[1]) {
		case '"':
		case '\\':
		case '/':
			*o++ = ps->p[1];
			break;
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'u':
			if (ps->end - ps->p < 6 || hex4(ps->p + 2, &u))
				return fail(ps, "bad \\u escape in a JSON string");
			if (u >= 0xdc00 && u <= 0xdfff)
				return fail(ps, "lone surrogate \\u%04x in a JSON string: no character (a byte Python could not decode?)",
					    u);
			if (u >= 0xd800 && u <= 0xdbff) {
				if (ps->end - ps->p < 12 || ps->p[6] != '\\' ||
				    ps->p[7] != 'u' || hex4(ps->p + 8, &lo) ||
				    lo < 0xdc00 || lo > 0xdfff)
					return fail(ps, "lone surrogate \\u%04x in a JSON string: no character (a byte Python could not decode?)",
						    u);
				o = put_utf8(o, 0x10000 + ((u - 0xd800) << 10) +
					     (lo - 0xdc00));
				ps->p += 12;
				continue;
			}
			o = put_utf8(o, u);
			ps->p += 6;
			continue;
		default:
			return fail(ps, "bad escape '\\%c' in a JSON string",
				    ps->p[1] >= 0x20 && ps->p[1] < 0x7f ?
				    ps->p[1] : '?');
		}
		ps->p += 2;
	}
	ps->p++;
	*n = (size_t)(o - *s);
	*o++ = '\0';
	ps->out = o;
	return 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* RFC 8259's number; an integer that fits long long keeps its value. */
static int number(struct parser *ps, struct ima_json *v)
{
	const char *s = ps->p, *p = ps->p;
	bool frac = false;
	long long x = 0;
	bool fits = true;

	if (p < ps->end && *p == '-')
		p++;
	if (p >= ps->end || !is_digit(*p))
		return fail(ps, "not a JSON value");
	if (*p == '0' && p + 1 < ps->end && is_digit(p[1]))
		return fail(ps, "a JSON number with a leading zero");
	for (; p < ps->end && is_digit(*p); p++) {
		int d = *p - '0';

		if (x > (LLONG_MAX - d) / 10)
			fits = false;
		else
			x = x * 10 + d;
	}
	if (p < ps->end && *p == '.') {
		frac = true;
		if (++p >= ps->end || !is_digit(*p))
			return fail(ps, "a JSON number without digits after '.'");
		while (p < ps->end && is_digit(*p))
			p++;
	}
	if (p < ps->end && (*p == 'e' || *p == 'E')) {
		frac = true;
		p++;
		if (p < ps->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= ps->end || !is_digit(*p))
			return fail(ps, "a JSON number without an exponent");
		while (p < ps->end && is_digit(*p))
			p++;
	}
	v->integer = !frac && fits;
	v->ival = *s == '-' ? -x : x;
	ps->p = p;
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	const struct ima_json *x = *(const struct ima_json *const *)a;
	const struct ima_json *y = *(const struct ima_json *const *)b;
	size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
	int c = memcmp(x->key, y->key, n);

	if (c)
		return c;
	return x->key_len < y->key_len ? -1 : x->key_len > y->key_len;
}

/* Two members with one name: the readers of the file would disagree. */
static int unique_keys(struct parser *ps, const struct ima_json *obj)
{
	const struct ima_json **m, *v;
	char shown[IMA_REASON_MAX];
	size_t i = 0;
	int rc = 0;

	if (obj->count < 2)
		return 0;
	m = malloc(obj->count * sizeof(*m));
	if (!m)
		return fail(ps, "out of memory");
	for (v = obj->child; v; v = v->next)
		m[i++] = v;
	qsort(m, obj->count, sizeof(*m), cmp_key);
	for (i = 1; i < obj->count; i++) {
		if (cmp_key(&m[i - 1], &m[i]))
			continue;
		ima_escape(shown, 200, m[i]->key, m[i]->key_len);
		ps->line = m[i]->line > m[i - 1]->line ? m[i]->line :
			   m[i - 1]->line;
		rc = fail(ps, "duplicate key '%s' in a JSON object (lines %lu and %lu): which one counts is up to the reader",
			  shown, m[i - 1]->line < m[i]->line ?
			  m[i - 1]->line : m[i]->line, ps->line);
		break;
	}
	free(m);
	return rc;
}

static int value(struct parser *ps, int depth, struct ima_json **out);

/* An array or an object: its values, linked in order. */
static int container(struct parser *ps, int depth, struct ima_json *c)
{
	char close = c->type == IMA_JSON_OBJECT ? '}' : ']';
	struct ima_json **tail = &c->child, *v;
	const char *key = NULL;
	size_t key_len = 0;
	unsigned long key_line = 0;

	if (depth >= IMA_JSON_MAX_DEPTH)
		return fail(ps, "JSON nested too deep (more than %d levels)",
			    IMA_JSON_MAX_DEPTH);
	ps->p++;
	blanks(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		blanks(ps);
		if (c->type == IMA_JSON_OBJECT) {
			key_line = ps->line;
			if (string(ps, &key, &key_len))
				return -1;
			blanks(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return fail(ps, "expected ':' in a JSON object");
			ps->p++;
		}
		if (value(ps, depth + 1, &v))
			return -1;
		if (key) {
			v->key = key;
			v->key_len = key_len;
			v->line = key_line;
		}
		*tail = v;
		tail = &v->next;
		c->count++;
		blanks(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			break;
		}
		return fail(ps, ps->p < ps->end ?
			    "expected ',' or the end of a JSON container" :
			    "JSON ends early");
	}
	return c->type == IMA_JSON_OBJECT ? unique_keys(ps, c) : 0;
}

static int value(struct parser *ps, int depth, struct ima_json **out)
{
	static const struct {
		const char *word;
		enum ima_json_type type;
	} words[] = {
		{ "null", IMA_JSON_NULL },
		{ "false", IMA_JSON_FALSE },
		{ "true", IMA_JSON_TRUE },
	};
	struct ima_json *v;
	size_t i, n;

	blanks(ps);
	if (ps->p >= ps->end)
		return fail(ps, "JSON ends early");
	switch (*ps->p) {
	case '{':
	case '[':
		v = new_value(ps, *ps->p == '{' ? IMA_JSON_OBJECT :
			      IMA_JSON_ARRAY);
		*out = v;
		return v ? container(ps, depth, v) : -1;
	case '"':
		v = new_value(ps, IMA_JSON_STRING);
		*out = v;
		return v ? string(ps, &v->str, &v->len) : -1;
	}
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i].word);
		if ((size_t)(ps->end - ps->p) >= n &&
		    !memcmp(ps->p, words[i].word, n)) {
			ps->p += n;
			*out = new_value(ps, words[i].type);
			return *out ? 0 : -1;
		}
	}
	v = new_value(ps, IMA_JSON_NUMBER);
	*out = v;
	return v ? number(ps, v) : -1;
}

void ima_json_free(struct ima_json_doc *doc)
{
	struct ima_json_block *b = doc->blocks, *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
	free(doc->strings);
	memset(doc, 0, sizeof(*doc));
}

int ima_json_parse(struct ima_json_doc *doc, const char *text, size_t len,
		   const char *what, char *err, size_t errlen)
{
	struct parser ps = { .p = text, .end = text + len, .line = 1,
			     .doc = doc, .what = what, .err = err,
			     .errlen = errlen };
	struct ima_json *root;

	memset(doc, 0, sizeof(*doc));
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		return fail(&ps, "a byte order mark before the JSON text (RFC 8259 forbids one): remove it");
	doc->strings = malloc(len + 1);
	if (!doc->strings)
		return fail(&ps, "out of memory");
	ps.out = doc->strings;
	if (value(&ps, 0, &root))
		goto fail;
	blanks(&ps);
	if (ps.p != ps.end) {
		fail(&ps, "bytes after the JSON %s",
		     root->type == IMA_JSON_OBJECT ? "object" : "value");
		goto fail;
	}
	doc->root = root;
	return 0;
fail:
	ima_json_free(doc);
	return -1;
}

const struct ima_json *ima_json_member(const struct ima_json *obj,
				       const char *key)
{
	size_t n = strlen(key);
	const struct ima_json *v;

	if (!obj || obj->type != IMA_JSON_OBJECT)
		return NULL;
	for (v = obj->child; v; v = v->next)
		if (v->key_len == n && !memcmp(v->key, key, n))
			return v;
	return NULL;
}
