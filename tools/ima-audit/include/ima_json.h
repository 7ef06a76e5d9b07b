/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one JSON reader of the reference files (a Keylime runtime policy,
 * given to --manifest or --deny): RFC 8259, read whole into a tree.
 *
 * Strict where a lenient reader would let two readers see two documents:
 * a duplicate key in an object (Python keeps the last, others the first),
 * a lone UTF-16 surrogate in a \u escape (no character; what Python writes
 * for a byte it could not decode), bytes that are not UTF-8, a control
 * character in a string, NaN/Infinity, leading zeros and a byte order
 * mark are refused. Strings are decoded (escapes, surrogate pairs) to
 * UTF-8 bytes, NUL-terminated (a \u0000 stays in: len counts it).
 * Bounded: IMA_JSON_MAX_DEPTH nested containers, IMA_JSON_MAX_VALUES
 * values.
 */
#ifndef IMA_JSON_H
#define IMA_JSON_H

#include <stdbool.h>
#include <stddef.h>

#define IMA_JSON_MAX_DEPTH	64
#define IMA_JSON_MAX_VALUES	(4u << 20)

enum ima_json_type {
	IMA_JSON_NULL,
	IMA_JSON_FALSE,
	IMA_JSON_TRUE,
	IMA_JSON_NUMBER,
	IMA_JSON_STRING,
	IMA_JSON_ARRAY,
	IMA_JSON_OBJECT,
};

struct ima_json {
	enum ima_json_type type;
	unsigned long line;		/* where the value starts, from 1 */
	const char *str;		/* STRING: decoded, NUL-terminated */
	size_t len;
	const char *key;		/* a member of an object: its name */
	size_t key_len;
	bool integer;			/* NUMBER: an integer that fits ival */
	long long ival;
	size_t count;			/* ARRAY, OBJECT: its values */
	struct ima_json *child;		/* ARRAY, OBJECT: the first one */
	struct ima_json *next;		/* the next in its container */
};

struct ima_json_block;

struct ima_json_doc {
	const struct ima_json *root;
	char *strings;			/* the decoded strings */
	struct ima_json_block *blocks;	/* the values */
	size_t nvalues;
};

/*
 * Parses the whole text (one value, blanks around it). 0, or -1 with err
 * "WHAT:LINE: why"; doc then holds nothing to free.
 */
int ima_json_parse(struct ima_json_doc *doc, const char *text, size_t len,
		   const char *what, char *err, size_t errlen);
void ima_json_free(struct ima_json_doc *doc);
/* The member of an object named key (a C string), or NULL. */
const struct ima_json *ima_json_member(const struct ima_json *obj,
				       const char *key);
/* "an object", "a string", ...: for messages */
const char *ima_json_type_name(enum ima_json_type type);

#endif
