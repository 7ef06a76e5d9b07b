// SPDX-License-Identifier: GPL-2.0-only
/*
 * ascii_runtime_measurements read back into binary records (ima_ascii.h):
 * a line at a time, bounded, every token checked against what the kernel
 * can have printed for its field.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ima_ascii.h"
#include "ima_hash.h"
#include "ima_text.h"

#define IN_CHUNK	(64u << 10)

struct ima_ascii {
	int fd;
	uint8_t *in;			/* input: own buffer, or the memory */
	size_t in_cap, in_start, in_end;
	bool in_own, in_eof;
	uint8_t *out;			/* the current line's record */
	size_t out_cap, out_len, out_pos;
	enum ima_byte_order order;
	unsigned int digest_len;
	uint32_t max_entry;
	size_t max_line;
	uint64_t line, bytes;		/* lines converted, bytes consumed */
	int failed;			/* 0, -1 malformed, -2 read error */
	uint64_t err_offset;
	char err[200];
};

static void put32(uint8_t *p, uint32_t v, enum ima_byte_order o)
{
	if (o == IMA_BO_BIG) {
		p[0] = (uint8_t)(v >> 24);
		p[1] = (uint8_t)(v >> 16);
		p[2] = (uint8_t)(v >> 8);
		p[3] = (uint8_t)v;
	} else {
		p[3] = (uint8_t)(v >> 24);
		p[2] = (uint8_t)(v >> 16);
		p[1] = (uint8_t)(v >> 8);
		p[0] = (uint8_t)v;
	}
}

static void put16(uint8_t *p, uint16_t v, enum ima_byte_order o)
{
	if (o == IMA_BO_BIG) {
		p[0] = (uint8_t)(v >> 8);
		p[1] = (uint8_t)v;
	} else {
		p[1] = (uint8_t)(v >> 8);
		p[0] = (uint8_t)v;
	}
}

size_t ima_ascii_record_max(size_t len)
{
	/*
	 * header (pcr, digest, name length, data length) and, per field, a
	 * length, a NUL and a number's 4 bytes from one digit: the rest is
	 * at most one byte per byte of the line
	 */
	return len + 16 + IMA_MAX_DIGEST + IMA_MAX_FIELDS * 9;
}

/* the message into err; -1 */
#define bad(err, errlen, ...) ima_errf(err, errlen, __VA_ARGS__)

/* The kernel's ima_show_template_*() for each field, read backwards. */
enum shown { SHOWN_HEX, SHOWN_DIGEST_ALGO, SHOWN_STRING, SHOWN_RAW_STRING,
	     SHOWN_UINT };

static enum shown field_shown(enum ima_field_id id, unsigned int *width)
{
	*width = 0;
	switch (id) {
	case IMA_F_D_NG:
	case IMA_F_D_NGV2:
	case IMA_F_D_MODSIG:
		return SHOWN_DIGEST_ALGO;
	case IMA_F_N:
	case IMA_F_N_NG:
		return SHOWN_STRING;
	case IMA_F_XATTRNAMES:
		/* made as DATA_FMT_HEX (no NUL), shown as a string */
		return SHOWN_RAW_STRING;
	case IMA_F_IUID:
	case IMA_F_IGID:
		*width = 4;	/* unsigned int */
		return SHOWN_UINT;
	case IMA_F_IMODE:
		*width = 2;	/* u16 */
		return SHOWN_UINT;
	default:
		return SHOWN_HEX;
	}
}

static int hex_into(const char *p, size_t n, uint8_t *out)
{
	return ima_hex2bin(p, n, out, n / 2) == (int)(n / 2) ? 0 : -1;
}

/*
 * One field's token into out (its bytes, no length). Returns the bytes
 * written or -1 (err set).
 */
