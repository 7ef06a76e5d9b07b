// SPDX-License-Identifier: GPL-2.0-only
/*
 * Streaming parser for binary_runtime_measurements. Reads in bounded
 * chunks, keeps at most one record in memory, bounds-checks every length.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ima_ascii.h"
#include "ima_hash.h"
#include "ima_log.h"
#include "ima_sig.h"

/* pcr, template digest, name len */
#define HDR_LEN(r)	(4 + (size_t)(r)->digest_len + 4)
#define DEFAULT_CHUNK	(64u << 10)

static const struct {
	const char *id;
	enum ima_field_id field;
} fields[] = {
	{ "d", IMA_F_D },
	{ "n", IMA_F_N },
	{ "d-ng", IMA_F_D_NG },
	{ "d-ngv2", IMA_F_D_NGV2 },
	{ "n-ng", IMA_F_N_NG },
	{ "sig", IMA_F_SIG },
	{ "buf", IMA_F_BUF },
	{ "d-modsig", IMA_F_D_MODSIG },
	{ "modsig", IMA_F_MODSIG },
	{ "evmsig", IMA_F_EVMSIG },
	{ "xattrnames", IMA_F_XATTRNAMES },
	{ "xattrlengths", IMA_F_XATTRLENGTHS },
	{ "xattrvalues", IMA_F_XATTRVALUES },
	{ "iuid", IMA_F_IUID },
	{ "igid", IMA_F_IGID },
	{ "imode", IMA_F_IMODE },
};

/* security/integrity/ima/ima_template.c: builtin_templates[] */
static const struct {
	const char *name;
	const char *fmt;
} builtins[] = {
	{ "ima", "d|n" },
	{ "ima-ng", "d-ng|n-ng" },
	{ "ima-sig", "d-ng|n-ng|sig" },
	{ "ima-ngv2", "d-ngv2|n-ng" },
	{ "ima-sigv2", "d-ngv2|n-ng|sig" },
	{ "ima-buf", "d-ng|n-ng|buf" },
	{ "ima-modsig", "d-ng|n-ng|sig|d-modsig|modsig" },
	{ "evm-sig",
	  "d-ng|n-ng|evmsig|xattrnames|xattrlengths|xattrvalues|iuid|igid|imode" },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *ima_field_name(enum ima_field_id id)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (fields[i].field == id)
			return fields[i].id;
	return "?";
}

static bool parse_fmt(const char *fmt, struct ima_template *t)
{
	const char *p = fmt;

	t->nfields = 0;
	t->known = true;
	while (*p) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		size_t i;

		if (!len || t->nfields == IMA_MAX_FIELDS)
			return false;
		for (i = 0; i < ARRAY_SIZE(fields); i++)
			if (strlen(fields[i].id) == len &&
			    !memcmp(fields[i].id, p, len))
				break;
		if (i == ARRAY_SIZE(fields))
			return false;
		t->ids[t->nfields++] = fields[i].field;
		p += len;
		if (bar && !*++p)
			return false;
	}
	return t->nfields > 0;
}

bool ima_template_lookup(const char *name, struct ima_template *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < ARRAY_SIZE(builtins); i++) {
		if (!strcmp(name, builtins[i].name)) {
			parse_fmt(builtins[i].fmt, t);
			t->legacy = (i == 0);
			return true;
		}
	}
	/* A custom template is logged under its format string. */
	if (parse_fmt(name, t)) {
		/* "d|n" outside the "ima" name is not the legacy layout */
		return true;
	}
	memset(t, 0, sizeof(*t));
	return false;
}

int ima_record_field(const struct ima_record *rec, enum ima_field_id id)
{
	int i;

	for (i = 0; i < rec->nfields; i++)
		if (rec->fields[i].id == id)
			return i;
	return -1;
}

