// SPDX-License-Identifier: GPL-2.0-only
/*
 * Keylime's runtime policy (ima_keylime.h): read through the one JSON
 * reader (json.c) into manifest tables and exclude patterns, and written
 * from digests the audit proved.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ima_audit.h"
#include "ima_keylime.h"
#include "ima_text.h"

int ima_keylime_sniff(const char *path)
{
	FILE *f = fopen(path, "rb");
	int c;

	if (!f)
		return -1;
	do
		c = getc(f);
	while (c == ' ' || c == '\t' || c == '\r' || c == '\n');
	if (ferror(f)) {
		fclose(f);
		errno = EIO;
		return -1;
	}
	fclose(f);
	return c == '{';
}

/* Keylime's digest string: ^[0-9a-f]{40,128}$, of its length's algorithm */
static int digest_of(const struct ima_json *v, const struct ima_hash_algo **alg,
		     uint8_t *d, const char *field, const char *what,
		     char *err, size_t errlen)
{
	size_t i;

	if (v->type != IMA_JSON_STRING)
		return ima_line_error(err, errlen, what, v->line,
			    "%s: a digest is not a JSON string", field);
	for (i = 0; i < v->len; i++)
		if (!((v->str[i] >= '0' && v->str[i] <= '9') ||
		      (v->str[i] >= 'a' && v->str[i] <= 'f')))
			return ima_line_error(err, errlen, what, v->line,
				    "%s: a digest that is not lowercase hex (Keylime's schema: ^[0-9a-f]{40,128}$)",
				    field);
	*alg = v->len % 2 ? NULL : ima_hash_by_size((unsigned int)v->len / 2);
	if (!*alg)
		return ima_line_error(err, errlen, what, v->line,
			    "%s: a digest of %zu hex digits is of no algorithm (40 sha1, 56 sha224, 64 sha256, 96 sha384, 128 sha512)",
			    field, v->len);
	if (ima_hex2bin(v->str, v->len, d, IMA_MAX_DIGEST) !=
	    (int)(*alg)->size)
		return ima_line_error(err, errlen, what, v->line, "%s: not a hex digest",
			    field);
	return 0;
}

int ima_keylime_digests(const struct ima_json *obj, const char *field,
			ima_keylime_digest_fn fn, void *ctx, const char *what,
			char *err, size_t errlen)
{
	const struct ima_json *name, *v;
	const struct ima_hash_algo *alg = NULL;
	uint8_t d[IMA_MAX_DIGEST];

	if (obj->type != IMA_JSON_OBJECT)
		return ima_line_error(err, errlen, what, obj->line,
			    "\"%s\" is not a JSON object", field);
	for (name = obj->child; name; name = name->next) {
		if (name->type != IMA_JSON_ARRAY)
			return ima_line_error(err, errlen, what, name->line,
				    "%s: a path's digests are not a JSON array",
				    field);
		for (v = name->child; v; v = v->next) {
			char why[128];

			if (digest_of(v, &alg, d, field, what, err, errlen))
				return -1;
			if (fn(ctx, name, alg, d, v->line, why, sizeof(why)))
				return ima_line_error(err, errlen, what, v->line,
						      "%s", why);
		}
	}
	return 0;
}

struct table_ctx {
	struct ima_manifest *m;
	bool *boot;
};

static int table_add(void *arg, const struct ima_json *name,
		     const struct ima_hash_algo *alg, const uint8_t *digest,
		     unsigned long line, char *why, size_t whylen)
{
	struct table_ctx *c = arg;

	(void)line;
	if (ima_hash_collision_prone(alg)) {	/* no length is md5's: never */
		snprintf(why, whylen, "a %s digest: collision-prone", alg->name);
		return -1;
	}
	if (c->boot && name->key_len == 14 &&
	    !memcmp(name->key, "boot_aggregate", 14))
		*c->boot = true;
	if (ima_manifest_add(c->m, name->key, name->key_len, alg, digest)) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	return 0;
}

static int read_table(const struct ima_json *root, const char *field,
		      bool required, struct ima_manifest *m, size_t *count,
		      bool *boot, const char *what, char *err, size_t errlen)
{
	const struct ima_json *obj = ima_json_member(root, field);
	struct table_ctx c = { m, boot };

	if (!obj) {
		if (required)
			return ima_line_error(err, errlen, what, root->line,
				    "no \"%s\" object (a Keylime runtime policy has one)",
				    field);
		return 0;
	}
	*count = obj->type == IMA_JSON_OBJECT ? obj->count : 0;
	return ima_keylime_digests(obj, field, table_add, &c, what, err,
				   errlen);
}