static long field_bytes(enum ima_field_id id, bool legacy, const char *t,
			size_t n, enum ima_byte_order o, uint8_t *out,
			char *err, size_t errlen)
{
	const char *name = ima_field_name(id);
	unsigned int width;
	unsigned long long v = 0;
	const char *colon;
	size_t i, pre;

	switch (field_shown(id, &width)) {
	case SHOWN_HEX:
		if (n % 2 || hex_into(t, n, out))
			return bad(err, errlen, "field %s is not hex", name);
		if (legacy && n != 40)
			return bad(err, errlen,
				   "field d of the ima template has %zu hex digits, not 40",
				   n);
		return (long)(n / 2);
	case SHOWN_DIGEST_ALGO:
		if (!n)
			return 0;
		colon = NULL;
		for (i = 0; i < n; i++)
			if (t[i] == ':')
				colon = t + i;
		if (!colon)
			return bad(err, errlen,
				   "field %s has no 'algorithm:' before its digest",
				   name);
		pre = (size_t)(colon - t) + 1;
		if ((n - pre) % 2 || hex_into(colon + 1, n - pre, out + pre + 1))
			return bad(err, errlen,
				   "field %s: the digest after '%.*s' is not hex",
				   name, (int)(pre > 32 ? 32 : pre), t);
		memcpy(out, t, pre);
		out[pre] = '\0';
		return (long)(pre + 1 + (n - pre) / 2);
	case SHOWN_STRING:
		if (memchr(t, '\0', n))
			return bad(err, errlen, "field %s holds a NUL byte", name);
		memcpy(out, t, n);
		if (legacy)
			return (long)n;	/* the binary "ima" name: no NUL */
		out[n] = '\0';
		return (long)(n + 1);
	case SHOWN_RAW_STRING:
		memcpy(out, t, n);
		return (long)n;
	case SHOWN_UINT:
		if (!n)
			return 0;
		if (n > 10 || (n > 1 && t[0] == '0'))
			return bad(err, errlen,
				   "field %s is not a decimal number the kernel prints",
				   name);
		for (i = 0; i < n; i++) {
			if (t[i] < '0' || t[i] > '9')
				return bad(err, errlen,
					   "field %s is not a decimal number",
					   name);
			v = v * 10 + (unsigned long long)(t[i] - '0');
		}
		if (v >> (8 * width))
			return bad(err, errlen,
				   "field %s: %llu does not fit its %u bytes",
				   name, v, width);
		if (width == 4)
			put32(out, (uint32_t)v, o);
		else
			put16(out, (uint16_t)v, o);
		return width;
	}
	return bad(err, errlen, "field %s cannot be read", name);
}

/* The next token: up to ' ' or the end. */
static const char *token(const char *p, const char *end, size_t *n)
{
	const char *sp = memchr(p, ' ', (size_t)(end - p));

	*n = (size_t)((sp ? sp : end) - p);
	return p;
}