/* Field f read as a digest: d-ng/d-ngv2/d-modsig, or the legacy d. */
static bool digest_reading(const uint8_t *f, uint32_t len,
			   const struct ima_hash_algo **alg,
			   const uint8_t **dig, uint32_t *dlen)
{
	const char *algo;
	size_t algo_len;

	if (!ima_split_digest_field(f, len, NULL, &algo, &algo_len, dig,
				    dlen)) {
		*alg = ima_hash_by_name(algo, algo_len);
		return *alg && *dlen == (*alg)->size;
	}
	/* d: the digest alone, sha1 (or md5, ima_hash=md5) */
	*alg = len == 20 ? ima_hash_by_name("sha1", 4) :
	       len == 16 ? ima_hash_by_name("md5", 3) : NULL;
	*dig = f;
	*dlen = len;
	return *alg;
}

/* Field f read as a name: its only NUL ends it (n-ng, n). */
static bool name_reading(const uint8_t *f, uint32_t len)
{
	return len && f[len - 1] == '\0' && !memchr(f, '\0', len - 1);
}

/* Field f reads as the name s (the kernel's NUL, or none). */
static bool reads_as(const uint8_t *f, uint32_t len, const char *s)
{
	size_t n = strlen(s);

	return (len == n || (len == n + 1 && !f[n])) && !memcmp(f, s, n);
}

static const struct {
	const char *name;
	unsigned int id;
} buffer_names[] = {
	{ "ima_policy", IMA_ID_POLICY },
	{ "ima_policy_loaded", IMA_ID_POLICY },
	{ "kexec_load", IMA_ID_KEXEC_LOAD },
	{ "kexec_execute", IMA_ID_KEXEC_EXECUTE },
};

struct readings {
	const struct ima_hash_algo *alg[IMA_MAX_FIELDS];	/* or NULL */
	const uint8_t *dig[IMA_MAX_FIELDS];
	uint32_t dlen[IMA_MAX_FIELDS];
};

/*
 * Whether field k (not field j, the name) hashes to another field read
 * as a digest: each field is hashed once per algorithm some digest
 * reading names (so a hostile record costs a few hashes of its size).
 */
static bool hashes_to_digest(const struct ima_data_view *v,
			     const struct readings *r, int j, int k)
{
	const struct ima_hash_algo *done[IMA_MAX_FIELDS];
	uint8_t d[IMA_MAX_DIGEST];
	int i, a, ndone = 0;

	for (i = 0; i < v->n; i++) {
		if (i == j || i == k || !r->alg[i])
			continue;
		for (a = 0; a < ndone && done[a] != r->alg[i]; a++)
			;
		if (a < ndone)
			continue;
		done[ndone++] = r->alg[i];
		if (ima_digest(r->alg[i], v->f[k], v->len[k], d))
			continue;
		for (a = i; a < v->n; a++)
			if (a != j && a != k && r->alg[a] == r->alg[i] &&
			    !memcmp(d, r->dig[a], r->dlen[a]))
				return true;
	}
	return false;
}

/*
 * What the data can be read as (v->ident), and whether it is a buffer
 * record as the kernel writes one (v->buf). Hashing happens only for a
 * record with a field that reads as one of the names above, or of
 * exactly three non-empty fields.
 */
