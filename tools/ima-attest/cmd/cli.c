// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every command shares: its options parsed from its declaration
 * (struct att_opt), --help from the same declaration, every usage error
 * named (the nearest option suggested), and the output's frame: the
 * reasons with their classes as text, or one JSON object that names the
 * tool, its version, the command and every input given, errors included.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "att_cmd.h"
#include "att_verdict.h"
#include "ima_audit.h"
#include "ima_cli.h"
#include "ima_hash.h"

#define OPT_BASE	256
#define OPT_JSON	1
#define OPT_HELP	'h'

/* --- text ------------------------------------------------------------ */

void att_text(FILE *out, const char *s)
{
	ima_text_escape(out, s, strlen(s));
}

static void class_counts(const struct att_reasons *rs, int *count)
{
	int i;

	memset(count, 0, ATT_FC_COUNT * sizeof(*count));
	for (i = 0; i < rs->n; i++)
		if (rs->cls[i] >= 0 && rs->cls[i] < ATT_FC_COUNT)
			count[rs->cls[i]]++;
		else
			count[IMA_FC_GENERIC]++;
}

void att_print_reasons(FILE *out, const struct att_reasons *rs)
{
	int count[ATT_FC_COUNT], i, k = 0;

	for (i = 0; i < rs->n; i++)
		fprintf(out, "reason: %s\n", rs->r[i]);
	if (rs->lost)
		fprintf(out, "reason: %lu more failures not recorded (out of memory)\n",
			rs->lost);
	if (!rs->n)
		return;
	class_counts(rs, count);
	fprintf(out, "failures: %lu (", (unsigned long)rs->n + rs->lost);
	for (i = 0; i < ATT_FC_COUNT; i++)
		if (count[i])
			fprintf(out, "%s%s %d", k++ ? ", " : "",
				att_fail_class_name(i), count[i]);
	fputs(")\n", out);
}

/* --- JSON ------------------------------------------------------------ */

void att_json_key(FILE *out, const char *key)
{
	fprintf(out, ",\"%s\":", key);
}

void att_json_str(FILE *out, const char *s)
{
	att_json_path(out, s, NULL);
}

void att_json_path(FILE *out, const char *dir, const char *name)
{
	if (!dir) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	ima_json_escape(out, dir, strlen(dir));
	if (name) {
		fputc('/', out);
		ima_json_escape(out, name, strlen(name));
	}
	fputc('"', out);
}

void att_json_hex(FILE *out, const uint8_t *p, size_t n)
{
	char h[2 * ATT_MAX_PUBLIC + 1];

	if (!p || !n || n > ATT_MAX_PUBLIC) {
		fputs("null", out);
		return;
	}
	ima_bin2hex(p, n, h);
	fprintf(out, "\"%s\"", h);
}

void att_json_strs(FILE *out, const char *const *s, int n)
{
	int i;

	fputc('[', out);
	for (i = 0; i < n; i++) {
		fputs(i ? "," : "", out);
		att_json_str(out, s[i]);
	}
	fputc(']', out);
}

void att_json_banks(FILE *out, const struct att_evlog *ev)
{
	char name[32];
	int j;

	fputc('[', out);
	for (j = 0; j < ev->nbanks; j++) {
		fputs(j ? "," : "", out);
		att_json_str(out, att_evlog_bank_name(ev, j, name, sizeof(name)));
	}
	fputc(']', out);
}

void att_json_begin(struct att_cli *cli)
{
	FILE *out = cli->out;
	int i, k;

	fputs("{\"tool\":\"ima-attest\",\"version\":\"" ATT_VERSION
	      "\",\"format\":\"" ATT_JSON_FORMAT "\",\"command\":", out);
	att_json_str(out, cli->cmd ? cli->cmd->name : NULL);
	fputs(",\"inputs\":{", out);
	for (i = 0; i < cli->ngiven; i++) {
		const struct att_opt *o = &cli->opts[cli->given[i]];

		fprintf(out, "%s\"%s\":", i ? "," : "", o->name);
		if (o->arg)
			att_json_str(out, *o->val);
		else
			fputs("true", out);
	}
	fprintf(out, "%s\"operands\":[", i ? "," : "");
	for (k = 0; k < cli->noperand; k++) {
		fputs(k ? "," : "", out);
		att_json_str(out, cli->operand[k]);
	}
	fputs("]}", out);
}

