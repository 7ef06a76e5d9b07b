// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reference manifest: open-addressing hash table keyed by path, each
 * path with a chain of (algorithm, digest) pairs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ima_manifest.h"

struct mf_digest {
	int32_t next;
	uint8_t alg;
	uint8_t len;
	uint8_t d[IMA_MAX_DIGEST];
};

struct mf_path {
	uint64_t hash;
	char *path;		/* NULL: empty slot */
	uint32_t len;
	int32_t first;		/* index into digests */
};

struct ima_manifest {
	struct mf_path *slots;
	size_t nslots, npaths;
	struct mf_digest *digests;
	size_t ndigests, cap;
	char **blocks;		/* path storage */
	size_t nblocks;
	char *block;
	size_t block_left;
};

static uint64_t fnv1a(const char *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (len--) {
		h ^= (unsigned char)*p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

struct ima_manifest *ima_manifest_new(void)
{
	struct ima_manifest *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->nslots = 1024;
	m->slots = calloc(m->nslots, sizeof(*m->slots));
	if (!m->slots) {
		free(m);
		return NULL;
	}
	return m;
}

void ima_manifest_free(struct ima_manifest *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nblocks; i++)
		free(m->blocks[i]);
	free(m->blocks);
	free(m->slots);
	free(m->digests);
	free(m);
}

size_t ima_manifest_paths(const struct ima_manifest *m)
{
	return m->npaths;
}

static struct mf_path *find(const struct ima_manifest *m, const char *path,
			    size_t len, uint64_t h)
{
	size_t i = h & (m->nslots - 1);

	for (;;) {
		struct mf_path *s = &m->slots[i];

		if (!s->path || (s->hash == h && s->len == len &&
				 !memcmp(s->path, path, len)))
			return s;
		i = (i + 1) & (m->nslots - 1);
	}
}

static int grow(struct ima_manifest *m)
{
	struct mf_path *old = m->slots;
	size_t i, n = m->nslots;

	m->nslots *= 2;
	m->slots = calloc(m->nslots, sizeof(*m->slots));
	if (!m->slots) {
		m->slots = old;
		m->nslots = n;
		return -1;
	}
	for (i = 0; i < n; i++)
		if (old[i].path)
			*find(m, old[i].path, old[i].len, old[i].hash) = old[i];
	free(old);
	return 0;
}

static char *store(struct ima_manifest *m, const char *p, size_t len)
{
	char *s;

	if (m->block_left < len + 1) {
		size_t sz = len + 1 > (64u << 10) ? len + 1 : (64u << 10);
		char **nb = realloc(m->blocks,
				    (m->nblocks + 1) * sizeof(*nb));

		if (!nb)
			return NULL;
		m->blocks = nb;
		m->block = malloc(sz);
		if (!m->block)
			return NULL;
		m->blocks[m->nblocks++] = m->block;
		m->block_left = sz;
	}
	s = m->block;
	memcpy(s, p, len);
	s[len] = '\0';
	m->block += len + 1;
	m->block_left -= len + 1;
	return s;
}

static int add(struct ima_manifest *m, const char *path, size_t plen,
	       const struct ima_hash_algo *alg, const uint8_t *d)
{
	uint64_t h = fnv1a(path, plen);
	struct mf_path *s;
	struct mf_digest *md;

	if ((m->npaths + 1) * 4 > m->nslots * 3 && grow(m))
		return -1;
	if (m->ndigests == m->cap) {
		size_t ncap = m->cap ? 2 * m->cap : 1024;
		struct mf_digest *nd = realloc(m->digests,
					       ncap * sizeof(*nd));

		if (!nd)
			return -1;
		m->digests = nd;
		m->cap = ncap;
	}
	s = find(m, path, plen, h);
	if (!s->path) {
		s->path = store(m, path, plen);
		if (!s->path)
			return -1;
		s->hash = h;
		s->len = (uint32_t)plen;
		s->first = -1;
		m->npaths++;
	}
	md = &m->digests[m->ndigests];
	md->alg = (uint8_t)alg->id;
	md->len = (uint8_t)alg->size;
	memcpy(md->d, d, alg->size);
	md->next = s->first;
	s->first = (int32_t)m->ndigests++;
	return 0;
}

/* sha256sum escapes '\\' and '\n' in names and marks such lines with '\' */
static size_t unescape(char *dst, const char *src, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (src[i] == '\\' && i + 1 < len) {
			i++;
			dst[n++] = src[i] == 'n' ? '\n' : src[i];
		} else {
			dst[n++] = src[i];
		}
	}
	return n;
}