static void read_content(struct ima_data_view *v)
{
	struct readings r;
	unsigned int want = 0;
	int i, j, k, nonempty = 0, ne[3] = { -1, -1, -1 }, named[4];
	size_t t, nnamed = 0;

	for (j = 0; j < v->n; j++) {
		if (v->len[j] && nonempty++ < 3)
			ne[nonempty - 1] = j;
		if (reads_as(v->f[j], v->len[j], "boot_aggregate"))
			v->ident |= IMA_ID_BOOT;
		for (t = 0; t < sizeof(buffer_names) / sizeof(buffer_names[0]);
		     t++)
			if (reads_as(v->f[j], v->len[j], buffer_names[t].name) &&
			    nnamed < 4) {
				named[nnamed++] = j;
				want |= buffer_names[t].id;
			}
	}
	if (!want && nonempty != 3)
		return;
	for (i = 0; i < v->n; i++)
		if (!digest_reading(v->f[i], v->len[i], &r.alg[i], &r.dig[i],
				    &r.dlen[i]))
			r.alg[i] = NULL;
	/* a policy or ima_kexec record: its name, some buffer, some digest */
	for (t = 0; t < nnamed; t++) {
		j = named[t];
		for (k = 0; k < v->n; k++)
			if (k != j && v->len[k] && hashes_to_digest(v, &r, j, k))
				break;
		if (k == v->n)
			continue;
		for (i = 0; i < (int)(sizeof(buffer_names) /
				      sizeof(buffer_names[0])); i++)
			if (reads_as(v->f[j], v->len[j], buffer_names[i].name))
				v->ident |= buffer_names[i].id;
	}
	if (nonempty != 3)
		return;
	/* a buffer as the kernel writes one: the three non-empty fields as
	 * digest, name and buffer, in any order */
	for (j = 0; j < 3 && !v->buf; j++) {
		if (!name_reading(v->f[ne[j]], v->len[ne[j]]))
			continue;
		for (k = 0; k < 3 && !v->buf; k++) {
			if (k == j || ima_sig_typed(v->f[ne[k]], v->len[ne[k]]))
				continue;
			/* the third non-empty field is the digest */
			i = 3 - j - k;
			if (r.alg[ne[i]] && hashes_to_digest(v, &r, ne[j], ne[k])) {
				v->buf = true;
				v->buf_field = ne[k];
			}
		}
	}
}

bool ima_data_view(const uint8_t *data, uint32_t len, enum ima_byte_order o,
		   struct ima_data_view *v)
{
	const uint8_t *p = data, *end = data + len, *nul;
	const char *algo;
	size_t algo_len;

	memset(v, 0, sizeof(*v));
	v->buf_field = -1;
	while (p < end) {
		if (v->n == IMA_MAX_FIELDS || end - p < 4)
			return false;
		v->len[v->n] = ima_get32(p, o);
		p += 4;
		if (v->len[v->n] > (size_t)(end - p))
			return false;
		v->f[v->n] = p;
		p += v->len[v->n++];
	}
	if (v->n >= 1 && !ima_split_digest_field(v->f[0], v->len[0],
						 &v->dtype, &algo,
						 &algo_len, &v->dig,
						 &v->dlen)) {
		v->alg = ima_hash_by_name(algo, algo_len);
		if (v->alg && v->dlen != v->alg->size)
			v->alg = NULL;
	}
	if (v->n >= 2) {
		nul = memchr(v->f[1], '\0', v->len[1]);
		v->name = (const char *)v->f[1];
		v->nlen = nul ? (size_t)(nul - v->f[1]) : v->len[1];
	}
	read_content(v);
	return true;
}

int ima_split_digest_field(const uint8_t *data, uint32_t len, int *type,
			   const char **algo, size_t *algo_len,
			   const uint8_t **digest, uint32_t *digest_len)
{
	const uint8_t *nul = memchr(data, '\0', len);
	const uint8_t *p, *colon;
	int t = IMA_DT_NONE;

	if (!nul || nul == data || nul[-1] != ':')
		return -1;
	/* algo is the last ':'-separated word before ":\0" */
	for (p = nul - 1; p > data && p[-1] != ':'; p--)
		;
	if (p == nul - 1)
		return -1;
	if (p > data) {
		/* "type:" and nothing before it */
		colon = memchr(data, ':', (size_t)(p - 1 - data));
		if (colon)
			return -1;
		if (p - 1 - data == 3 && !memcmp(data, "ima", 3))
			t = IMA_DT_IMA;
		else if (p - 1 - data == 6 && !memcmp(data, "verity", 6))
			t = IMA_DT_VERITY;
		else
			return -1;
	}
	if (type)
		*type = t;
	*algo = (const char *)p;
	*algo_len = (size_t)(nul - 1 - p);
	*digest = nul + 1;
	*digest_len = (uint32_t)(len - (uint32_t)(nul + 1 - data));
	return 0;
}

