// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reference manifest: open-addressing hash table keyed by path, each
 * path with a chain of (algorithm, digest) pairs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ima_audit.h"
#include "ima_manifest.h"
#include "ima_sumline.h"

#define MF_LINE_MAX	8192		/* longest line ima_manifest_load takes */
#define MF_CHUNK	(256u << 10)	/* read() size */
#define MF_BLOCK	(256u << 10)	/* path and digest storage block */

/* A digest of a path; the bytes live in the storage blocks. */
struct mf_digest {
	const uint8_t *d;
	int32_t next;
	uint8_t alg;
	uint8_t len;
};

struct mf_path {
	const char *path;	/* in the storage blocks, NUL-terminated */
	uint32_t len;
	int32_t first;		/* index into digests */
};

/*
 * Table slot: idx 0 is empty, else path index + 1; hash is the high 32
 * bits of path_hash(), which also pick the slot (so growing the table
 * does not touch the paths).
 */
struct mf_slot {
	uint32_t hash;
	uint32_t idx;
};

struct ima_manifest {
	struct mf_slot *slots;
	size_t nslots;
	struct mf_path *paths;
	size_t npaths, cap_paths;
	struct mf_digest *digests;
	size_t ndigests, cap_digests;
	char **blocks;		/* storage */
	size_t nblocks;
	char *block;
	size_t block_left;
};

/* Word-at-a-time multiply/xor-shift hash (paths are ~10-100 bytes). */
static uint64_t path_hash(const char *p, size_t len)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	uint64_t h = 0x243f6a8885a308d3ull ^ (len * k);
	uint64_t w;

	while (len >= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * k;
		h ^= h >> 29;
		p += 8;
		len -= 8;
	}
	w = 0;
	memcpy(&w, p, len);
	h = (h ^ w) * k;
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	h ^= h >> 32;
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
	free(m->paths);
	free(m->digests);
	free(m);
}

size_t ima_manifest_paths(const struct ima_manifest *m)
{
	return m->npaths;
}

/* The slot holding path, or the empty slot where it would go. */
static struct mf_slot *find(const struct ima_manifest *m, const char *path,
			    size_t len, uint64_t h)
{
	uint32_t h32 = (uint32_t)(h >> 32);
	size_t mask = m->nslots - 1, i = h32 & mask;

	for (;;) {
		struct mf_slot *s = &m->slots[i];
		const struct mf_path *mp;

		if (!s->idx)
			return s;
		mp = &m->paths[s->idx - 1];
		if (s->hash == h32 && mp->len == len &&
		    !memcmp(mp->path, path, len))
			return s;
		i = (i + 1) & mask;
	}
}

static int grow(struct ima_manifest *m)
{
	struct mf_slot *old = m->slots;
	size_t i, n = m->nslots, mask;

	m->nslots *= 2;
	mask = m->nslots - 1;
	m->slots = calloc(m->nslots, sizeof(*m->slots));
	if (!m->slots) {
		m->slots = old;
		m->nslots = n;
		return -1;
	}
	for (i = 0; i < n; i++) {
		size_t j = old[i].hash & mask;

		if (!old[i].idx)
			continue;
		while (m->slots[j].idx)
			j = (j + 1) & mask;
		m->slots[j] = old[i];
	}
	free(old);
	return 0;
}

static void *store(struct ima_manifest *m, const void *p, size_t len,
		   bool nul)
{
	size_t need = len + (nul ? 1 : 0);
	char *s;

	if (m->block_left < need) {
		size_t sz = need > MF_BLOCK ? need : MF_BLOCK;
		char **nb = realloc(m->blocks,
				    (m->nblocks + 1) * sizeof(*nb));

		if (!nb)
			return NULL;
		m->blocks = nb;
		m->block = malloc(sz);
		if (!m->block) {
			m->block_left = 0;
			return NULL;
		}
		m->blocks[m->nblocks++] = m->block;
		m->block_left = sz;
	}
	s = m->block;
	memcpy(s, p, len);
	if (nul)
		s[len] = '\0';
	m->block += need;
	m->block_left -= need;
	return s;
}

static int add(struct ima_manifest *m, const char *path, size_t plen,
	       const struct ima_hash_algo *alg, const uint8_t *d)
{
	uint64_t h = path_hash(path, plen);
	struct mf_digest *md;
	struct mf_path *mp;
	struct mf_slot *s;

	if (plen > UINT32_MAX || m->npaths >= INT32_MAX - 1 ||
	    m->ndigests >= INT32_MAX - 1)
		return -1;
	if ((m->npaths + 1) * 4 > m->nslots * 3 && grow(m))
		return -1;
	md = ima_reserve(m->digests, &m->cap_digests, m->ndigests,
			 sizeof(*md));
	if (!md)
		return -1;
	m->digests = md;
	mp = ima_reserve(m->paths, &m->cap_paths, m->npaths, sizeof(*mp));
	if (!mp)
		return -1;
	m->paths = mp;
	s = find(m, path, plen, h);
	if (!s->idx) {
		mp = &m->paths[m->npaths];
		mp->path = store(m, path, plen, true);
		if (!mp->path)
			return -1;
		mp->len = (uint32_t)plen;
		mp->first = -1;
		s->hash = (uint32_t)(h >> 32);
		m->npaths++;
		s->idx = (uint32_t)m->npaths;
	}
	mp = &m->paths[s->idx - 1];
	md = &m->digests[m->ndigests];
	md->d = store(m, d, alg->size, false);
	if (!md->d)
		return -1;
	md->alg = (uint8_t)alg->id;
	md->len = (uint8_t)alg->size;
	md->next = mp->first;
	mp->first = (int32_t)m->ndigests++;
	return 0;
}

