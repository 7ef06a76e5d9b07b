/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A table of inputs a reader must refuse, each with words its error must
 * hold, run through the test's reader: REFUSED_ALL(table, refuses).
 * Include it after <cmocka.h>.
 */
#ifndef REFUSALS_H
#define REFUSALS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct refusal {
	const char *text, *why;
};

/* false if the reader accepted text; else its error in err[256] */
typedef bool refuses_fn(const char *text, char *err);

static inline void refused_all(const struct refusal *r, size_t n,
			       refuses_fn *refuses)
{
	char err[256];
	size_t i;

	for (i = 0; i < n; i++) {
		err[0] = '\0';
		if (!refuses(r[i].text, err))
			fail_msg("'%s' was accepted", r[i].text);
		if (!strstr(err, r[i].why))
			fail_msg("'%s': '%s' lacks '%s'", r[i].text, err,
				 r[i].why);
	}
}

#define REFUSED_ALL(table, refuses) \
	refused_all((table), sizeof(table) / sizeof((table)[0]), (refuses))

#endif