void att_json_end(struct att_cli *cli, const struct att_reasons *rs,
		  int code)
{
	static const struct att_reasons none;
	static const char *const result[] = {
		[ATT_EXIT_OK] = "pass", [ATT_EXIT_FAIL] = "fail",
		[ATT_EXIT_ERROR] = "error", [ATT_EXIT_NONE] = "none",
	};
	FILE *out = cli->out;
	int count[ATT_FC_COUNT], i, k = 0;

	if (!rs)
		rs = &none;
	fputs(",\"failures\":[", out);
	for (i = 0; i < rs->n; i++) {
		fprintf(out, "%s{\"class\":\"%s\",\"reason\":", i ? "," : "",
			att_fail_class_name(rs->cls[i]));
		att_json_str(out, rs->r[i]);
		fputc('}', out);
	}
	class_counts(rs, count);
	fprintf(out, "],\"failure_count\":%lu,\"failures_by_class\":{",
		(unsigned long)rs->n + rs->lost);
	for (i = 0; i < ATT_FC_COUNT; i++)
		if (count[i])
			fprintf(out, "%s\"%s\":%d", k++ ? "," : "",
				att_fail_class_name(i), count[i]);
	fprintf(out, "},\"failures_not_recorded\":%lu", rs->lost);
	att_json_key(out, "error");
	att_json_str(out, cli->error[0] ? cli->error : NULL);
	att_json_key(out, "result");
	att_json_str(out, code >= 0 && code <= ATT_EXIT_NONE ? result[code] : "error");
	fprintf(out, ",\"exit_code\":%d}\n", code);
	fflush(out);
}

/* --- errors ---------------------------------------------------------- */

static void verror(struct att_cli *cli, const char *fmt, va_list ap)
{
	char msg[sizeof(cli->error)];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (!cli->error[0])
		snprintf(cli->error, sizeof(cli->error), "%s", msg);
	if (!cli->json) {
		/* it may quote the command line: one line, printable */
		fprintf(stderr, "ima-attest%s%s: ", cli->cmd ? " " : "",
			cli->cmd ? cli->cmd->name : "");
		att_text(stderr, msg);
		fputc('\n', stderr);
	}
}

int att_cli_error(struct att_cli *cli, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(cli, fmt, ap);
	va_end(ap);
	return code;
}

int att_cli_fail(struct att_cli *cli, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(cli, fmt, ap);
	va_end(ap);
	if (cli->json) {
		att_json_begin(cli);
		att_json_end(cli, NULL, code);
	}
	return code;
}

int att_cli_seconds(struct att_cli *cli, const char *opt, const char *s,
		    int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > INT_MAX)
		return att_cli_fail(cli, ATT_EXIT_ERROR,
				    "--%s: a whole number of seconds, 1 or more (not '%s')",
				    opt, s);
	*out = (int)v;
	return -1;
}

/* --- usage ----------------------------------------------------------- */

/* the rule ima-audit's options follow too (ima_cli.h) */
const char *att_nearest(const char *word, const char *const *names, int n)
{
	return ima_cli_nearest(word, strlen(word), names, n);
}

static int opt_names(const struct att_cli *cli, const char **names)
{
	int i;

	for (i = 0; i < cli->nopt; i++)
		names[i] = cli->opts[i].name;
	names[i++] = "json";
	names[i++] = "help";
	return i;
}