/* base64 (RFC 4648, padded, no blanks): the decoded length, or -1 */
static long base64_decode(const char *s, size_t n, uint8_t *out)
{
	static const char al[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, o = 0;
	uint32_t acc = 0;
	int bits = 0, pad = 0;

	if (n % 4)
		return -1;
	for (i = 0; i < n; i++) {
		const char *c;

		if (s[i] == '=') {
			if (i < n - 2)
				return -1;
			pad++;
			continue;
		}
		if (pad || !s[i] || !(c = strchr(al, s[i])))
			return -1;
		acc = acc << 6 | (uint32_t)(c - al);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (uint8_t)(acc >> bits);
		}
	}
	/* the bits a padded end leaves must be zero */
	if (acc & ((1u << bits) - 1))
		return -1;
	return (long)o;
}

/*
 * "verification-keys": a string holding Keylime's ImaKeyring JSON
 * ({"pubkeys": [base64 DER SubjectPublicKeyInfo], "keyids": [N]}, a
 * keyid 0 or missing: computed, as Keylime does), maybe encoded twice.
 */
static int read_keys(struct ima_keylime *kl, const struct ima_json *vk,
		     const char *what, char *err, size_t errlen)
{
	struct ima_json_doc doc = { 0 }, inner = { 0 };
	const struct ima_json *root, *pubkeys, *keyids, *p, *k;
	char why[300], name[64];
	uint8_t *der = NULL;
	size_t i;
	int rc = -1;

	if (vk->type != IMA_JSON_STRING)
		return ima_line_error(err, errlen, what, vk->line,
			    "\"verification-keys\" is not a JSON string");
	if (!vk->len)
		return 0;
	if (ima_json_parse(&doc, vk->str, vk->len, "verification-keys", why,
			   sizeof(why)))
		return ima_line_error(err, errlen, what, vk->line, "%s", why);
	root = doc.root;
	if (root->type == IMA_JSON_STRING) {
		if (ima_json_parse(&inner, root->str, root->len,
				   "verification-keys", why, sizeof(why))) {
			ima_line_error(err, errlen, what, vk->line, "%s", why);
			goto out;
		}
		root = inner.root;
	}
	pubkeys = ima_json_member(root, "pubkeys");
	keyids = ima_json_member(root, "keyids");
	if (!pubkeys || pubkeys->type != IMA_JSON_ARRAY ||
	    (keyids && keyids->type != IMA_JSON_ARRAY)) {
		ima_line_error(err, errlen, what, vk->line,
		     "\"verification-keys\": no \"pubkeys\" array (and \"keyids\" must be one)");
		goto out;
	}
	for (i = 0, p = pubkeys->child, k = keyids ? keyids->child : NULL; p;
	     p = p->next, i++, k = k ? k->next : NULL) {
		long n;
		long long id = 0;

		if (k && (k->type != IMA_JSON_NUMBER || !k->integer ||
			  k->ival < 0 || k->ival > 0xffffffffLL)) {
			ima_line_error(err, errlen, what, vk->line,
			     "\"verification-keys\": keyids[%zu] is not a 32-bit key id",
			     i);
			goto out;
		}
		if (k)
			id = k->ival;
		free(der);
		der = p->type == IMA_JSON_STRING ? malloc(p->len + 1) : NULL;
		n = der ? base64_decode(p->str, p->len, der) : -1;
		snprintf(name, sizeof(name), "%s verification-keys pubkeys[%zu]",
			 kl->file ? kl->file : what, i);
		if (n <= 0) {
			ima_line_error(err, errlen, what, vk->line,
			     "\"verification-keys\": pubkeys[%zu] is not base64",
			     i);
			goto out;
		}
		if (ima_keyring_add_der_pubkey(&kl->keys, der, (size_t)n,
					       (uint32_t)id, name, why,
					       sizeof(why))) {
			ima_line_error(err, errlen, what, vk->line,
			     "\"verification-keys\": pubkeys[%zu]: %s", i, why);
			goto out;
		}
	}
	rc = 0;
out:
	free(der);
	ima_json_free(&inner);
	ima_json_free(&doc);
	return rc;
}

