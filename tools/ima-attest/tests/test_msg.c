// SPDX-License-Identifier: GPL-2.0-only
/* The channel's message lines: what parses and what is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ima_attest.h"
#include "unit_main.h"

static int parse(struct att_msg *m, const char *s, char *err)
{
	return att_msg_parse(m, s, strlen(s), err, 160);
}

static void test_good(void **state)
{
	struct att_msg m;
	const uint8_t *v;
	char err[160];
	size_t n;

	assert_int_equal(parse(&m, "ENROLL a=00ff b= c=DEAD", err), 0);
	assert_string_equal(m.verb, "ENROLL");
	v = att_msg_get(&m, "a", &n);
	assert_int_equal(n, 2);
	assert_int_equal(v[1], 0xff);
	assert_non_null(att_msg_get(&m, "b", &n));
	assert_int_equal(n, 0);
	v = att_msg_get(&m, "c", &n);
	assert_int_equal(v[0], 0xde);
	assert_null(att_msg_get(&m, "d", &n));
	att_msg_free(&m);
	assert_int_equal(parse(&m, "RESULT", err), 0);
	att_msg_free(&m);
}

static void test_refused(void **state)
{
	static const char *bad[] = {
		"", "enroll", " ENROLL", "ENROLL a=0", "ENROLL a=zz", "ENROLL a",
		"ENROLL =00", "ENROLL a=00 a=01", "ENROLL a=00  b=00",
		"ENROLL a=0 b=1 c=2 d=3 e=4 f=5 g=6 h=7 i=8",
		"ENROLL a=00 b=00 c=00 d=00 e=00 f=00 g=00 h=00 i=00",
		"ENROLLMENTTOOLONGVERBXXXXXXXXXXXXXXXXX",
		"QUOTED ../x=00", "QUOTED a/b=00", "QUOTED A=00",
	};
	struct att_msg m;
	char err[160];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse(&m, bad[i], err) != -1)
			fail_msg("'%s' parsed", bad[i]);
	/* longer than ATT_MSG_MAX */
	{
		size_t n = ATT_MSG_MAX + 2;
		char *s = malloc(n);

		memset(s, 'a', n);
		memcpy(s, "X a=", 4);
		assert_int_equal(att_msg_parse(&m, s, n, err, sizeof(err)), -1);
		free(s);
	}
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_good),
	cmocka_unit_test(test_refused))