static int usage_error(struct att_cli *cli, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int usage_error(struct att_cli *cli, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return att_cli_fail(cli, ATT_EXIT_ERROR,
			    "%s (ima-attest %s --help says what it takes)", msg,
			    cli->cmd->name);
}

/* an option getopt did not know: unknown, ambiguous, or a flag given a value */
static int unknown_option(struct att_cli *cli, const char *arg)
{
	const char *names[ATT_MAX_OPTS + 2], *near;
	char word[80], list[512] = "";
	size_t len;
	int n = opt_names(cli, names), i, hits = 0;

	if (strncmp(arg, "--", 2))
		return usage_error(cli, "unknown option '%s'", arg);
	len = strcspn(arg + 2, "=");
	snprintf(word, sizeof(word), "%.*s", (int)(len < 79 ? len : 79), arg + 2);
	for (i = 0; i < n; i++) {
		if (!strcmp(names[i], word) && arg[2 + len] == '=')
			return usage_error(cli, "option --%s takes no argument",
					   word);
		if (len && !strncmp(names[i], word, len)) {
			hits++;
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s--%s", hits > 1 ? ", " : "", names[i]);
		}
	}
	if (hits > 1)
		return usage_error(cli, "ambiguous option '--%s': %s", word, list);
	near = att_nearest(word, names, n);
	if (near)
		return usage_error(cli, "unknown option '--%s': did you mean --%s?",
				   word, near);
	return usage_error(cli, "unknown option '--%s'", word);
}

static void help(const struct att_cli *cli)
{
	const struct att_cmd *c = cli->cmd;
	int i, col;

	printf("Usage: ima-attest %s", c->name);
	col = 18 + (int)strlen(c->name);
	for (i = 0; i < cli->nopt; i++) {
		const struct att_opt *o = &cli->opts[i];
		int w = (int)strlen(o->name) + 3 + (o->arg ? (int)strlen(o->arg) + 1 : 0) +
			(o->required ? 0 : 2);

		if (col + w > 78) {
			printf("\n       ");
			col = 7;
		}
		printf(" %s--%s%s%s%s", o->required ? "" : "[", o->name,
		       o->arg ? " " : "", o->arg ? o->arg : "",
		       o->required ? "" : "]");
		col += w;
	}
	printf("%s[--json]%s%s\n\n%s.\n\nOptions:\n", col + 9 > 78 ? "\n        " : " ",
	       c->operands ? " " : "", c->operands ? c->operands : "", c->summary);
	for (i = 0; i < cli->nopt; i++) {
		const struct att_opt *o = &cli->opts[i];
		char head[64];
		const char *h = o->help, *nl;

		snprintf(head, sizeof(head), "--%s%s%s", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		nl = strchr(h, '\n');
		printf("  %-22s %.*s%s\n", head, (int)(nl ? nl - h : (long)strlen(h)), h,
		       !nl && o->required ? " (required)" : "");
		while (nl) {
			h = nl + 1;
			nl = strchr(h, '\n');
			printf("  %-22s %.*s%s\n", "", (int)(nl ? nl - h : (long)strlen(h)),
			       h, !nl && o->required ? " (required)" : "");
		}
	}
	printf("  %-22s %s\n  %-22s %s\n\n%s", "--json",
	       "one JSON object on stdout, errors included", "-h, --help",
	       "this text", c->text);
}

int att_cli_parse(struct att_cli *cli, const struct att_cmd *cmd,
		  const struct att_opt *opts, int min_operands,
		  int max_operands, int argc, char **argv)
{
	struct option lo[ATT_MAX_OPTS + 3];
	const char *missing[ATT_MAX_OPTS];
	char list[768] = "";
	int i, opt, nmissing = 0;
	bool stop = cmd->operands && strstr(cmd->operands, "VERB");

	memset(cli, 0, sizeof(*cli));
	cli->cmd = cmd;
	cli->opts = opts;
	cli->out = stdout;
	/* errors before --json is reached are JSON too */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			cli->json = true;
	for (i = 0; opts[i].name; i++) {
		if (i == ATT_MAX_OPTS)
			return att_cli_fail(cli, ATT_EXIT_ERROR,
					    "more than %d options declared (ATT_MAX_OPTS)",
					    ATT_MAX_OPTS);
		lo[i] = (struct option){ opts[i].name,
			opts[i].arg ? required_argument : no_argument, NULL,
			OPT_BASE + i };
		*opts[i].val = NULL;
	}
	cli->nopt = i;
	lo[i++] = (struct option){ "json", no_argument, NULL, OPT_JSON };
	lo[i++] = (struct option){ "help", no_argument, NULL, OPT_HELP };
	lo[i] = (struct option){ NULL, 0, NULL, 0 };
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, stop ? "+:h" : ":h", lo, NULL)) != -1) {
		if (opt == OPT_HELP) {
			help(cli);
			return ATT_EXIT_OK;
		}
		if (opt == OPT_JSON) {
			cli->json = true;
			continue;
		}
		if (opt >= OPT_BASE) {
			i = opt - OPT_BASE;
			if (*opts[i].val)
				return usage_error(cli, "--%s given twice",
						   opts[i].name);
			*opts[i].val = opts[i].arg ? optarg : "1";
			cli->given[cli->ngiven++] = i;
			continue;
		}
		if (opt == ':') {
			i = optopt - OPT_BASE;
			return usage_error(cli, "option --%s requires an argument (%s)",
					   i >= 0 && i < cli->nopt ? opts[i].name : "?",
					   i >= 0 && i < cli->nopt ? opts[i].arg : "?");
		}
		/* '?': unknown, ambiguous, or a flag with a value */
		if (optopt && optopt != OPT_JSON && optopt < OPT_BASE)
			return usage_error(cli, "unknown option '-%c'",
					   optopt > 0x20 && optopt < 0x7f ? optopt : '?');
		return unknown_option(cli, argv[optind - 1]);
	}
	cli->operand = argv + optind;
	cli->noperand = argc - optind;
	for (i = 0; i < cli->nopt; i++)
		if (opts[i].required && !*opts[i].val)
			missing[nmissing++] = opts[i].name;
	for (i = 0; i < nmissing; i++) {
		const struct att_opt *o = NULL;
		int k;

		for (k = 0; k < cli->nopt; k++)
			if (opts[k].name == missing[i])
				o = &opts[k];
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s--%s %s", i ? ", " : "", o->name, o->arg ? o->arg : "");
	}
	if (nmissing)
		return usage_error(cli, "missing %s", list);
	if (cli->noperand < min_operands)
		return usage_error(cli, "missing %s", cmd->operands);
	if (max_operands >= 0 && cli->noperand > max_operands)
		return usage_error(cli, "unexpected argument '%s'",
				   cli->operand[max_operands]);
	return -1;
}