static int read_ima(struct ima_keylime *kl, const struct ima_json *ima,
		    const char *what, char *err, size_t errlen)
{
	const struct ima_json *v, *s;

	if (ima->type != IMA_JSON_OBJECT)
		return ima_line_error(err, errlen, what, ima->line,
			    "\"ima\" is not a JSON object");
	v = ima_json_member(ima, "dm_policy");
	if (v && v->type != IMA_JSON_NULL)
		return ima_line_error(err, errlen, what, v->line,
			    "\"ima\": a device-mapper policy (dm_policy): not read by ima-audit, so nothing it asks would be checked");
	v = ima_json_member(ima, "log_hash_alg");
	if (v) {
		if (v->type != IMA_JSON_STRING ||
		    !(kl->log_hash_alg = ima_hash_by_name(v->str, v->len)) ||
		    ima_bank_by_name(v->str, v->len) < 0 ||
		    strlen(v->str) != v->len)
			return ima_line_error(err, errlen, what, v->line,
				    "\"ima\": log_hash_alg is not sha1, sha256, sha384 or sha512");
	}
	v = ima_json_member(ima, "ignored_keyrings");
	if (!v)
		return 0;
	if (v->type != IMA_JSON_ARRAY)
		return ima_line_error(err, errlen, what, v->line,
			    "\"ima\": ignored_keyrings is not a JSON array");
	kl->ignored = calloc(v->count ? v->count : 1, sizeof(*kl->ignored));
	if (!kl->ignored)
		return ima_line_error(err, errlen, what, v->line, "out of memory");
	for (s = v->child; s; s = s->next) {
		if (s->type != IMA_JSON_STRING)
			return ima_line_error(err, errlen, what, s->line,
				    "\"ima\": an ignored keyring is not a JSON string");
		if (s->len == 1 && s->str[0] == '*')
			kl->ignore_all = true;
		kl->ignored[kl->nignored] = strndup(s->str, s->len);
		if (!kl->ignored[kl->nignored++])
			return ima_line_error(err, errlen, what, s->line, "out of memory");
	}
	return 0;
}