static int parse_line(struct ima_manifest *m, const char *p, const char *end,
		      const char *what, unsigned int line, char *err,
		      size_t errlen)
{
	const struct ima_hash_algo *alg = NULL;
	const char *tok, *colon, *hex;
	uint8_t d[IMA_MAX_DIGEST];
	bool escaped = false;
	char *path = NULL;
	size_t plen;
	int n, rc = -1;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p == '#')
		return 0;
	if (*p == '\\') {
		escaped = true;
		p++;
	}
	tok = p;
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	colon = memchr(tok, ':', (size_t)(p - tok));
	hex = colon ? colon + 1 : tok;
	if (colon) {
		alg = ima_hash_by_name(tok, (size_t)(colon - tok));
		if (!alg) {
			snprintf(err, errlen, "%s:%u: unknown algorithm '%.*s'",
				 what, line, (int)(colon - tok), tok);
			return -1;
		}
	} else {
		alg = ima_hash_by_size((unsigned int)(p - hex) / 2);
	}
	n = ima_hex2bin(hex, (size_t)(p - hex), d, sizeof(d));
	if (!alg || n != (int)alg->size) {
		snprintf(err, errlen, "%s:%u: bad digest '%.*s'", what, line,
			 (int)(p - tok) > 80 ? 80 : (int)(p - tok), tok);
		return -1;
	}
	if (p < end)
		p++;
	if (p < end && (*p == ' ' || *p == '*'))
		p++;
	plen = (size_t)(end - p);
	if (plen && p[plen - 1] == '\r')
		plen--;
	if (!plen) {
		snprintf(err, errlen, "%s:%u: missing path", what, line);
		return -1;
	}
	if (escaped) {
		path = malloc(plen);
		if (!path)
			goto oom;
		plen = unescape(path, p, plen);
		p = path;
	}
	if (add(m, p, plen, alg, d))
		goto oom;
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "%s:%u: out of memory", what, line);
out:
	free(path);
	return rc;
}

int ima_manifest_parse(struct ima_manifest *m, const char *text, size_t len,
		       const char *what, char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	unsigned int line = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		line++;
		if (parse_line(m, p, eol, what, line, err, errlen))
			return -1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

int ima_manifest_load(struct ima_manifest *m, const char *path, char *err,
		      size_t errlen)
{
	char buf[8192];
	unsigned int line = 0;
	FILE *f = fopen(path, "r");
	int rc = -1;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		size_t len = strlen(buf);

		line++;
		if (len == sizeof(buf) - 1 && buf[len - 1] != '\n') {
			snprintf(err, errlen, "%s:%u: line too long", path,
				 line);
			goto out;
		}
		if (len && buf[len - 1] == '\n')
			len--;
		if (parse_line(m, buf, buf + len, path, line, err, errlen))
			goto out;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		goto out;
	}
	rc = 0;
out:
	fclose(f);
	return rc;
}

int ima_manifest_check(const struct ima_manifest *m, const char *path,
		       size_t plen, const struct ima_hash_algo *alg,
		       const uint8_t *digest, size_t dlen)
{
	const struct mf_path *s = find(m, path, plen, fnv1a(path, plen));
	int rc = IMA_MF_NO_ALGO;
	int32_t i;

	if (!s->path)
		return IMA_MF_UNKNOWN_PATH;
	for (i = s->first; i >= 0; i = m->digests[i].next) {
		const struct mf_digest *d = &m->digests[i];

		if (d->alg != alg->id)
			continue;
		if (d->len == dlen && !memcmp(d->d, digest, dlen))
			return IMA_MF_MATCH;
		rc = IMA_MF_WRONG_DIGEST;
	}
	return rc;
}
