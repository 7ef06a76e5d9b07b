// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mistyped options (ima_cli.h).
 */
#include <stdio.h>
#include <string.h>

#include "ima_cli.h"

/* arg without its leading dashes and any "=value": its length */
static size_t bare(const char **arg)
{
	const char *eq;

	while (**arg == '-')
		(*arg)++;
	eq = strchr(*arg, '=');
	return eq ? (size_t)(eq - *arg) : strlen(*arg);
}

/*
 * Optimal string alignment distance (a swap of neighbours one edit),
 * capped at cap + 1; words of 63 bytes or more are too far.
 */
static size_t distance(const char *a, size_t n, const char *b, size_t m,
		       size_t cap)
{
	size_t d[3][64], i, j;

	if (n >= 63 || m >= 63)
		return cap + 1;
	for (j = 0; j <= m; j++)
		d[0][j] = j;
	for (i = 1; i <= n; i++) {
		size_t *cur = d[i % 3], *prev = d[(i - 1) % 3],
		       *pp = d[(i + 1) % 3], best = cap + 1;

		cur[0] = i;
		for (j = 1; j <= m; j++) {
			size_t c = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < c)
				c = prev[j] + 1;
			if (cur[j - 1] + 1 < c)
				c = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < c)
				c = pp[j - 2] + 1;
			cur[j] = c;
			if (c < best)
				best = c;
		}
		if (best > cap)
			return cap + 1;
	}
	return d[n % 3][m];
}

const char *ima_cli_nearest(const char *word, size_t len,
			    const char *const *names, int n)
{
	/* a slip of the keys, not another word */
	size_t cap = len < 4 ? 1 : len < 12 ? 2 : 3, bestd = cap + 1, d;
	const char *best = NULL;
	int i;

	for (i = 0; i < n; i++) {
		d = distance(word, len, names[i], strlen(names[i]), cap);
		if (d < bestd) {
			bestd = d;
			best = names[i];
		}
	}
	return best;
}

const char *ima_cli_suggest(const struct option *opts, const char *arg)
{
	const char *names[256];
	size_t len = bare(&arg);
	int n = 0;

	for (; opts->name && n < 256; opts++)
		names[n++] = opts->name;
	return ima_cli_nearest(arg, len, names, n);
}

int ima_cli_prefixes(const struct option *opts, const char *arg, char *buf,
		     size_t len)
{
	size_t n = bare(&arg), used = 0;
	int count = 0;

	if (len)
		buf[0] = '\0';
	for (; opts->name; opts++) {
		if (strncmp(opts->name, arg, n))
			continue;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s--%s", count ? ", " : "",
						 opts->name);
		count++;
	}
	return count;
}

const char *ima_cli_name(const struct option *opts, int val)
{
	for (; opts->name; opts++)
		if (opts->val == val)
			return opts->name;
	return NULL;
}