static void reader_init(struct ima_reader *r, const struct ima_reader_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (o)
		r->opts = *o;
	if (!r->opts.max_size)
		r->opts.max_size = IMA_DEFAULT_MAX_SIZE;
	if (!r->opts.max_entry)
		r->opts.max_entry = IMA_DEFAULT_MAX_ENTRY;
	if (!r->opts.chunk)
		r->opts.chunk = DEFAULT_CHUNK;
	r->order = r->opts.order;
	r->format = r->opts.format;
	r->digest_alg = r->opts.digest_alg;
	r->digest_len = r->digest_alg ? r->digest_alg->size : IMA_SHA1_LEN;
}

int ima_reader_init_fd(struct ima_reader *r, int fd,
		       const struct ima_reader_opts *opts)
{
	reader_init(r, opts);
	r->fd = fd;
	r->cap = 2 * r->opts.chunk;
	r->buf = malloc(r->cap);
	return r->buf ? 0 : -1;
}

int ima_reader_init_mem(struct ima_reader *r, const void *mem, size_t len,
			const struct ima_reader_opts *opts)
{
	reader_init(r, opts);
	r->mem = mem;
	r->mem_len = len;
	r->buf = (uint8_t *)mem;
	r->cap = len;
	r->end = len;
	r->consumed = len;
	r->eof = true;
	return 0;
}

void ima_reader_free(struct ima_reader *r)
{
	if (r->fd >= 0 || !r->mem || r->own_buf)
		free(r->buf);
	r->buf = NULL;
	ima_ascii_free(r->ascii);
	r->ascii = NULL;
}

static int fail(struct ima_reader *r, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	r->err_offset = offset;
	return IMA_READ_MALFORMED;
}

/*
 * Make at least n bytes available at buf[start]. Returns 1 if they are,
 * 0 if the input ended first, IMA_READ_IO / IMA_READ_MALFORMED on error.
 */
static int ensure(struct ima_reader *r, size_t n)
{
	while (r->end - r->start < n) {
		ssize_t got;
		size_t room;

		if (r->eof)
			return 0;
		if (r->cap - r->start < n || r->cap - r->end < r->opts.chunk) {
			memmove(r->buf, r->buf + r->start, r->end - r->start);
			r->end -= r->start;
			r->start = 0;
		}
		if (r->cap < n) {
			size_t ncap = r->cap * 2 > n ? r->cap * 2 : n;
			uint8_t *nb = realloc(r->buf, ncap);

			if (!nb) {
				snprintf(r->err, sizeof(r->err),
					 "out of memory (%zu bytes)", ncap);
				return IMA_READ_IO;
			}
			r->buf = nb;
			r->cap = ncap;
		}
		room = r->cap - r->end;
		if (room > r->opts.chunk && n - (r->end - r->start) <=
		    r->opts.chunk)
			room = r->opts.chunk;
		if (r->ascii) {
			uint64_t at;

			got = ima_ascii_read(r->ascii, r->buf + r->end, room);
			if (got == -1) {
				fail(r, 0, "%s", ima_ascii_error(r->ascii, &at));
				r->err_offset = at;
				return IMA_READ_MALFORMED;
			}
			if (got < 0) {
				snprintf(r->err, sizeof(r->err), "%s",
					 ima_ascii_error(r->ascii, &at));
				return IMA_READ_IO;
			}
		} else {
			got = read(r->fd, r->buf + r->end, room);
		}
		if (got < 0) {
			if (errno == EINTR)
				continue;
			snprintf(r->err, sizeof(r->err), "read: %s",
				 strerror(errno));
			return IMA_READ_IO;
		}
		if (got == 0) {
			r->eof = true;
			continue;
		}
		r->end += (size_t)got;
		r->consumed += (uint64_t)got;
		if (r->consumed > r->opts.max_size)
			return fail(r, r->opts.max_size,
				    "log exceeds the maximum size of %llu bytes",
				    (unsigned long long)r->opts.max_size);
	}
	return 1;
}