int ima_manifest_add(struct ima_manifest *m, const char *path, size_t plen,
		     const struct ima_hash_algo *alg, const uint8_t *digest)
{
	return add(m, path, plen, alg, digest);
}

/* One line: an entry, nothing (blank, '#'), or an error naming the line. */
static int parse_line(struct ima_manifest *m, const char *p, const char *end,
		      const char *what, unsigned int line, char *err,
		      size_t errlen)
{
	struct ima_sumline sl;
	char why[IMA_REASON_MAX], small[MF_LINE_MAX];
	char *path = (size_t)(end - p) <= sizeof(small) ? small :
		     malloc((size_t)(end - p));
	int rc;

	if (!path) {
		snprintf(err, errlen, "%s:%u: out of memory", what, line);
		return -1;
	}
	rc = ima_sumline_parse(p, (size_t)(end - p), IMA_SUM_NEED_PATH, &sl,
			       path, why, sizeof(why));
	if (rc == IMA_SUM_ERROR) {
		snprintf(err, errlen, "%s:%u: %s", what, line, why);
	} else if (rc == IMA_SUM_ENTRY &&
		   add(m, sl.path, sl.path_len, sl.alg, sl.digest)) {
		snprintf(err, errlen, "%s:%u: out of memory", what, line);
		rc = IMA_SUM_ERROR;
	}
	if (path != small)
		free(path);
	return rc == IMA_SUM_ERROR ? -1 : 0;
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

/* One line of a file being loaded: as fgets() + strlen() saw it. */
static int load_line(struct ima_manifest *m, const char *p, const char *eol,
		     const char *path, unsigned int line, char *err,
		     size_t errlen)
{
	const char *nul;

	if (eol - p > MF_LINE_MAX - 2) {
		snprintf(err, errlen, "%s:%u: line too long", path, line);
		return -1;
	}
	nul = memchr(p, '\0', (size_t)(eol - p));
	return parse_line(m, p, nul ? nul : eol, path, line, err, errlen);
}

/*
 * Reads MF_CHUNK bytes at a time and parses the complete lines in place;
 * an unfinished line (at most MF_LINE_MAX bytes) moves to the front.
 */
int ima_manifest_load(struct ima_manifest *m, const char *path, char *err,
		      size_t errlen)
{
	size_t cap = MF_CHUNK + MF_LINE_MAX, have = 0;
	unsigned int line = 0;
	bool eof = false;
	char *buf = NULL;
	int fd, rc = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf = malloc(cap);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	while (!eof) {
		const char *p = buf, *end, *nl;
		ssize_t got = read(fd, buf + have, cap - have);

		if (got < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "%s: read error", path);
			goto out;
		}
		if (!got)
			eof = true;
		have += (size_t)got;
		end = buf + have;
		while (p < end) {
			nl = memchr(p, '\n', (size_t)(end - p));
			if (!nl && !eof)
				break;
			line++;
			if (load_line(m, p, nl ? nl : end, path, line, err,
				      errlen))
				goto out;
			p = nl ? nl + 1 : end;
		}
		have = (size_t)(end - p);
		if (have >= MF_LINE_MAX - 1) {
			snprintf(err, errlen, "%s:%u: line too long", path,
				 line + 1);
			goto out;
		}
		memmove(buf, p, have);
	}
	rc = 0;
out:
	free(buf);
	close(fd);
	return rc;
}

void ima_manifest_prefetch(const struct ima_manifest *m, const char *path,
			   size_t plen)
{
	uint32_t h32 = (uint32_t)(path_hash(path, plen) >> 32);

	__builtin_prefetch(&m->slots[h32 & (m->nslots - 1)]);
}

int ima_manifest_check(const struct ima_manifest *m, const char *path,
		       size_t plen, const struct ima_hash_algo *alg,
		       const uint8_t *digest, size_t dlen)
{
	const struct mf_slot *s = find(m, path, plen, path_hash(path, plen));
	int rc = IMA_MF_NO_ALGO;
	int32_t i;

	if (!s->idx)
		return IMA_MF_UNKNOWN_PATH;
	for (i = m->paths[s->idx - 1].first; i >= 0;
	     i = m->digests[i].next) {
		const struct mf_digest *d = &m->digests[i];

		if (d->alg != alg->id)
			continue;
		if (d->len == dlen && !memcmp(d->d, digest, dlen))
			return IMA_MF_MATCH;
		rc = IMA_MF_WRONG_DIGEST;
	}
	return rc;
}

size_t ima_manifest_listed(const struct ima_manifest *m, const char *path,
			   size_t plen, const struct ima_hash_algo *alg,
			   char *out, size_t outlen)
{
	const struct mf_slot *s = find(m, path, plen, path_hash(path, plen));
	size_t n = 0, used = 0;
	int32_t i;

	if (outlen)
		out[0] = '\0';
	if (!s->idx)
		return 0;
	for (i = m->paths[s->idx - 1].first; i >= 0;
	     i = m->digests[i].next) {
		const struct mf_digest *d = &m->digests[i];
		const struct ima_hash_algo *da = ima_hash_by_id(d->alg);
		size_t need;

		if (!da || (alg && d->alg != alg->id))
			continue;
		n++;
		need = (used ? 2 : 0) + strlen(da->name) + 1 + 2u * d->len;
		if (used + need + 1 > outlen)
			continue;	/* counted, not shown */
		used += (size_t)snprintf(out + used, outlen - used, "%s%s:",
					 used ? ", " : "", da->name);
		ima_bin2hex(d->d, d->len, out + used);
		used += 2u * d->len;
	}
	return n;
}
