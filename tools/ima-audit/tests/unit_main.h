/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The main() of every cmocka unit-test binary of both tools (ima-audit's
 * tests/test_*.c and ima-attest's): the file's tests, run as one group
 * with its setup and teardown (NULL: none), TAP when the environment asks
 * for it (CMOCKA_MESSAGE_OUTPUT=TAP, as tests/run-check.sh does).
 *
 *	UNIT_TEST_MAIN(NULL, NULL,
 *		cmocka_unit_test(test_one),
 *		cmocka_unit_test(test_two))
 *
 * Include it after <cmocka.h>.
 */
#ifndef UNIT_MAIN_H
#define UNIT_MAIN_H

#define UNIT_TEST_MAIN(setup, teardown, ...)				\
int main(void)								\
{									\
	const struct CMUnitTest tests[] = { __VA_ARGS__ };		\
									\
	return cmocka_run_group_tests(tests, setup, teardown);		\
}

#endif