static int detect_order(struct ima_reader *r, const uint8_t *p)
{
	size_t at = 4 + r->digest_len;
	uint32_t pcr_le = ima_get32(p, IMA_BO_LITTLE);
	uint32_t len_le = ima_get32(p + at, IMA_BO_LITTLE);
	uint32_t pcr_be = ima_get32(p, IMA_BO_BIG);
	uint32_t len_be = ima_get32(p + at, IMA_BO_BIG);

	if (pcr_le <= IMA_MAX_PCR && len_le && len_le <= IMA_MAX_NAME_LEN)
		r->order = IMA_BO_LITTLE;
	else if (pcr_be <= IMA_MAX_PCR && len_be && len_be <= IMA_MAX_NAME_LEN)
		r->order = IMA_BO_BIG;
	else if (p[0] >= '0' && p[0] <= '9' && (p[1] == ' ' || p[2] == ' '))
		return fail(r, 0,
			    "an ASCII list (ascii_runtime_measurements) read as binary: drop --format binary (or give --format ascii)");
	else
		return fail(r, 0,
			    "cannot detect byte order: first record has pcr %u, template name length %u (little-endian, %u-byte digest%s)",
			    pcr_le, len_le, r->digest_len,
			    r->digest_alg ? "" : "; a per-bank list needs --list-bank");
	return 0;
}

/* The first bytes: a PCR index as u32 (binary, <= 23 in either byte
 * order: a first byte below 0x20) or "%2d " (ASCII: ' ' or a digit). */
int ima_reader_start(struct ima_reader *r)
{
	unsigned int dlen;
	uint64_t at;
	int rc;

	if (r->started)
		return IMA_READ_RECORD;
	r->started = true;
	if (r->format == IMA_FMT_BINARY)
		return IMA_READ_RECORD;
	rc = ensure(r, 1);
	if (rc < 0)
		return rc;
	if (r->format == IMA_FMT_AUTO) {
		r->format = rc && r->buf[r->start] >= 0x20 ? IMA_FMT_ASCII :
			    IMA_FMT_BINARY;
		if (r->format == IMA_FMT_BINARY)
			return IMA_READ_RECORD;
	}
	/* ASCII: the converter reads the source from here on */
	r->ascii = ima_ascii_new(r->fd, r->mem, r->mem_len,
				 r->buf + r->start, r->end - r->start, r->eof,
				 r->order,
				 r->digest_alg ? r->digest_alg->size : 0,
				 r->opts.max_entry);
	if (!r->ascii) {
		snprintf(r->err, sizeof(r->err), "out of memory");
		return IMA_READ_IO;
	}
	if (r->fd < 0) {
		/* memory input: the records go to a buffer of our own */
		r->buf = malloc(2 * r->opts.chunk);
		if (!r->buf) {
			snprintf(r->err, sizeof(r->err), "out of memory");
			return IMA_READ_IO;
		}
		r->own_buf = true;
		r->cap = 2 * r->opts.chunk;
	}
	r->start = r->end = 0;
	r->consumed = 0;
	r->eof = false;
	if (r->order == IMA_BO_AUTO)
		r->order = IMA_BO_LITTLE;
	rc = ima_ascii_prime(r->ascii);
	if (rc) {
		const char *why = ima_ascii_error(r->ascii, &at);

		if (rc == -1) {
			fail(r, 0, "%s", why);
			r->err_offset = at;
			return IMA_READ_MALFORMED;
		}
		snprintf(r->err, sizeof(r->err), "%s", why);
		return IMA_READ_IO;
	}
	dlen = ima_ascii_digest_len(r->ascii);
	if (dlen && !r->digest_alg) {
		r->digest_alg = ima_hash_by_size(dlen);
		r->digest_len = dlen;
	}
	return IMA_READ_RECORD;
}

