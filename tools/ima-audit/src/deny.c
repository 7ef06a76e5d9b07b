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

#include "ima_audit.h"
#include "ima_deny.h"
#include "ima_json.h"
#include "ima_keylime.h"
#include "ima_sumline.h"
#include "ima_text.h"

#define MAX_DENY_FILE	(64u << 20)

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

static int add(struct ima_denylist *d, const struct ima_hash_algo *alg,
	       const uint8_t *digest, unsigned long line)
{
	struct deny_entry *e;

	e = ima_reserve(d->e, &d->cap, d->n, sizeof(*e));
	if (!e)
		return -1;
	d->e = e;
	e = &d->e[d->n];
	memcpy(e->digest, digest, alg->size);
	e->alg = alg->id;
	e->len = alg->size;
	e->line = line;
	d->algs |= 1u << alg->id;
	d->n++;
	return 0;
}

/* sha256sum lines (ima_sumline.h); the paths are not read */
static int parse_lines(struct ima_denylist *d, const char *text, size_t len,
		       const char *what, char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	char why[IMA_REASON_MAX], *path;
	unsigned long line = 0;
	struct ima_sumline sl;
	int rc = 0;

	path = malloc(len + 1);
	if (!path)
		return ima_line_error(err, errlen, what, 0, "out of memory");
	while (p < end && !rc) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		line++;
		switch (ima_sumline_parse(p, (size_t)(eol - p), IMA_SUM_CRLF,
					  &sl, path, why, sizeof(why))) {
		case IMA_SUM_ERROR:
			rc = ima_line_error(err, errlen, what, line, "%s", why);
			break;
		case IMA_SUM_ENTRY:
			if (add(d, sl.alg, sl.digest, line))
				rc = ima_line_error(err, errlen, what, line,
					  "out of memory");
			break;
		}
		p = nl ? nl + 1 : end;
	}
	free(path);
	return rc;
}

static int json_digest(void *d, const struct ima_json *name,
		       const struct ima_hash_algo *alg, const uint8_t *digest,
		       unsigned long line, char *why, size_t whylen)
{
	(void)name;
	if (add(d, alg, digest, line)) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	return 0;
}

/*
 * A Keylime runtime policy (JSON): the digests of its "digests" object are
 * denied, read by the policy's own rule (ima_keylime_digests); nothing
 * else of it is read here.
 */
static int parse_json(struct ima_denylist *d, const char *text, size_t len,
		      const char *what, char *err, size_t errlen)
{
	struct ima_json_doc doc;
	const struct ima_json *digests;
	int rc;

	if (ima_json_parse(&doc, text, len, what, err, errlen))
		return -1;
	digests = ima_json_member(doc.root, "digests");
	if (!digests)
		rc = ima_line_error(err, errlen, what, doc.root->line,
			  "no \"digests\" object (a Keylime runtime policy's)");
	else
		rc = ima_keylime_digests(digests, "digests", json_digest, d,
					 what, err, errlen);
	ima_json_free(&doc);
	return rc;
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
	size_t n;
	char *buf = ima_read_file(path, MAX_DENY_FILE, &n, err, errlen);
	int rc = -1;

	if (!buf)
		return -1;
	free(d->name);
	d->name = strdup(path);
	if (!d->name) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	rc = ima_deny_parse(d, buf, n, path, err, errlen);
out:
	free(buf);
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
