/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Streaming parser for the IMA binary_runtime_measurements list.
 *
 * Record layout (security/integrity/ima/ima_fs.c, ima_measurements_show):
 *	u32 pcr;  u8 template_digest[20];  u32 name_len;  char name[name_len];
 *	u32 template_data_len;  u8 data[];	(no data_len for "ima")
 * Template data is a sequence of fields, each u32 len + bytes, except for
 * the legacy "ima" template: d (20 bytes, no length) then n (u32 len +
 * name). Integers use the writer's byte order (little-endian with
 * ima_canonical_fmt).
 */
#ifndef IMA_LOG_H
#define IMA_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ima_hash.h"

#define IMA_MAX_FIELDS		16
#define IMA_MAX_NAME_LEN	255	/* template name (or format) */
#define IMA_LEGACY_NAME_MAX	255	/* IMA_EVENT_NAME_LEN_MAX */
#define IMA_MAX_PCR		23
#define IMA_DEFAULT_MAX_ENTRY	(16u << 20)
#define IMA_DEFAULT_MAX_SIZE	(1ull << 30)

enum ima_byte_order {
	IMA_BO_AUTO = 0,
	IMA_BO_LITTLE,
	IMA_BO_BIG,
};

/*
 * How the list is written: binary_runtime_measurements[_ALG], or the
 * kernel's ASCII rendering of the same records (ascii_runtime_measurements
 * [_ALG], what Keylime's agent sends), read into the same records.
 */
enum ima_list_format {
	IMA_FMT_AUTO = 0,	/* detected from the first bytes */
	IMA_FMT_BINARY,
	IMA_FMT_ASCII,
};

enum ima_field_id {
	IMA_F_UNKNOWN = 0,
	IMA_F_D,
	IMA_F_N,
	IMA_F_D_NG,
	IMA_F_D_NGV2,
	IMA_F_N_NG,
	IMA_F_SIG,
	IMA_F_BUF,
	IMA_F_D_MODSIG,
	IMA_F_MODSIG,
	IMA_F_EVMSIG,
	IMA_F_XATTRNAMES,
	IMA_F_XATTRLENGTHS,
	IMA_F_XATTRVALUES,
	IMA_F_IUID,
	IMA_F_IGID,
	IMA_F_IMODE,
};

struct ima_template {
	bool known;		/* every field id is known */
	bool legacy;		/* the "ima" template */
	int nfields;
	enum ima_field_id ids[IMA_MAX_FIELDS];
};

struct ima_field {
	enum ima_field_id id;
	const uint8_t *data;
	uint32_t len;
};

struct ima_record {
	uint64_t index;
	uint64_t offset;	/* byte offset of the record in the log */
	uint32_t pcr;
	/*
	 * the template digest as logged: sha1 (20 bytes) in
	 * binary_runtime_measurements, the bank's algorithm in the per-bank
	 * lists (Linux 6.10+, binary_runtime_measurements_sha256, ...)
	 */
	uint8_t digest[IMA_MAX_DIGEST];
	unsigned int digest_len;
	uint64_t line;		/* ASCII input: the line; 0 for binary */
	char name[IMA_MAX_NAME_LEN + 1];	/* template name */
	uint32_t name_len;
	const uint8_t *data;	/* template data as logged */
	uint32_t data_len;
	uint64_t data_offset;
	struct ima_template tmpl;
	int nfields;		/* 0 for unknown templates */
	struct ima_field fields[IMA_MAX_FIELDS];
};

struct ima_reader_opts {
	enum ima_byte_order order;	/* IMA_BO_AUTO detects */
	uint64_t max_size;		/* 0: IMA_DEFAULT_MAX_SIZE */
	uint32_t max_entry;		/* 0: IMA_DEFAULT_MAX_ENTRY */
	size_t chunk;			/* read() size, 0: 64 KiB */
	enum ima_list_format format;	/* IMA_FMT_AUTO detects */
	/*
	 * The template digest's algorithm: NULL for sha1
	 * (binary_runtime_measurements); a per-bank list's otherwise. An
	 * ASCII list without it takes it from its first line's digest length
	 * (40, 64, 96 or 128 hex digits: sha1, sha256, sha384, sha512).
	 */
	const struct ima_hash_algo *digest_alg;
};

struct ima_ascii;

struct ima_reader {
	int fd;			/* -1 for memory input */
	const uint8_t *mem;
	size_t mem_len;
	uint8_t *buf;
	size_t cap, start, end;
	uint64_t buf_pos;	/* log offset of buf[start] */
	uint64_t consumed;	/* bytes read from the source so far */
	bool eof;
	struct ima_reader_opts opts;
	enum ima_byte_order order;
	enum ima_list_format format;	/* as detected */
	const struct ima_hash_algo *digest_alg;	/* the template digest's */
	unsigned int digest_len;
	bool started, own_buf;
	struct ima_ascii *ascii;	/* ASCII input: the line converter */
	uint64_t index;
	uint64_t err_offset;
	char err[160];
	/* the last template name and what it resolved to */
	bool tmpl_valid, tmpl_found;
	uint32_t tmpl_name_len;
	char tmpl_name[IMA_MAX_NAME_LEN + 1];
	struct ima_template tmpl;
};

enum ima_read_status {
	IMA_READ_RECORD = 1,
	IMA_READ_EOF = 0,
	IMA_READ_MALFORMED = -1,
	IMA_READ_IO = -2,
};

int ima_reader_init_fd(struct ima_reader *r, int fd,
		       const struct ima_reader_opts *opts);
int ima_reader_init_mem(struct ima_reader *r, const void *mem, size_t len,
			const struct ima_reader_opts *opts);
