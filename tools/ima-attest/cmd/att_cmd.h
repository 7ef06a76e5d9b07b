/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ima-attest's commands, one file each (cmd/<command>.c), dispatched by
 * cmd/main.c. A command declares its options (struct att_opt), parses
 * them with att_cli_parse (cli.c: --help, --json, every usage error named),
 * calls the library (src/) for the verdict and prints it, as text or as
 * one JSON object (att_json_*). It decides nothing itself.
 */
#ifndef ATT_CMD_H
#define ATT_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ima_attest.h"

/* bump when a verdict rule or an output format changes */
#define ATT_VERSION		"0.9.0"
/* the --json object's format (its keys: README, "JSON OUTPUT") */
#define ATT_JSON_FORMAT		"ima-attest-json/1"

/* exit codes, the same for the same fault whatever the command */
enum {
	ATT_EXIT_OK = 0,	/* proven (enrolled: trusted) */
	ATT_EXIT_FAIL = 1,	/* refused: the reasons say why */
	ATT_EXIT_ERROR = 2,	/* usage, or an input or file that cannot be
				 * read or written: nothing was decided */
	ATT_EXIT_NONE = 3,	/* enrolled: no record (of that boot) */
};

struct att_opt {
	const char *name;	/* --name */
	const char *arg;	/* its argument's name ("DIR"), NULL: a flag */
	const char **val;	/* where its value goes (a flag: "1") */
	bool required;
	const char *help;	/* what it is, one line or two */
};

struct att_cmd {
	const char *name;
	const char *summary;	/* one line, for ima-attest --help */
	const char *operands;	/* after the options ("LOG"), or NULL */
	const char *text;	/* what it does and proves, exit codes */
};

/*
 * The options that are the same option wherever they are taken: one
 * name, argument, requirement and help for every command that takes them.
 */
#define ATT_OPT_CHANNEL(v) { "channel", "SOCK", (v), true, \
	"the agent's channel: a unix socket (QEMU's chardev)" }
#define ATT_OPT_CA(v) { "ca", "CA.pem", (v), true, \
	"the TPM manufacturer's CA certificate(s), PEM" }
#define ATT_OPT_CA_CHAIN(v) { "ca-chain", "PEM", (v), false, \
	"intermediate certificates between the CA and the EK's" }
/* the directory an enrollment writes */
#define ATT_OPT_ENROLL_OUT(v) { "out", "DIR", (v), true, \
	"the enrollment directory (made 0700)" }
/* the directory an enrollment wrote, read */
#define ATT_OPT_ENROLLED(v) { "enrolled", "DIR", (v), true, \
	"the enrollment directory (enroll's or activate's --out)" }
#define ATT_OPT_QUOTE(v) { "quote", "MSG", (v), true, \
	"TPMS_ATTEST (tpm2_quote -m)" }
#define ATT_OPT_QUOTE_SIG(v) { "quote-sig", "SIG", (v), true, \
	"its signature (tpm2_quote -s): TPMT_SIGNATURE,\nor plain" }
#define ATT_OPT_QUOTE_PCRS(v) { "quote-pcrs", "VALUES", (v), true, \
	"the quoted PCR values\n(tpm2_quote -o FILE -F values)" }
#define ATT_OPT_NONCE(v) { "nonce", "HEX", (v), true, \
	"the nonce this verifier chose for this quote\n(1-64 bytes)" }
/*
 * The quote a verifier is given, verify's and poll's alike: the
 * enrollment, the quote, its signature and values, the nonce
 * (att_quote_files_load reads them).
 */
struct att_quote_opts {
	const char *enrolled, *msg, *sig, *pcrs, *nonce;
};
#define ATT_OPTS_QUOTE(q) ATT_OPT_ENROLLED(&(q)->enrolled), \
	ATT_OPT_QUOTE(&(q)->msg), ATT_OPT_QUOTE_SIG(&(q)->sig), \
	ATT_OPT_QUOTE_PCRS(&(q)->pcrs), ATT_OPT_NONCE(&(q)->nonce)
/* waiting for the guest's agent, secs (a number) unless given */
#define ATT_STR_(x)	#x
#define ATT_STR(x)	ATT_STR_(x)
#define ATT_OPT_TIMEOUT(v, secs) { "timeout", "SECONDS", (v), false, \
	"how long to wait for the guest (default " ATT_STR(secs) ")" }
/* the boot an enrollment record names (att_cli_boot checks it) */
#define ATT_OPT_BOOT(v) { "boot", "ID", (v), false, \
	"the boot's name in the record: 1-64 letters, digits, - or _" }
