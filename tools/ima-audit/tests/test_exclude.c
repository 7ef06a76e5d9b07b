// SPDX-License-Identifier: GPL-2.0-only
/*
 * Exclude patterns (ima_exclude.h): Python's re.match, which Keylime
 * calls, is the reference. tests/exclude_cases.h (gen/mkexclude.py) holds
 * patterns of the syntax the translation accepts, each against paths,
 * with Python's answer; then patterns Python refuses and patterns POSIX
 * ERE cannot say the same way, which must be refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "exclude_cases.h"
#include "ima_exclude.h"
#include "unit_main.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_python_agrees(void **state)
{
	struct ima_excludes *x = NULL;
	const char *last = NULL;
	char err[512];
	size_t i, which, bad = 0;

	for (i = 0; i < N(exclude_cases); i++) {
		int m;

		if (!last || strcmp(last, exclude_cases[i].re)) {
			ima_excludes_free(x);
			x = ima_excludes_new();
			assert_non_null(x);
			last = exclude_cases[i].re;
			if (ima_excludes_add(x, last, strlen(last), "t", err,
					     sizeof(err)))
				fail_msg("'%s' refused: %s", last, err);
		}
		m = ima_excludes_match(x, exclude_cases[i].path,
				       strlen(exclude_cases[i].path), &which);
		if (m != exclude_cases[i].match) {
			print_error("'%s' against '%s': %d, Python %d\n", last,
				    exclude_cases[i].path, m,
				    exclude_cases[i].match);
			bad++;
		}
	}
	ima_excludes_free(x);
	assert_int_equal(bad, 0);
}

static void test_refused(void **state)
{
	struct ima_excludes *x = ima_excludes_new();
	char err[512];
	size_t i;

	for (i = 0; i < N(exclude_refused); i++) {
		const char *re = exclude_refused[i];

		if (!ima_excludes_add(x, re, strlen(re), "t", err,
				      sizeof(err)))
			fail_msg("'%s' was accepted", re);
		assert_non_null(strstr(err, "t: '"));
	}
	assert_int_equal(ima_excludes_count(x), 0);
	ima_excludes_free(x);
}

/* A path outside printable ASCII is tested against no pattern. */
static void test_untested(void **state)
{
	struct ima_excludes *x = ima_excludes_new();
	char err[256];
	size_t which = 99;

	assert_int_equal(ima_excludes_add(x, ".*", 2, "t", err, sizeof(err)),
			 0);
	assert_int_equal(ima_excludes_match(x, "/a\nb", 4, &which),
			 IMA_EXCLUDE_UNTESTED);
	assert_int_equal(ima_excludes_match(x, "/caf\xc3\xa9", 6, &which),
			 IMA_EXCLUDE_UNTESTED);
	assert_int_equal(ima_excludes_match(x, "/cafe", 5, &which),
			 IMA_EXCLUDE_YES);
	assert_int_equal(which, 0);
	ima_excludes_free(x);
}

/* The translations named in ima_exclude.h, as they are written. */
static void test_translations(void **state)
{
	static const struct {
		const char *py, *ere;
	} t[] = {
		{ "/tmp/.*", "^(/tmp/.*)" },
		{ "(?:/usr)?/bin", "^((/usr)?/bin)" },
		{ "a{,3}?", "^(a{0,3})" },
		{ "\\d\\.", "^([0123456789]\\.)" },
		{ "[\\]x-]", "^([]x-])" },
		{ "x{y", "^(x\\{y)" },
		{ "\\A/a\\Z", "^(^/a$)" },
	};
	char out[4096], err[256];
	size_t i;

	for (i = 0; i < N(t); i++) {
		assert_int_equal(ima_exclude_translate(t[i].py,
						       strlen(t[i].py), out,
						       sizeof(out), err,
						       sizeof(err)), 0);
		assert_string_equal(out, t[i].ere);
	}
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_python_agrees),
	cmocka_unit_test(test_refused),
	cmocka_unit_test(test_untested),
	cmocka_unit_test(test_translations))