int ima_keylime_parse(struct ima_keylime *kl, struct ima_manifest *m,
		      struct ima_excludes *x, const char *text, size_t len,
		      const char *what, char *err, size_t errlen)
{
	const struct ima_json *root, *meta, *v, *e;
	struct ima_json_doc doc;
	char source[300];
	size_t i;
	int rc = -1;

	if (ima_json_parse(&doc, text, len, what, err, errlen))
		return -1;
	root = doc.root;
	kl->keyrings = ima_manifest_new();
	kl->bufs = ima_manifest_new();
	if (!kl->keyrings || !kl->bufs) {
		ima_line_error(err, errlen, what, 1, "out of memory");
		goto out;
	}
	if (root->type != IMA_JSON_OBJECT) {
		ima_line_error(err, errlen, what, root->line,
		     "not a JSON object: not a Keylime runtime policy");
		goto out;
	}
	if (ima_json_member(root, "payload")) {
		ima_line_error(err, errlen, what, root->line,
		     "a signed policy (a DSSE envelope): verify it and give its payload");
		goto out;
	}
	meta = ima_json_member(root, "meta");
	v = meta ? ima_json_member(meta, "version") : NULL;
	if (!v || v->type != IMA_JSON_NUMBER || !v->integer) {
		ima_line_error(err, errlen, what, meta ? meta->line : root->line,
		     "no \"meta\": {\"version\": N}: not a Keylime runtime policy (an older allowlist? keylime_convert_runtime_policy converts one)");
		goto out;
	}
	kl->version = v->ival;
	if (kl->version != IMA_KEYLIME_VERSION) {
		ima_line_error(err, errlen, what, v->line,
		     "meta.version %lld: this reader knows version %d only",
		     kl->version, IMA_KEYLIME_VERSION);
		goto out;
	}
	v = ima_json_member(root, "release");
	if (v && (v->type != IMA_JSON_NUMBER || !v->integer || v->ival < 0)) {
		ima_line_error(err, errlen, what, v->line,
		     "\"release\" is not an integer of 0 or more");
		goto out;
	}
	if (read_table(root, "digests", true, m, &kl->npaths,
		       &kl->has_boot_aggregate, what, err, errlen) ||
	    read_table(root, "keyrings", false, kl->keyrings, &kl->nkeyrings,
		       NULL, what, err, errlen) ||
	    read_table(root, "ima-buf", false, kl->bufs, &kl->nbufs, NULL,
		       what, err, errlen))
		goto out;
	v = ima_json_member(root, "excludes");
	if (v && v->type != IMA_JSON_ARRAY) {
		ima_line_error(err, errlen, what, v->line,
		     "\"excludes\" is not a JSON array");
		goto out;
	}
	for (i = 0, e = v ? v->child : NULL; e; e = e->next, i++) {
		if (e->type != IMA_JSON_STRING) {
			ima_line_error(err, errlen, what, e->line,
			     "\"excludes\": an entry is not a JSON string");
			goto out;
		}
		snprintf(source, sizeof(source), "%s:%lu: excludes[%zu]",
			 what, e->line, i);
		if (ima_excludes_add(x, e->str, e->len, source, err, errlen))
			goto out;
		kl->nexcludes++;
	}
	v = ima_json_member(root, "ima");
	if (v && read_ima(kl, v, what, err, errlen))
		goto out;
	v = ima_json_member(root, "verification-keys");
	if (v && read_keys(kl, v, what, err, errlen))
		goto out;
	if (kl->keys.n) {
		kl->verifier = ima_verifier_new(&kl->keys);
		if (!kl->verifier) {
			ima_line_error(err, errlen, what, 1, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	ima_json_free(&doc);
	return rc;
}

int ima_keylime_load(struct ima_keylime *kl, struct ima_manifest *m,
		     struct ima_excludes *x, const char *path, char *err,
		     size_t errlen)
{
	size_t n;
	char *buf = ima_read_file(path, IMA_KEYLIME_MAX_FILE, &n, err, errlen);
	int rc = -1;

	if (!buf)
		return -1;
	free(kl->file);
	kl->file = strdup(path);
	if (!kl->file)
		snprintf(err, errlen, "%s: out of memory", path);
	else
		rc = ima_keylime_parse(kl, m, x, buf, n, path, err, errlen);
	free(buf);
	return rc;
}

void ima_keylime_free(struct ima_keylime *kl)
{
	size_t i;

	if (!kl)
		return;
	ima_verifier_free(kl->verifier);
	ima_keyring_free(&kl->keys);
	ima_manifest_free(kl->keyrings);
	ima_manifest_free(kl->bufs);
	for (i = 0; i < kl->nignored; i++)
		free(kl->ignored[i]);
	free(kl->ignored);
	free(kl->file);
	memset(kl, 0, sizeof(*kl));
}

bool ima_keylime_ignores_keyring(const struct ima_keylime *kl,
				 const char *name, size_t len)
{
	size_t i;

	if (kl->ignore_all)
		return true;
	for (i = 0; i < kl->nignored; i++)
		if (strlen(kl->ignored[i]) == len &&
		    !memcmp(kl->ignored[i], name, len))
			return true;
	return false;
}

/* --- writing a policy ------------------------------------------------- */

struct out_entry {
	enum ima_keylime_table table;
	const char *name;
	size_t nlen;
	char hex[2 * IMA_MAX_DIGEST + 1];
};

struct ima_keylime_out {
	struct out_entry *e;
	size_t n, cap;
	char **names;		/* copies */
	size_t nnames, cap_names;
};

struct ima_keylime_out *ima_keylime_out_new(void)
{
	return calloc(1, sizeof(struct ima_keylime_out));
}

void ima_keylime_out_free(struct ima_keylime_out *o)
{
	size_t i;

	if (!o)
		return;
	for (i = 0; i < o->nnames; i++)
		free(o->names[i]);
	free(o->names);
	free(o->e);
	free(o);
}

/* Valid UTF-8 (a JSON string of characters can hold it), no NUL. */
static bool utf8_name(const unsigned char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		if (!s[i])
			return false;
		k = s[i] < 0x80 ? 1 : ima_utf8_len(s + i, n - i);
		if (!k)
			return false;
		i += k;
	}
	return true;
}

int ima_keylime_out_add(struct ima_keylime_out *o, enum ima_keylime_table t,
			const char *name, size_t nlen,
			const struct ima_hash_algo *alg,
			const uint8_t *digest)
{
	struct out_entry *e;
	char *copy;

	if (!utf8_name((const unsigned char *)name, nlen))
		return 1;
	e = ima_reserve(o->e, &o->cap, o->n, sizeof(*e));
	if (!e)
		return -1;
	o->e = e;
	/* names repeat (a file measured twice): keep the last copy */
	if (o->nnames && strlen(o->names[o->nnames - 1]) == nlen &&
	    !memcmp(o->names[o->nnames - 1], name, nlen)) {
		copy = o->names[o->nnames - 1];
	} else {
		char **nn = ima_reserve(o->names, &o->cap_names, o->nnames,
					sizeof(*nn));

		if (!nn)
			return -1;
		o->names = nn;
		copy = strndup(name, nlen);
		if (!copy)
			return -1;
		o->names[o->nnames++] = copy;
	}
	e = &o->e[o->n++];
	e->table = t;
	e->name = copy;
	e->nlen = nlen;
	ima_bin2hex(digest, alg->size, e->hex);
	return 0;
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct out_entry *a = pa, *b = pb;
	size_t n = a->nlen < b->nlen ? a->nlen : b->nlen;
	int c;

	if (a->table != b->table)
		return a->table < b->table ? -1 : 1;
	c = memcmp(a->name, b->name, n);
	if (c)
		return c;
	if (a->nlen != b->nlen)
		return a->nlen < b->nlen ? -1 : 1;
	return strcmp(a->hex, b->hex);
}

/* A JSON string as Python's json.dumps writes it (ensure_ascii). */
static void json_name(FILE *out, const unsigned char *s, size_t n)
{
	size_t i = 0;

	fputc('"', out);
	while (i < n) {
		uint32_t cp = s[i];
		size_t k = 1, j;

		if (cp >= 0x80) {
			k = cp < 0xe0 ? 2 : cp < 0xf0 ? 3 : 4;
			cp &= 0x7f >> k;
			for (j = 1; j < k; j++)
				cp = cp << 6 | (s[i + j] & 0x3f);
		}
		i += k;
		if (cp == '"' || cp == '\\')
			fprintf(out, "\\%c", (char)cp);
		else if (cp == '\n')
			fputs("\\n", out);
		else if (cp == '\r')
			fputs("\\r", out);
		else if (cp == '\t')
			fputs("\\t", out);
		else if (cp < 0x20 || (cp >= 0x7f && cp < 0x10000))
			fprintf(out, "\\u%04x", cp);
		else if (cp >= 0x10000)
			fprintf(out, "\\u%04x\\u%04x",
				0xd800 + ((cp - 0x10000) >> 10),
				0xdc00 + ((cp - 0x10000) & 0x3ff));
		else
			fputc((int)cp, out);
	}
	fputc('"', out);
}

static void write_table(FILE *out, const struct out_entry *e, size_t n,
			enum ima_keylime_table t, const char *field)
{
	size_t i;
	bool first = true;

	fprintf(out, " \"%s\": {", field);
	for (i = 0; i < n; i++) {
		if (e[i].table != t)
			continue;
		if (i && e[i - 1].table == t && e[i - 1].nlen == e[i].nlen &&
		    !memcmp(e[i - 1].name, e[i].name, e[i].nlen)) {
			if (strcmp(e[i - 1].hex, e[i].hex))
				fprintf(out, ",\n   \"%s\"", e[i].hex);
			continue;
		}
		fputs(first ? "\n  " : "\n  ],\n  ", out);
		first = false;
		json_name(out, (const unsigned char *)e[i].name, e[i].nlen);
		fprintf(out, ": [\n   \"%s\"", e[i].hex);
	}
	fputs(first ? "},\n" : "\n  ]\n },\n", out);
}

int ima_keylime_write(const struct ima_keylime_out *o,
		      const struct ima_hash_algo *log_hash_alg, FILE *out)
{
	struct out_entry *e = NULL;

	if (o->n) {
		e = malloc(o->n * sizeof(*e));
		if (!e)
			return -1;
		memcpy(e, o->e, o->n * sizeof(*e));
		qsort(e, o->n, sizeof(*e), cmp_entry);
	}
	fprintf(out, "{\n \"meta\": {\n  \"version\": %d,\n  \"generator\": 0\n },\n \"release\": 0,\n",
		IMA_KEYLIME_VERSION);
	write_table(out, e, o->n, IMA_KL_DIGESTS, "digests");
	fputs(" \"excludes\": [],\n", out);
	write_table(out, e, o->n, IMA_KL_KEYRINGS, "keyrings");
	fprintf(out, " \"ima\": {\n  \"ignored_keyrings\": [],\n  \"log_hash_alg\": \"%s\",\n  \"dm_policy\": null\n },\n",
		log_hash_alg ? log_hash_alg->name : "sha1");
	write_table(out, e, o->n, IMA_KL_BUFS, "ima-buf");
	fputs(" \"verification-keys\": \"\"\n}\n", out);
	free(e);
	return ferror(out) ? -1 : 0;
}