int ima_list_name_bank(const char *path, const struct ima_hash_algo **alg,
		       char *err, size_t errlen)
{
	static const char *const stems[] = {
		"binary_runtime_measurements", "ascii_runtime_measurements",
	};
	const char *base = strrchr(path, '/');
	const struct ima_hash_algo *h;
	size_t i, n;

	base = base ? base + 1 : path;
	for (i = 0; i < ARRAY_SIZE(stems); i++) {
		n = strlen(stems[i]);
		if (strncmp(base, stems[i], n) || base[n] != '_')
			continue;
		if (!strncmp(base + n + 1, "tpm_alg_", 8)) {
			snprintf(err, errlen,
				 "%s: the list of a TPM bank the kernel cannot hash (its template digests are sha1, zero-padded): not supported",
				 base);
			return -1;
		}
		h = ima_hash_by_name(base + n + 1, (size_t)-1);
		if (!h)
			return 0;	/* not a name the kernel gives */
		if (strcmp(h->name, "sha1") && strcmp(h->name, "sha256") &&
		    strcmp(h->name, "sha384") && strcmp(h->name, "sha512")) {
			snprintf(err, errlen,
				 "%s: a per-bank list of %s, not a bank read here (sha1, sha256, sha384, sha512)",
				 base, h->name);
			return -1;
		}
		*alg = h;
		return 0;
	}
	return 0;
}

uint64_t ima_reader_ascii_bytes(const struct ima_reader *r)
{
	return r->ascii ? ima_ascii_bytes(r->ascii) : 0;
}

uint64_t ima_reader_ascii_lines(const struct ima_reader *r)
{
	return r->ascii ? ima_ascii_lines(r->ascii) : 0;
}

static int parse_fields(struct ima_reader *r, struct ima_record *rec)
{
	const uint8_t *p = rec->data, *end = rec->data + rec->data_len;
	int i;

	if (rec->tmpl.legacy) {
		rec->nfields = 2;
		rec->fields[0].id = IMA_F_D;
		rec->fields[0].data = p;
		rec->fields[0].len = 20;
		rec->fields[1].id = IMA_F_N;
		rec->fields[1].data = p + 24;
		rec->fields[1].len = rec->data_len - 24;
		return 0;
	}
	for (i = 0; i < rec->tmpl.nfields; i++) {
		uint64_t off = rec->data_offset + (uint64_t)(p - rec->data);
		uint32_t len;

		if (end - p < 4)
			return fail(r, off,
				    "template data ends before field %d (%s) of %d",
				    i + 1, ima_field_name(rec->tmpl.ids[i]),
				    rec->tmpl.nfields);
		len = ima_get32(p, r->order);
		p += 4;
		if (len > (size_t)(end - p))
			return fail(r, off,
				    "field %s length %u runs past the template data end (%zu bytes left)",
				    ima_field_name(rec->tmpl.ids[i]), len,
				    (size_t)(end - p));
		rec->fields[i].id = rec->tmpl.ids[i];
		rec->fields[i].data = p;
		rec->fields[i].len = len;
		p += len;
	}
	if (p != end)
		return fail(r, rec->data_offset + (uint64_t)(p - rec->data),
			    "%zu trailing bytes after the last template field",
			    (size_t)(end - p));
	rec->nfields = rec->tmpl.nfields;
	return 0;
}

