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
 * The long option of opts (NULL-terminated table) closest to arg
 * ("--manifets=x", "manifets"): within two edits (insert, delete,
 * replace, swap of neighbours), at most one per three letters of the
 * option; NULL when none is.
 */
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
