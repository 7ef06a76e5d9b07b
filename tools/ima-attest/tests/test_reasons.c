// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reasons and their classes: every reason kept (no silent cut), escaped
 * once, each with a class whose name is one of a list where no two
 * classes share a name, ima-audit's among them unchanged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "att_verdict.h"
#include "ima_attest.h"
#include "unit_main.h"

/* a round with 300 failing entries prints 300 reasons (before: 8) */
static void test_every_reason_kept(void **state)
{
	struct att_reasons rs = { 0 };
	char want[64];
	int i;

	for (i = 0; i < 300; i++)
		att_reason(&rs, IMA_FC_UNSIGNED, "entry %d: unsigned", i);
	assert_int_equal(rs.n, 300);
	assert_int_equal(rs.lost, 0);
	for (i = 0; i < 300; i++) {
		snprintf(want, sizeof(want), "entry %d: unsigned", i);
		assert_string_equal(rs.r[i], want);
		assert_int_equal(rs.cls[i], IMA_FC_UNSIGNED);
	}
	att_reasons_free(&rs);
	assert_int_equal(rs.n, 0);
	assert_null(rs.r);
}

/*
 * A reason quoting the guest is escaped when made; copied under a prefix
 * (the enrollment's reasons under verify's) it is not escaped again
 * (before, "\x0a" became "\x5cx0a"), and its class goes with it.
 */
static void test_escaped_once(void **state)
{
	struct att_reasons a = { 0 }, b = { 0 };

	att_reason(&a, ATT_FC_ACTIVATION, "why: %s", "x\nPASS\x1b[2K\\");
	assert_string_equal(a.r[0], "why: x\\x0aPASS\\x1b[2K\\x5c");
	assert_int_equal(att_reasons_append(&b, &a, "enrollment: "), 1);
	assert_string_equal(b.r[0], "enrollment: why: x\\x0aPASS\\x1b[2K\\x5c");
	assert_int_equal(b.cls[0], ATT_FC_ACTIVATION);
	/* a record's reason, read back as written */
	att_reason_text(&b, ATT_FC_ENROLLMENT, "as \\x0a written");
	assert_string_equal(b.r[1], "as \\x0a written");
	att_reasons_free(&a);
	att_reasons_free(&b);
}

/* the names: ima-audit's as it names them, ours after, none twice */
static void test_class_names(void **state)
{
	static const char *const audit[] = {
#define AUDIT_NAME(id, name) name,
		IMA_FAIL_CLASSES(AUDIT_NAME)
#undef AUDIT_NAME
	};
	const char *a, *b;
	int i, j;

	assert_int_equal(sizeof(audit) / sizeof(audit[0]), IMA_FC_COUNT);
	for (i = 0; i < IMA_FC_COUNT; i++)
		assert_string_equal(att_fail_class_name(i), audit[i]);
	assert_int_equal(ATT_FC_EK_CERT, IMA_FC_COUNT);
	for (i = 0; i < ATT_FC_COUNT; i++) {
		a = att_fail_class_name(i);
		assert_non_null(a);
		for (j = 0; a[j]; j++)
			assert_true((a[j] >= 'a' && a[j] <= 'z') || a[j] == '-');
		for (j = i + 1; j < ATT_FC_COUNT; j++) {
			b = att_fail_class_name(j);
			if (!strcmp(a, b))
				fail_msg("classes %d and %d are both named %s", i, j, a);
		}
	}
	assert_string_equal(att_fail_class_name(ATT_FC_EK_CERT), "ek-certificate");
	assert_string_equal(att_fail_class_name(ATT_FC_COUNT), "failure");
	assert_string_equal(att_fail_class_name(-1), "failure");
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_every_reason_kept),
	cmocka_unit_test(test_escaped_once),
	cmocka_unit_test(test_class_names))