int ima_reader_next(struct ima_reader *r, struct ima_record *rec)
{
	uint64_t off = r->buf_pos;
	const uint8_t *p;
	uint32_t namelen, dlen;
	size_t need;
	int rc;

	if (!r->started) {
		rc = ima_reader_start(r);
		if (rc != IMA_READ_RECORD)
			return rc;
		off = r->buf_pos;
	}
	rc = ensure(r, 1);
	if (rc <= 0)
		return rc;
	rc = ensure(r, HDR_LEN(r));
	if (rc < 0)
		return rc;
	if (!rc)
		return fail(r, off,
			    "truncated record header (%zu of %zu bytes)",
			    r->end - r->start, HDR_LEN(r));
	p = r->buf + r->start;
	if (r->order == IMA_BO_AUTO && detect_order(r, p))
		return IMA_READ_MALFORMED;

	memset(rec, 0, offsetof(struct ima_record, fields));
	rec->index = r->index;
	rec->offset = off;
	rec->line = r->ascii ? r->index + 1 : 0;
	rec->pcr = ima_get32(p, r->order);
	memcpy(rec->digest, p + 4, r->digest_len);
	rec->digest_len = r->digest_len;
	namelen = ima_get32(p + 4 + r->digest_len, r->order);
	if (rec->pcr > IMA_MAX_PCR)
		return fail(r, off, "pcr index %u out of range (0..%d)",
			    rec->pcr, IMA_MAX_PCR);
	if (!namelen)
		return fail(r, off + 4 + r->digest_len,
			    "zero-length template name");
	if (namelen > IMA_MAX_NAME_LEN)
		return fail(r, off + 4 + r->digest_len,
			    "template name length %u exceeds %d", namelen,
			    IMA_MAX_NAME_LEN);
	need = HDR_LEN(r) + namelen + 4;
	rc = ensure(r, need);
	if (rc < 0)
		return rc;
	if (!rc)
		return fail(r, off + HDR_LEN(r),
			    "truncated record: template name or data length missing");
	p = r->buf + r->start;
	memcpy(rec->name, p + HDR_LEN(r), namelen);
	rec->name[namelen] = '\0';
	rec->name_len = namelen;
	if (memchr(rec->name, '\0', namelen))
		return fail(r, off + HDR_LEN(r), "NUL byte in template name");

	if (!strcmp(rec->name, "ima")) {
		/* d: 20 bytes, no length; n: u32 len + name, no NUL */
		need = HDR_LEN(r) + namelen + 24;
		rc = ensure(r, need);
		if (rc < 0)
			return rc;
		if (!rc)
			return fail(r, off + HDR_LEN(r) + namelen,
				    "truncated record: legacy ima template data");
		p = r->buf + r->start;
		dlen = ima_get32(p + need - 4, r->order);
		if (dlen > IMA_LEGACY_NAME_MAX)
			return fail(r, off + need - 4,
				    "legacy ima event name length %u exceeds %d",
				    dlen, IMA_LEGACY_NAME_MAX);
		rec->data_offset = off + HDR_LEN(r) + namelen;
		dlen += 24;
	} else {
		dlen = ima_get32(p + need - 4, r->order);
		if (!dlen)
			return fail(r, off + need - 4,
				    "zero-length template data");
		if (dlen > r->opts.max_entry)
			return fail(r, off + need - 4,
				    "template data length %u exceeds the limit of %u bytes",
				    dlen, r->opts.max_entry);
		rec->data_offset = off + need;
	}
	need = (size_t)(rec->data_offset - off) + dlen;
	rc = ensure(r, need);
	if (rc < 0)
		return rc;
	if (!rc)
		return fail(r, rec->data_offset,
			    "truncated record: template data needs %u bytes, %zu left",
			    dlen, r->end - r->start -
			    (size_t)(rec->data_offset - off));
	p = r->buf + r->start;
	rec->data = p + (rec->data_offset - off);
	rec->data_len = dlen;

	rec->nfields = 0;
	/* consecutive records mostly share a template: resolve it once */
	if (!r->tmpl_valid || r->tmpl_name_len != namelen ||
	    memcmp(r->tmpl_name, rec->name, namelen)) {
		r->tmpl_found = ima_template_lookup(rec->name, &r->tmpl);
		memcpy(r->tmpl_name, rec->name, namelen + 1);
		r->tmpl_name_len = namelen;
		r->tmpl_valid = true;
	}
	rec->tmpl = r->tmpl;
	if (r->tmpl_found && parse_fields(r, rec))
		return IMA_READ_MALFORMED;

	r->start += need;
	r->buf_pos += need;
	r->index++;
	return IMA_READ_RECORD;
}
