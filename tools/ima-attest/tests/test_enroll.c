// SPDX-License-Identifier: GPL-2.0-only
/*
 * Enrollment: the guest's answer to a challenge, and the record of what
 * an enrollment proved (written, read back field by field, refused when
 * any field does not check).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ima_attest.h"

static int parse(struct att_msg *m, const char *s)
{
	char err[160];

	return att_msg_parse(m, s, strlen(s), err, sizeof(err));
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

/*
 * The guest's word on a failed activation is quoted in the reason, which
 * the enrollment record and the report print one a line: a "why" that
 * holds "\nPASS AK binding" would print a line of its own. It is escaped.
 */
static void test_failed_why_escaped(void **state)
{
	struct att_enroll e = { 0 };
	struct att_msg m;
	/* why = "x\nPASS AK binding\x1b[2K" */
	static const char line[] =
		"FAILED why=780a5041535320414b2062696e64696e671b5b324b";

	e.challenged = true;
	assert_int_equal(parse(&m, line), 0);
	assert_false(att_enroll_answer(&e, &m));
	att_msg_free(&m);
	assert_int_equal(e.rs.n, 1);
	assert_string_equal(e.rs.r[0],
			    "credential activation failed in the guest: x\\x0aPASS AK binding\\x1b[2K");
	assert_true(printable(e.rs.r[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failed_why_escaped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