/* the end of a command's options */
#define ATT_OPT_END { NULL, NULL, NULL, false, NULL }

#define ATT_MAX_OPTS	24
#define ATT_MAX_OPERANDS	(1 + ATT_MSG_FIELDS)

/* One run of a command: its options as given, how to print, what failed. */
struct att_cli {
	const struct att_cmd *cmd;
	const struct att_opt *opts;
	bool json;
	int nopt;
	int given[ATT_MAX_OPTS];	/* option indexes, in the order given */
	int ngiven;
	char **operand;			/* what follows the options */
	int noperand;
	char error[1024];		/* the first usage or I/O error */
	FILE *out;			/* stdout */
};

/*
 * Parse argv (argv[0] the command's name) against opts (ended by a NULL
 * name; --json and --help are every command's). Returns -1 when the
 * command is to run; otherwise the exit code: 0 after --help, 2 after a
 * usage error, which is named (an unknown option, with the nearest one;
 * a missing argument; a required option not given; an operand too many
 * or too few: min_operands, max_operands) on stderr, or in the one JSON
 * object with --json.
 */
int att_cli_parse(struct att_cli *cli, const struct att_cmd *cmd,
		  const struct att_opt *opts, int min_operands,
		  int max_operands, int argc, char **argv);
/*
 * A usage or I/O error: kept (the JSON object's "error"), and on stderr
 * as "ima-attest CMD: MESSAGE" unless --json. Returns code.
 */
int att_cli_error(struct att_cli *cli, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* the same, ending the run: the JSON object printed (error, no result) */
int att_cli_fail(struct att_cli *cli, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* the one of names nearest to word (a slip of the keys), or NULL */
const char *att_nearest(const char *word, const char *const *names, int n);
/* a positive number of seconds, or a usage error naming opt */
int att_cli_seconds(struct att_cli *cli, const char *opt, const char *s,
		    int *out);

/* --- JSON: one object a run (att_json_begin ... att_json_end) --------- */
/* {"tool", "version", "format", "command", "inputs": {each option given} */
void att_json_begin(struct att_cli *cli);
/*
 * "failures" (class and reason each), "failure_count", "failures_by_class",
 * "failures_not_recorded", "error", "result" (pass, fail, none, error)
 * and "exit_code"; then the closing brace and a newline.
 */
void att_json_end(struct att_cli *cli, const struct att_reasons *rs,
		  int code);
/* ,"key": followed by a string, hex, null, a bool or a number */
void att_json_key(FILE *out, const char *key);
void att_json_str(FILE *out, const char *s);
void att_json_hex(FILE *out, const uint8_t *p, size_t n);
/* "DIR/NAME" ("DIR" when name is NULL), or null when dir is NULL */
void att_json_path(FILE *out, const char *dir, const char *name);
void att_json_strs(FILE *out, const char *const *s, int n);

/* the firmware log's banks, as a list of names */
void att_json_banks(FILE *out, const struct att_evlog *ev);

/* --- what the enrolling commands share (enrollment.c) ------------------ */
/* an enrollment record as an object */
void att_json_enrollment(FILE *out, const struct att_enrollment *rec);
/* --boot ID of the form a record holds, or a usage error (its exit code) */
int att_cli_boot(struct att_cli *cli, const char *boot);
/*
 * The CA files checked (before any wait for a guest), DIR opened (made
 * 0700) into *dirfd and an earlier enrollment's files removed from it;
 * -1, or the exit code of the error printed.
 */
int att_enroll_dir(struct att_cli *cli, const char *ca, const char *chain,
		   const char *out, int *dirfd);
/* the record (written in DIR recorded, or NULL), rs, and the verdict */
void att_enrollment_verdict(struct att_cli *cli,
			    const struct att_enrollment *rec,
			    const char *recorded, const struct att_reasons *rs,
			    int rc);

/* --- text ------------------------------------------------------------ */
/* "reason: TEXT" each, then "failures: N (class N, ...)" */
void att_print_reasons(FILE *out, const struct att_reasons *rs);
/* s escaped for a line of text (a path given on the command line) */
void att_text(FILE *out, const char *s);

/* the commands */
int cmd_enroll(int argc, char **argv);
int cmd_challenge(int argc, char **argv);
int cmd_activate(int argc, char **argv);
int cmd_enrolled(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_poll(int argc, char **argv);
int cmd_request(int argc, char **argv);
int cmd_eventlog(int argc, char **argv);

#endif