/* Fills rec; pointers stay valid until the next call. */
int ima_reader_next(struct ima_reader *r, struct ima_record *rec);
/*
 * Detects the format (and, for ASCII, the digest length) before the first
 * record: IMA_READ_RECORD when records may follow (or EOF), else an error
 * (r->err). ima_reader_next calls it; call it first to learn r->format and
 * r->digest_alg before any record.
 */
int ima_reader_start(struct ima_reader *r);
/*
 * The bank a list's file name gives it, the way the kernel names the
 * per-bank lists (ima_fs.c): binary_runtime_measurements_ALG and
 * ascii_runtime_measurements_ALG set *alg to ALG; any other name leaves
 * it. Returns 0, or -1 with err for a per-bank name of a bank not read
 * here (one the kernel cannot hash, _tpm_alg_XX, whose digests are
 * zero-padded sha1; or not sha1, sha256, sha384 or sha512).
 */
int ima_list_name_bank(const char *path, const struct ima_hash_algo **alg,
		       char *err, size_t errlen);
/* The ASCII input's size and lines read so far (0 for binary input). */
uint64_t ima_reader_ascii_bytes(const struct ima_reader *r);
uint64_t ima_reader_ascii_lines(const struct ima_reader *r);
void ima_reader_free(struct ima_reader *r);

/*
 * Resolve a template name ("ima-sig") or a format ("d-ng|n-ng|sig").
 * Returns false if the name is neither a builtin nor a valid format.
 */
bool ima_template_lookup(const char *name, struct ima_template *t);
const char *ima_field_name(enum ima_field_id id);
/* Index of the first field with this id, or -1. */
int ima_record_field(const struct ima_record *rec, enum ima_field_id id);

/*
 * What a digest field says its digest is: d-ngv2 writes "ima:" (a hash of
 * the file's content) or "verity:" (the file's fs-verity digest) before
 * the algorithm; d-ng and d-modsig write no type.
 */
enum ima_digest_type {
	IMA_DT_NONE,
	IMA_DT_IMA,
	IMA_DT_VERITY,
};

/*
 * Split d-ng / d-ngv2 / d-modsig content "[type:]algo:\0digest".
 * Returns 0 and points algo (not NUL-terminated, algo_len bytes) and
 * digest into data, and sets *type (may be NULL); -1 if malformed: no
 * "algo:\0", a type other than "ima" or "verity", or more than one.
 */
int ima_split_digest_field(const uint8_t *data, uint32_t len, int *type,
			   const char **algo, size_t *algo_len,
			   const uint8_t **digest, uint32_t *digest_len);

/*
 * A record's data read without its name. No bank hashes the template
 * name, so whoever holds the list can give a record any name under which
 * its data still frames: what a record is must be read from its data.
 * Every template but "ima" lays out u32-length-prefixed fields, in the
 * order and number the template (a custom one: any of the kernel's
 * fields, supported_fields[] in ima_template.c) says, so the data is
 * read two ways:
 *
 * - by position, as the kernel's ima-ng/ima-sig/ima-buf lay it out: the
 *   first field the digest (d-ng), the second the name (n-ng), a third
 *   the signature or the buffer (alg, dig, name below);
 *
 * - by content, under every reading any template allows: a digest field
 *   is one that reads as d-ng/d-ngv2/d-modsig ("[type:]algo:\0digest") or
 *   as the legacy d (20 raw bytes, sha1; 16, md5), a name one that ends
 *   with its only NUL (n-ng, or n in a custom template), a buffer one
 *   whose hash under a digest field's algorithm is that digest. What the
 *   record can then be (ident): a boot_aggregate (a field reads the name
 *   "boot_aggregate"), or the kernel's policy or ima_kexec record (a name
 *   field reads its name, a buffer field hashes to a digest field).
 */
struct ima_hash_algo;

enum ima_ident {
	IMA_ID_BOOT = 1 << 0,		/* boot_aggregate */
	IMA_ID_POLICY = 1 << 1,		/* ima_policy, ima_policy_loaded */
	IMA_ID_KEXEC_LOAD = 1 << 2,	/* ima_kexec: kexec_load */
	IMA_ID_KEXEC_EXECUTE = 1 << 3,	/* ima_kexec: kexec_execute */
};

struct ima_data_view {
	int n;				/* fields */
	const uint8_t *f[IMA_MAX_FIELDS];
	uint32_t len[IMA_MAX_FIELDS];
	/* by position */
	const struct ima_hash_algo *alg; /* the first field as d-ng, or NULL */
	int dtype;			/* its enum ima_digest_type */
	const uint8_t *dig;
	uint32_t dlen;
	const char *name;		/* the second field up to its NUL */
	size_t nlen;			/* or NULL, 0 */
	/* by content */
	unsigned int ident;		/* enum ima_ident bits */
	/*
	 * A buffer as the kernel measures one (critical data, a kexec
	 * command line, a key), under any template: a digest field, a name
	 * field and a buffer field, the buffer not empty (the kernel
	 * measures no empty buffer, and a file's record under a template
	 * with a buf field has an empty one), not starting with a
	 * signature's type (what a file's sig field holds: a file whose
	 * content equals its own security.ima bytes would read as a buffer
	 * otherwise), its hash the digest; and every other field empty (the
	 * kernel fills no file field for a buffer). buf_field is its index.
	 */
	bool buf;
	int buf_field;
};

/* Frames data into v; false (v->n fields so far) if it does not frame. */
bool ima_data_view(const uint8_t *data, uint32_t len, enum ima_byte_order o,
		   struct ima_data_view *v);

static inline uint32_t ima_get32(const uint8_t *p, enum ima_byte_order o)
{
	if (o == IMA_BO_BIG)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

#endif
