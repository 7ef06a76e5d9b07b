// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host-guest channel's messages: one line each, "VERB key=HEX ...",
 * at most ATT_MSG_MAX bytes, at most ATT_MSG_FIELDS fields, each key once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ima_attest.h"

static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static size_t word(const char *s, size_t len, size_t off)
{
	while (off < len && s[off] != ' ')
		off++;
	return off;
}

int att_msg_parse(struct att_msg *m, const char *line, size_t len, char *err,
		  size_t errlen)
{
	size_t off, end, i;

	memset(m, 0, sizeof(*m));
	if (len > ATT_MSG_MAX) {
		snprintf(err, errlen, "message of %zu bytes (max %u)", len,
			 ATT_MSG_MAX);
		return -1;
	}
	end = word(line, len, 0);
	if (end == 0 || end >= sizeof(m->verb)) {
		snprintf(err, errlen, "message without a verb");
		return -1;
	}
	for (i = 0; i < end; i++)
		if (line[i] < 'A' || line[i] > 'Z') {
			snprintf(err, errlen, "verb is not upper-case letters");
			return -1;
		}
	memcpy(m->verb, line, end);
	off = end;
	while (off < len) {
		const char *eq;
		size_t klen, vlen, j;
		int f;

		if (line[off] != ' ') {
			snprintf(err, errlen, "junk at byte %zu", off);
			goto bad;
		}
		off++;
		end = word(line, len, off);
		eq = memchr(line + off, '=', end - off);
		if (!eq) {
			snprintf(err, errlen, "field without '=' at byte %zu", off);
			goto bad;
		}
		klen = (size_t)(eq - (line + off));
		vlen = end - off - klen - 1;
		if (klen == 0 || klen >= sizeof(m->key[0]) || vlen % 2) {
			snprintf(err, errlen, "bad field at byte %zu", off);
			goto bad;
		}
		if (m->nfields == ATT_MSG_FIELDS) {
			snprintf(err, errlen, "more than %d fields", ATT_MSG_FIELDS);
			goto bad;
		}
		for (j = 0; j < klen; j++) {
			char k = line[off + j];

			if (!((k >= 'a' && k <= 'z') || (k >= '0' && k <= '9') || k == '_')) {
				snprintf(err, errlen, "field name not [a-z0-9_] at byte %zu", off);
				goto bad;
			}
		}
		f = m->nfields;
		memcpy(m->key[f], line + off, klen);
		m->key[f][klen] = '\0';
		if (att_msg_get(m, m->key[f], NULL)) {
			snprintf(err, errlen, "field %s given twice", m->key[f]);
			goto bad;
		}
		m->val[f] = malloc(vlen / 2 + 1);
		if (!m->val[f]) {
			snprintf(err, errlen, "out of memory");
			goto bad;
		}
		m->nfields++;
		for (j = 0; j < vlen / 2; j++) {
			int hi = nibble(eq[1 + 2 * j]), lo = nibble(eq[2 + 2 * j]);

			if (hi < 0 || lo < 0) {
				snprintf(err, errlen, "field %s is not hex", m->key[f]);
				goto bad;
			}
			m->val[f][j] = (uint8_t)(hi << 4 | lo);
		}
		m->len[f] = vlen / 2;
		off = end;
	}
	return 0;
bad:
	att_msg_free(m);
	return -1;
}

const uint8_t *att_msg_get(const struct att_msg *m, const char *key,
			   size_t *len)
{
	int i;

	for (i = 0; i < m->nfields; i++)
		if (m->val[i] && !strcmp(m->key[i], key)) {
			if (len)
				*len = m->len[i];
			return m->val[i];
		}
	return NULL;
}

void att_msg_free(struct att_msg *m)
{
	int i;

	for (i = 0; i < m->nfields; i++)
		free(m->val[i]);
	m->nfields = 0;
}

int att_msg_set(struct att_msg *m, const char *key, const uint8_t *val,
		size_t len)
{
	int f = m->nfields;

	if (f == ATT_MSG_FIELDS || strlen(key) >= sizeof(m->key[0]) ||
	    att_msg_get(m, key, NULL))
		return -1;
	m->val[f] = malloc(len ? len : 1);
	if (!m->val[f])
		return -1;
	memcpy(m->val[f], val, len);
	snprintf(m->key[f], sizeof(m->key[f]), "%s", key);
	m->len[f] = len;
	m->nfields++;
	return 0;
}
