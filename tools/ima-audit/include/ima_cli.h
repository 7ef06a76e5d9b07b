/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a command tells a user who mistyped an option: the option meant
 * (did you mean), or the options an abbreviation could be.
 */
#ifndef IMA_CLI_H
#define IMA_CLI_H

#include <getopt.h>
#include <stddef.h>

/*
 * The name of names[] nearest to word (len bytes) within the edits a slip
 * of the keys makes -- insert, delete, replace, a swap of neighbours: one
 * for a word under 4 letters, two under 12, three beyond -- or NULL. The
 * rule of both tools (ima-audit's options, ima-attest's commands and
 * options).
 */
const char *ima_cli_nearest(const char *word, size_t len,
			    const char *const *names, int n);
/* The long option of opts (a NULL-terminated table) nearest to arg
 * ("--manifets=x", "manifets"), by ima_cli_nearest(), or NULL. */
const char *ima_cli_suggest(const struct option *opts, const char *arg);
/*
 * The long options arg abbreviates, "--a, --b" into buf (len bytes);
 * returns how many.
 */
int ima_cli_prefixes(const struct option *opts, const char *arg, char *buf,
		     size_t len);
/* The long name of the option whose val is val, or NULL. */
const char *ima_cli_name(const struct option *opts, int val);

#endif
