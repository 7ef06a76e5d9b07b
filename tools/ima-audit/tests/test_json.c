// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON reader (ima_json.h): what it decodes, and what it refuses
 * because two readers of the file could see two documents.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ima_json.h"
#include "refusals.h"
#include "unit_main.h"

static int parse(struct ima_json_doc *d, const char *text, char *err)
{
	return ima_json_parse(d, text, strlen(text), "j", err, 256);
}

static void test_values(void **state)
{
	struct ima_json_doc d;
	const struct ima_json *v, *a;
	char err[256];

	assert_int_equal(parse(&d,
			       "{\"s\": \"a\\\"b\\\\c\\/\\n\\u00e9\\ud83d\\ude00\\u0000z\",\n"
			       " \"n\": -12, \"f\": 1.5e3, \"big\": 99999999999999999999,\n"
			       " \"a\": [true, false, null, {}], \"e\": []}",
			       err), 0);
	v = ima_json_member(d.root, "s");
	assert_non_null(v);
	assert_int_equal(v->type, IMA_JSON_STRING);
	assert_int_equal(v->len, 15);
	assert_memory_equal(v->str, "a\"b\\c/\n\xc3\xa9\xf0\x9f\x98\x80\0z",
			    15);
	v = ima_json_member(d.root, "n");
	assert_true(v->integer);
	assert_int_equal(v->ival, -12);
	assert_int_equal(v->line, 2);
	assert_false(ima_json_member(d.root, "f")->integer);
	assert_false(ima_json_member(d.root, "big")->integer);
	a = ima_json_member(d.root, "a");
	assert_int_equal(a->type, IMA_JSON_ARRAY);
	assert_int_equal(a->count, 4);
	assert_int_equal(a->child->type, IMA_JSON_TRUE);
	assert_int_equal(a->child->next->next->type, IMA_JSON_NULL);
	assert_int_equal(a->child->next->next->next->type, IMA_JSON_OBJECT);
	assert_int_equal(ima_json_member(d.root, "e")->count, 0);
	assert_null(ima_json_member(d.root, "missing"));
	ima_json_free(&d);
}

/* text refused: its error in err, and no document kept */
static bool json_refuses(const char *text, char *err)
{
	struct ima_json_doc d;

	if (!parse(&d, text, err))
		return false;
	assert_null(d.root);
	return true;
}

static void test_refused(void **state)
{
	static const struct refusal bad[] = {
		{ "{\"a\": 1,\n \"a\": 2}", "j:2: duplicate key 'a'" },
		{ "{\"a\": 1, \"b\": {\"x\": 1, \"x\": 1}}", "duplicate key 'x'" },
		{ "[\"\\udcff\"]", "lone surrogate \\udcff" },
		{ "[\"\\ud83d\"]", "lone surrogate \\ud83d" },
		{ "[\"\\ud83dx\"]", "lone surrogate" },
		{ "\xef\xbb\xbf{}", "byte order mark" },
		{ "[01]", "leading zero" },
		{ "[1.]", "without digits after '.'" },
		{ "[1e]", "without an exponent" },
		{ "[NaN]", "not a JSON value" },
		{ "[Infinity]", "not a JSON value" },
		{ "[\"a\tb\"]", "control character 0x09" },
		{ "[\"\xff\"]", "byte 0xff in a JSON string is not UTF-8" },
		{ "[\"\xc0\xaf\"]", "is not UTF-8" },
		{ "[\"\\x41\"]", "bad escape" },
		{ "[\"\\u12\"]", "bad \\u escape" },
		{ "{} x", "bytes after the JSON object" },
		{ "[1] [", "bytes after the JSON value" },
		{ "{\"a\" 1}", "expected ':'" },
		{ "[1 2]", "expected ','" },
		{ "[1,", "JSON ends early" },
		{ "{\"a", "unterminated JSON string" },
		{ "", "JSON ends early" },
		{ "{1: 2}", "expected a JSON string" },
	};

	REFUSED_ALL(bad, json_refuses);
}

static void test_bounds(void **state)
{
	struct ima_json_doc d;
	char text[512], err[256];

	memset(text, '[', IMA_JSON_MAX_DEPTH);
	memset(text + IMA_JSON_MAX_DEPTH, ']', IMA_JSON_MAX_DEPTH);
	text[2 * IMA_JSON_MAX_DEPTH] = '\0';
	assert_int_equal(parse(&d, text, err), 0);
	ima_json_free(&d);
	memset(text, '[', IMA_JSON_MAX_DEPTH + 1);
	memset(text + IMA_JSON_MAX_DEPTH + 1, ']', IMA_JSON_MAX_DEPTH + 1);
	text[2 * IMA_JSON_MAX_DEPTH + 2] = '\0';
	assert_int_equal(parse(&d, text, err), -1);
	assert_non_null(strstr(err, "nested too deep"));
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_values),
	cmocka_unit_test(test_refused),
	cmocka_unit_test(test_bounds))