long ima_ascii_line(const char *line, size_t len, enum ima_byte_order o,
		    unsigned int *digest_len, uint32_t max_entry,
		    uint8_t *out, size_t outmax, char *err, size_t errlen)
{
	const char *p = line, *end = line + len, *t;
	struct ima_template tmpl;
	char name[IMA_MAX_NAME_LEN + 1];
	uint8_t *data, *q;
	unsigned int pcr = 0;
	size_t n, dlen;
	int f;

	if (outmax < ima_ascii_record_max(len))
		return bad(err, errlen, "internal: record buffer too small");
	if (len && end[-1] == '\r')
		return bad(err, errlen,
			   "ends with '\\r' (CRLF line ends: the list was converted in transit; the kernel writes '\\n')");
	/* "%2d ": one space pads a one-digit PCR */
	if (p < end && *p == ' ')
		p++;
	for (n = 0; p < end && *p >= '0' && *p <= '9' && n < 3; n++)
		pcr = pcr * 10 + (unsigned int)(*p++ - '0');
	if (!n || p == end || *p != ' ')
		return bad(err, errlen,
			   "not a measurement line: expected 'PCR TEMPLATE-DIGEST TEMPLATE-NAME FIELDS...'");
	if (pcr > IMA_MAX_PCR)
		return bad(err, errlen, "PCR %u out of range (0..%d)", pcr,
			   IMA_MAX_PCR);
	t = token(++p, end, &n);
	if (!*digest_len) {
		if (n != 40 && n != 64 && n != 96 && n != 128)
			return bad(err, errlen,
				   "template digest of %zu hex digits: not sha1, sha256, sha384 or sha512",
				   n);
		*digest_len = (unsigned int)(n / 2);
	}
	if (n != 2 * *digest_len)
		return bad(err, errlen,
			   "template digest of %zu hex digits, the list's have %u",
			   n, 2 * *digest_len);
	put32(out, pcr, o);
	if (hex_into(t, n, out + 4))
		return bad(err, errlen, "template digest is not hex");
	p = t + n;
	if (p == end)
		return bad(err, errlen, "no template name");
	t = token(++p, end, &n);
	if (!n || n > IMA_MAX_NAME_LEN)
		return bad(err, errlen, "template name of %zu bytes (1..%d)", n,
			   IMA_MAX_NAME_LEN);
	memcpy(name, t, n);
	name[n] = '\0';
	if (memchr(name, '\0', n) || !ima_template_lookup(name, &tmpl))
		return bad(err, errlen,
			   "unknown template '%.*s': its fields cannot be read back from the ASCII form",
			   (int)(n > 64 ? 64 : n), t);
	q = out + 4 + *digest_len;
	put32(q, (uint32_t)n, o);
	memcpy(q + 4, name, n);
	q += 4 + n;
	data = tmpl.legacy ? q : q + 4;
	dlen = 0;
	p = t + n;
	for (f = 0; f < tmpl.nfields; f++) {
		bool legacy_d = tmpl.legacy && tmpl.ids[f] == IMA_F_D;
		long got;

		if (p == end)
			return bad(err, errlen,
				   "template '%s' has %d fields, the line %d",
				   name, tmpl.nfields, f);
		t = token(++p, end, &n);
		p = t + n;
		/* the "ima" template's d has no length; every other field does */
		got = field_bytes(tmpl.ids[f], tmpl.legacy, t, n, o,
				  data + dlen + (legacy_d ? 0 : 4), err, errlen);
		if (got < 0)
			return -1;
		if (!legacy_d)
			put32(data + dlen, (uint32_t)got, o);
		dlen += (size_t)got + (legacy_d ? 0 : 4);
	}
	if (p != end)
		return bad(err, errlen,
			   "more than the %d fields of template '%s' (a space in a field?)",
			   tmpl.nfields, name);
	if (tmpl.legacy) {
		if (dlen - 24 > IMA_LEGACY_NAME_MAX)
			return bad(err, errlen,
				   "ima template name of %zu bytes exceeds %d",
				   dlen - 24, IMA_LEGACY_NAME_MAX);
	} else {
		if (dlen > max_entry)
			return bad(err, errlen,
				   "template data of %zu bytes exceeds the limit of %u bytes",
				   dlen, max_entry);
		put32(q, (uint32_t)dlen, o);
	}
	return (long)(data + dlen - out);
}

struct ima_ascii *ima_ascii_new(int fd, const uint8_t *mem, size_t mem_len,
				const uint8_t *pre, size_t pre_len, bool eof,
				enum ima_byte_order order,
				unsigned int digest_len, uint32_t max_entry)
{
	struct ima_ascii *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->fd = fd;
	a->order = order == IMA_BO_BIG ? IMA_BO_BIG : IMA_BO_LITTLE;
	a->digest_len = digest_len;
	a->max_entry = max_entry;
	/* a line is at most the hex of its template data, and a header */
	a->max_line = 2 * (size_t)max_entry + 4096;
	if (fd < 0) {
		a->in = (uint8_t *)mem;
		a->in_end = mem_len;
		a->in_eof = true;
		return a;
	}
	a->in_own = true;
	a->in_cap = pre_len > IN_CHUNK ? 2 * pre_len : 2 * IN_CHUNK;
	a->in = malloc(a->in_cap);
	if (!a->in) {
		free(a);
		return NULL;
	}
	memcpy(a->in, pre, pre_len);
	a->in_end = pre_len;
	a->in_eof = eof;
	return a;
}

void ima_ascii_free(struct ima_ascii *a)
{
	if (!a)
		return;
	if (a->in_own)
		free(a->in);
	free(a->out);
	free(a);
}

static int fail(struct ima_ascii *a, int kind, uint64_t offset,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(struct ima_ascii *a, int kind, uint64_t offset,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->err, sizeof(a->err), fmt, ap);
	va_end(ap);
	a->err_offset = offset;
	a->failed = kind;
	return kind;
}

/* *buf (a->in or a->out) reallocated to cap bytes; -2 when out of memory */
static int grow(struct ima_ascii *a, uint8_t **buf, size_t *cap, size_t size)
{
	uint8_t *n = realloc(*buf, size);

	if (!n)
		return fail(a, -2, a->bytes, "out of memory (%zu bytes)", size);
	*buf = n;
	*cap = size;
	return 0;
}

/* Read more input; 1 if some came, 0 at its end, -2 on error. */
static int fill(struct ima_ascii *a)
{
	ssize_t got;

	if (a->in_eof)
		return 0;
	if (a->in_start) {
		memmove(a->in, a->in + a->in_start, a->in_end - a->in_start);
		a->in_end -= a->in_start;
		a->in_start = 0;
	}
	if (a->in_cap - a->in_end < IN_CHUNK &&
	    grow(a, &a->in, &a->in_cap, 2 * a->in_cap))
		return -2;
	for (;;) {
		got = read(a->fd, a->in + a->in_end, a->in_cap - a->in_end);
		if (got >= 0 || errno != EINTR)
			break;
	}
	if (got < 0)
		return fail(a, -2, a->bytes, "read: %s", strerror(errno));
	if (!got) {
		a->in_eof = true;
		return 0;
	}
	a->in_end += (size_t)got;
	return 1;
}

/* The next line into a->out; 1, 0 at the end, or -1/-2. */
static int next_line(struct ima_ascii *a)
{
	const uint8_t *nl;
	size_t len, need;
	long rec;
	int rc;

	for (;;) {
		nl = memchr(a->in + a->in_start, '\n', a->in_end - a->in_start);
		if (nl)
			break;
		if (a->in_end - a->in_start > a->max_line)
			return fail(a, -1, a->bytes,
				    "line %llu is longer than %zu bytes (the hex of --max-entry)",
				    (unsigned long long)a->line + 1, a->max_line);
		rc = fill(a);
		if (rc < 0)
			return rc;
		if (!rc) {
			if (a->in_end == a->in_start)
				return 0;
			return fail(a, -1, a->bytes,
				    "line %llu: no newline at its end (a truncated list?)",
				    (unsigned long long)a->line + 1);
		}
	}
	len = (size_t)(nl - (a->in + a->in_start));
	if (len > a->max_line)
		return fail(a, -1, a->bytes,
			    "line %llu is longer than %zu bytes (the hex of --max-entry)",
			    (unsigned long long)a->line + 1, a->max_line);
	need = ima_ascii_record_max(len);
	if (a->out_cap < need && grow(a, &a->out, &a->out_cap, need))
		return -2;
	rec = ima_ascii_line((const char *)a->in + a->in_start, len, a->order,
			     &a->digest_len, a->max_entry, a->out, a->out_cap,
			     a->err, sizeof(a->err));
	if (rec < 0) {
		char why[sizeof(a->err)];

		memcpy(why, a->err, sizeof(why));
		return fail(a, -1, a->bytes, "line %llu: %s",
			    (unsigned long long)a->line + 1, why);
	}
	a->out_len = (size_t)rec;
	a->out_pos = 0;
	a->in_start += len + 1;
	a->bytes += len + 1;
	a->line++;
	return 1;
}

int ima_ascii_prime(struct ima_ascii *a)
{
	int rc;

	if (a->failed)
		return a->failed;
	if (a->out_pos < a->out_len || a->line)
		return 0;
	rc = next_line(a);
	return rc < 0 ? rc : 0;
}

ssize_t ima_ascii_read(struct ima_ascii *a, uint8_t *buf, size_t len)
{
	size_t done = 0, n;
	int rc;

	if (a->failed)
		return a->failed;
	while (done < len) {
		if (a->out_pos == a->out_len) {
			rc = next_line(a);
			if (rc < 0)
				return done ? (ssize_t)done : rc;
			if (!rc)
				break;
		}
		n = a->out_len - a->out_pos;
		if (n > len - done)
			n = len - done;
		memcpy(buf + done, a->out + a->out_pos, n);
		a->out_pos += n;
		done += n;
	}
	return (ssize_t)done;
}

unsigned int ima_ascii_digest_len(const struct ima_ascii *a)
{
	return a->digest_len;
}

const char *ima_ascii_error(const struct ima_ascii *a, uint64_t *offset)
{
	*offset = a->err_offset;
	return a->err;
}

uint64_t ima_ascii_bytes(const struct ima_ascii *a)
{
	return a->bytes;
}

uint64_t ima_ascii_lines(const struct ima_ascii *a)
{
	return a->line;
}
