// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-audit: audit an IMA binary measurement list.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ima_audit.h"
#include "ima_cli.h"
#include "ima_html.h"
#include "ima_quote.h"
#include "ima_text.h"
#include "ima_version.h"

#define DEFAULT_LOG "/sys/kernel/security/ima/binary_runtime_measurements"
#define DEFAULT_SYSFS "/sys/class/tpm/tpm0"
#define MAX_POLICY_FILE (16u << 20)

static const char usage_text[] =
"Usage: ima-audit [OPTIONS] [LOG]\n"
"Audit an IMA binary measurement list (default " DEFAULT_LOG ";\n"
"'-' reads standard input).\n"
"\n"
"PCR replay:\n"
"  --pcr N               replay and report PCR N (repeatable; default 10)\n"
"  --pcrs FILE           expected PCR values: 'sha256:10 HEX' lines or\n"
"                        tpm2_pcrread output (repeatable)\n"
"  --pcr-value ALG:N=HEX expected value of one PCR (repeatable)\n"
"  --tpm-sysfs[=DIR]     read DIR/pcr-ALG/N (default " DEFAULT_SYSFS ")\n"
"  --pcrs ALG,FILE       evmctl's PCR file: 'PCR-NN: HEX' lines for bank ALG\n"
"  --ignore-pcr N[-M]    entries on these PCRs need no value (waiver, reported)\n"
"  --allow-sha1          sha1 values bind PCRs too (waiver, reported; a sha1-only\n"
"                        TPM or evmctl --pcrs sha1,FILE)\n"
"  --allow-uncovered     entries after the last covered prefix are reported,\n"
"                        not failures (with or without a quote)\n"
"  --require-coverage    accepted for compatibility: coverage is always required\n"
"TPM quote (the PCR values then come from the verified quote only):\n"
"  --quote FILE          TPMS_ATTEST from tpm2_quote -m\n"
"  --quote-sig FILE      its signature (tpm2_quote -s: TPMT_SIGNATURE or\n"
"                        plain; RSASSA or ECDSA)\n"
"  --ak-pub FILE         the attestation key's public key (PEM or DER)\n"
"  --nonce HEX           the nonce the quote must carry as extraData\n"
"  --quote-pcrs FILE     the quoted PCR values (tpm2_quote -o FILE -F values);\n"
"                        default: the --pcrs/--pcr-value/--tpm-sysfs values\n"
"  --allow-unverified-boot  a quote without the PCRs boot_aggregate needs is\n"
"                        accepted (waiver, reported)\n"
"Signatures:\n"
"  --key FILE            certificate (PEM/DER) or public key (repeatable)\n"
"  --require-signatures  unsigned file measurements are failures\n"
"  --jobs N              verification threads (default: online CPUs)\n"
"  --ca FILE             keys from the list: the .ima keys it measured\n"
"                        (KEY_CHECK) that chain to a certificate in FILE\n"
"                        verify signatures too, if their records are attested\n"
"Reference data:\n"
"  --manifest FILE       '<hex|alg:hex> <path>' lines (sha256sum output, also\n"
"                        -b and --tag), or a Keylime runtime policy (JSON:\n"
"                        digests, excludes, keyrings, ima-buf, keys)\n"
"  --exclude REGEX       paths never judged (Python's re.match, as Keylime's\n"
"                        excludes; repeatable): counted, still replayed\n"
"  --write-keylime FILE  write a Keylime runtime policy of the entries the\n"
"                        audit proved (files, keys, buffers; not the others)\n"
"  --deny FILE           digests of revoked files (sha256sum lines, --tag\n"
"                        lines, or a Keylime runtime policy's \"digests\"):\n"
"                        an entry with one fails, even if signed\n"
"  --show-policy         print the policy recorded in the list and exit\n"
"  --expect-policy FILE  fail unless the recorded policy equals FILE\n"
"Input and output:\n"
"  --format auto|binary|ascii   binary_runtime_measurements or the kernel's\n"
"                        ASCII form of it (default: told by the first byte)\n"
"  --list-bank ALG       a per-bank list (binary_runtime_measurements_ALG,\n"
"                        Linux 6.10+): template digests of bank ALG (default:\n"
"                        from the file name, an ASCII list's digest length, sha1)\n"
"  --byte-order auto|little|big   byte order of the list (default auto; an\n"
"                        ASCII list is read as little unless 'big' is given)\n"
"  --max-size BYTES      refuse logs larger than this (default 1 GiB)\n"
"  --max-entry BYTES     refuse template data larger than this (16 MiB)\n"
"  --json                one JSON object on stdout instead of the summary\n"
"                        (always one, an error too: tool, version, input)\n"
"  -v, --verbose         every failure on a line of its own (by default a\n"
"                        class of more than 3 is one line: count, first, fix)\n"
"  --html FILE           also write the report as one self-contained HTML page\n"
"                        (the --json data, every entry; opens offline)\n"
"  --version             the version, and exit\n"
"  -h, --help            this text\n"
"\n"
"Failures are printed on stdout, one line each: 'FAIL: entry N @OFFSET:\n"
"PATH: reason' (inside the JSON object with --json). Diagnostics go to\n"
"stderr.\n"
"\n"
"Exit status: 0 all checks passed; 1 a verification failed; 2 the command\n"
"line is wrong (an unknown option, a bad value, options missing or in\n"
"conflict); 3 an input cannot be read or is not what it should be (the\n"
"list, or a file an option names: missing, a directory, another format).\n"
"A page or policy that cannot be written exits 2 when nothing else failed.\n";

enum {
	OPT_PCR = 256, OPT_PCRS, OPT_PCR_VALUE, OPT_TPM_SYSFS, OPT_KEY,
	OPT_REQ_SIGS, OPT_REQ_COVER, OPT_JOBS, OPT_MANIFEST, OPT_SHOW_POLICY,
	OPT_EXPECT_POLICY, OPT_BYTE_ORDER, OPT_MAX_SIZE, OPT_MAX_ENTRY,
	OPT_JSON, OPT_QUOTE, OPT_QUOTE_SIG, OPT_AK_PUB, OPT_NONCE,
	OPT_QUOTE_PCRS, OPT_ALLOW_UNCOVERED, OPT_IGNORE_PCR,
	OPT_ALLOW_UNVERIFIED_BOOT, OPT_ALLOW_SHA1, OPT_FORMAT, OPT_LIST_BANK,
	OPT_CA, OPT_DENY, OPT_HTML, OPT_EXCLUDE, OPT_WRITE_KEYLIME,
	OPT_VERSION,
};

static const struct option options[] = {
	{ "pcr", required_argument, NULL, OPT_PCR },
	{ "pcrs", required_argument, NULL, OPT_PCRS },
	{ "pcr-value", required_argument, NULL, OPT_PCR_VALUE },
	{ "tpm-sysfs", optional_argument, NULL, OPT_TPM_SYSFS },
	{ "key", required_argument, NULL, OPT_KEY },
	{ "require-signatures", no_argument, NULL, OPT_REQ_SIGS },
	{ "require-coverage", no_argument, NULL, OPT_REQ_COVER },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "manifest", required_argument, NULL, OPT_MANIFEST },
	{ "show-policy", no_argument, NULL, OPT_SHOW_POLICY },
	{ "expect-policy", required_argument, NULL, OPT_EXPECT_POLICY },
	{ "byte-order", required_argument, NULL, OPT_BYTE_ORDER },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "max-entry", required_argument, NULL, OPT_MAX_ENTRY },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "quote", required_argument, NULL, OPT_QUOTE },
	{ "quote-sig", required_argument, NULL, OPT_QUOTE_SIG },
	{ "ak-pub", required_argument, NULL, OPT_AK_PUB },
	{ "nonce", required_argument, NULL, OPT_NONCE },
	{ "quote-pcrs", required_argument, NULL, OPT_QUOTE_PCRS },
	{ "allow-uncovered", no_argument, NULL, OPT_ALLOW_UNCOVERED },
	{ "ignore-pcr", required_argument, NULL, OPT_IGNORE_PCR },
	{ "allow-unverified-boot", no_argument, NULL,
	  OPT_ALLOW_UNVERIFIED_BOOT },
	{ "allow-sha1", no_argument, NULL, OPT_ALLOW_SHA1 },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "list-bank", required_argument, NULL, OPT_LIST_BANK },
	{ "ca", required_argument, NULL, OPT_CA },
	{ "deny", required_argument, NULL, OPT_DENY },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "write-keylime", required_argument, NULL, OPT_WRITE_KEYLIME },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* what each option's argument is, for "requires an argument" */
static const char *arg_name(int val)
{
	switch (val) {
	case OPT_PCR: case OPT_IGNORE_PCR:
		return "a PCR index";
	case OPT_PCR_VALUE:
		return "ALG:N=HEX";
	case OPT_JOBS: case OPT_MAX_SIZE: case OPT_MAX_ENTRY:
		return "a number";
	case OPT_NONCE:
		return "the nonce in hex";
	case OPT_BYTE_ORDER:
		return "auto, little or big";
	case OPT_FORMAT:
		return "auto, binary or ascii";
	case OPT_LIST_BANK:
		return "a bank: sha1, sha256, sha384 or sha512";
	case OPT_EXCLUDE:
		return "a regular expression";
	}
	return "a file";
}

struct cmdline;

/*
 * An error that stops the run: "ima-audit: MESSAGE" on stderr (with the
 * way to help on a command-line error), kept for the JSON object under
 * --json. Returns code.
 */
static int say(struct cmdline *cl, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int parse_u64(const char *s, unsigned long long max,
		     unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || end == s || *end || *out > max || s[0] == '-' ?
	       -1 : 0;
}

/* the option words, each at its value's index */
static const char *const byte_orders[] = {
	[IMA_BO_AUTO] = "auto", [IMA_BO_LITTLE] = "little",
	[IMA_BO_BIG] = "big",
};
static const char *const formats[] = {
	[IMA_FMT_AUTO] = "auto", [IMA_FMT_BINARY] = "binary",
	[IMA_FMT_ASCII] = "ascii",
};

/* the index of s in words (an option's values), or -1 */
#define parse_word(s, words) \
	word_index((s), (words), sizeof(words) / sizeof((words)[0]))
static int word_index(const char *s, const char *const *words, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (words[i] && !strcmp(s, words[i]))
			return (int)i;
	return -1;
}

/* a quote's file or the expected policy, whole: NULL with errno */
static uint8_t *read_small_file(const char *path, size_t *len)
{
	return (uint8_t *)ima_read_file(path, MAX_POLICY_FILE, len, NULL, 0);
}

/* Whether path names a directory (a file was expected). */
static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

struct quote_args {
	const char *msg, *sig, *ak, *pcrs;
	uint8_t nonce[IMA_QUOTE_MAX_DATA];
	size_t nonce_len;
};

static int parse_nonce(const char *hex, struct quote_args *qa)
{
	size_t len = strlen(hex);
	int n;

	if (!len || len % 2 || len / 2 > sizeof(qa->nonce))
		return -1;
	n = ima_hex2bin(hex, len, qa->nonce, sizeof(qa->nonce));
	if (n < 0 || (size_t)n != len / 2)
		return -1;
	qa->nonce_len = (size_t)n;
	return 0;
}

/*
 * Read the quote's files and verify it (ima_quote_verify). Values given
 * with --pcrs and friends serve only as the source of the quoted values
 * when --quote-pcrs is absent; what the verdict makes of the result is
 * the library's (ima_audit_init). Returns an exit code: OK or FAIL
 * (c->reasons), MALFORMED (a file unreadable or not of its kind), USAGE
 * (the PCR values it quotes given nowhere).
 */
static int verify_quote(struct cmdline *cl, const struct quote_args *qa,
			struct ima_audit_opts *opts, struct ima_quote_check *c)
{
	uint8_t *msg = NULL, *sig = NULL, *values = NULL;
	const char *bad = NULL;
	char err[512];
	int rc = IMA_EXIT_MALFORMED, qrc;

	memset(c, 0, sizeof(*c));
	c->ak = ima_quote_key_load(qa->ak, err, sizeof(err));
	if (!c->ak) {
		say(cl, rc, "%s", err);
		goto out;
	}
	msg = read_small_file(qa->msg, &c->msg_len);
	if (!msg)
		bad = qa->msg;
	if (!bad && !(sig = read_small_file(qa->sig, &c->sig_len)))
		bad = qa->sig;
	if (!bad && qa->pcrs &&
	    !(values = read_small_file(qa->pcrs, &c->values_len)))
		bad = qa->pcrs;
	if (bad) {
		say(cl, rc, "%s: %s", bad, strerror(errno));
		goto out;
	}
	c->msg = msg;
	c->sig = sig;
	c->values = values;
	c->known = values ? NULL : &opts->pcrs;
	c->nonce = qa->nonce;
	c->nonce_len = qa->nonce_len;
	qrc = ima_quote_verify(c);
	if (qrc == IMA_QUOTE_MISSING) {
		rc = say(cl, IMA_EXIT_USAGE,
			 "%s: give them with --quote-pcrs or --pcrs", c->error);
		goto out;
	}
	if (qrc == IMA_QUOTE_MALFORMED) {
		say(cl, rc, "%s: %s",
		    c->error_input == IMA_QUOTE_IN_SIG ? qa->sig :
		    c->error_input == IMA_QUOTE_IN_VALUES ? qa->pcrs :
		    qa->msg, c->error);
		goto out;
	}
	rc = qrc == IMA_QUOTE_OK ? IMA_EXIT_OK : IMA_EXIT_FAIL;
out:
	c->msg = c->sig = c->values = NULL;
	free(msg);
	free(sig);
	free(values);
	ima_quote_key_free(c->ak);
	c->ak = NULL;
	return rc;
}

/* "sha1:0-10 sha256:0-10" */
static void print_selection(const struct ima_quote *q, FILE *out)
{
	uint32_t i;
	int p, start;

	for (i = 0; i < q->nsel; i++) {
		int b = ima_quote_bank(q->sel[i].hash);
		bool first = true;

		fprintf(out, "%s%s:", i ? " " : "",
			b < 0 ? "?" : ima_bank_name(b));
		for (p = 0; p < 8 * q->sel[i].size; p++) {
			if (!(q->sel[i].select[p / 8] >> (p % 8) & 1))
				continue;
			start = p;
			while (p + 1 < 8 * q->sel[i].size &&
			       (q->sel[i].select[(p + 1) / 8] >>
				((p + 1) % 8) & 1))
				p++;
			fprintf(out, first ? "%d" : ",%d", start);
			if (p > start)
				fprintf(out, "-%d", p);
			first = false;
		}
	}
}

static void print_quote(const struct ima_quote_check *c, FILE *out)
{
	const struct ima_quote *q = &c->quote;

	fprintf(out, "quote:          %s; nonce %s; signature %s; PCRs ",
		q->magic == TPM_GENERATED_VALUE &&
		q->type == TPM_ST_ATTEST_QUOTE ? "TPM-generated quote" :
		"NOT a TPM-generated quote",
		c->nonce_ok ? "matches" : "MISMATCH",
		c->sig_ok ? "verified with the AK" : "BAD");
	print_selection(q, out);
	fprintf(out, " %s (reset %u, restart %u, clock %llu ms)\n",
		c->pcrs_ok ? "match pcrDigest" : "DO NOT match pcrDigest",
		q->reset_count, q->restart_count,
		(unsigned long long)q->clock);
}

/* --ignore-pcr N or N-M */
static int parse_pcr_range(const char *arg, uint32_t *mask)
{
	unsigned long long lo, hi;
	const char *dash = strchr(arg, '-');
	char buf[16];

	if (strlen(arg) >= sizeof(buf))
		return -1;
	if (!dash)
		return parse_u64(arg, IMA_NR_PCRS - 1, &lo) ? -1 :
		       (*mask |= 1u << lo, 0);
	memcpy(buf, arg, (size_t)(dash - arg));
	buf[dash - arg] = '\0';
	if (parse_u64(buf, IMA_NR_PCRS - 1, &lo) ||
	    parse_u64(dash + 1, IMA_NR_PCRS - 1, &hi) || hi < lo)
		return -1;
	for (; lo <= hi; lo++)
		*mask |= 1u << lo;
	return 0;
}

/* --pcrs FILE, or evmctl's --pcrs ALG,FILE: read and parsed, or 3. */
static int load_pcrs(struct cmdline *cl, struct ima_audit_opts *opts,
		     const char *arg)
{
	const char *comma = strchr(arg, ',');
	char err[512];
	int bank = comma ? ima_bank_by_name(arg, (size_t)(comma - arg)) : -1;
	const char *path = bank >= 0 ? comma + 1 : arg;
	FILE *f;

	if (is_dir(path))
		return say(cl, IMA_EXIT_MALFORMED, "%s: a directory, not a file",
			   path);
	f = fopen(path, "rb");
	if (!f)
		return say(cl, IMA_EXIT_MALFORMED, "%s: %s", path,
			   strerror(errno));
	fclose(f);
	if (bank >= 0 ? ima_pcr_load_evmctl(&opts->pcrs, bank, path, err,
					    sizeof(err)) :
	    ima_pcr_load_file(&opts->pcrs, path, err, sizeof(err)))
		return say(cl, IMA_EXIT_MALFORMED, "%s", err);
	return IMA_EXIT_OK;
}

/* The bank of a per-bank list, from its file name and --list-bank. */
static int list_bank(struct cmdline *cl, struct ima_reader_opts *ro,
		     const char *log)
{
	const struct ima_hash_algo *named = NULL;
	char err[512];

	if (ima_list_name_bank(log, &named, err, sizeof(err)))
		return say(cl, IMA_EXIT_USAGE, "%s", err);
	if (named && ro->digest_alg && named != ro->digest_alg)
		return say(cl, IMA_EXIT_USAGE,
			   "--list-bank %s, but %s is the name of the %s bank's list",
			   ro->digest_alg->name, log, named->name);
	if (named)
		ro->digest_alg = named;
	return IMA_EXIT_OK;
}

struct page {
	const struct ima_audit *audit;
	const struct ima_table *table;
};

static int write_page(void *arg, FILE *out)
{
	const struct page *p = arg;

	return ima_report_html(p->audit, p->table, out);
}

/* --html: the page; false when it cannot be written (said why) */
static bool html_page(const char *path, const struct ima_audit *audit,
		      const struct ima_table *table, char *why, size_t len)
{
	struct page p = { audit, table };

	if (table->oom) {
		snprintf(why, len, "%s: out of memory for the entry table: no page written",
			 path);
		return false;
	}
	if (ima_html_write_file(path, write_page, &p)) {
		snprintf(why, len, "%s: cannot write the page: %s", path,
			 strerror(errno));
		return false;
	}
	return true;
}

/*
 * The command line, as given: parse_cmdline() only reads the options;
 * run() loads every file they name (in the order given, so a later
 * --pcrs value overrides an earlier one) and audits the list.
 */
struct input {
	int opt;		/* the option that names it (OPT_PCRS, ...) */
	const char *arg;
};

struct cmdline {
	struct ima_audit_opts opts;
	struct quote_args qa;
	bool nonce_given, pcr_given, json, show_policy;
	const char *log, *html;
	struct input *inputs;		/* file inputs, in argv order */
	size_t ninputs;

	/* what run() loads and the audit reads */
	struct ima_quote_check qc;
	struct ima_listkeys listkeys;
	struct ima_denylist *deny;
	struct ima_excludes *excludes;
	struct ima_keylime keylime;
	struct ima_keylime_out *keylime_out;
	struct ima_table table;
	uint8_t *policy;

	/* the first error that stopped the run, for the JSON object */
	char error[700];
	bool reported;		/* a report (or the policy) was printed */
};

static void text_escape(char *dst, size_t len, const char *src)
{
	static const char hx[] = "0123456789abcdef";
	size_t n = 0;

	for (; *src && n + 5 < len; src++) {
		unsigned char c = (unsigned char)*src;

		if (c >= 0x20 && c < 0x7f) {
			dst[n++] = (char)c;
			continue;
		}
		dst[n++] = '\\';
		dst[n++] = 'x';
		dst[n++] = hx[c >> 4];
		dst[n++] = hx[c & 15];
	}
	dst[n] = '\0';
}

static int say(struct cmdline *cl, int code, const char *fmt, ...)
{
	char msg[640], shown[700];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/*
	 * a message may quote the command line: bytes outside printable
	 * ASCII as \xNN (what the library quotes from an input it escaped)
	 */
	text_escape(shown, sizeof(shown), msg);
	fprintf(stderr, "ima-audit: %s\n", shown);
	if (code == IMA_EXIT_USAGE)
		fputs("Try 'ima-audit --help'.\n", stderr);
	if (!cl->error[0])
		snprintf(cl->error, sizeof(cl->error), "%s", shown);
	return code;
}

/* CMDLINE_RUN: run it; otherwise the exit code (--help: 0, printed). */
#define CMDLINE_RUN (-1)

/*
 * getopt_long's ':' (an option without its argument) or '?' (an unknown
 * or ambiguous option, or an argument to one that takes none): one
 * message, saying what was meant.
 */
static int bad_option(struct cmdline *cl, int c, const char *arg)
{
	const char *name = ima_cli_name(options, optopt), *hint;
	char list[400];

	if (c == ':')
		return name ?
		       say(cl, IMA_EXIT_USAGE, "option '--%s' requires an argument (%s)",
			   name, arg_name(optopt)) :
		       say(cl, IMA_EXIT_USAGE, "option '-%c' requires an argument",
			   optopt);
	if (strncmp(arg, "--", 2))
		return say(cl, IMA_EXIT_USAGE, "unknown option '-%c'", optopt);
	if (optopt && name)
		return say(cl, IMA_EXIT_USAGE, "option '--%s' takes no argument",
			   name);
	if (ima_cli_prefixes(options, arg, list, sizeof(list)) > 1)
		return say(cl, IMA_EXIT_USAGE,
			   "ambiguous option '%s': %s?", arg, list);
	hint = ima_cli_suggest(options, arg);
	if (hint)
		return say(cl, IMA_EXIT_USAGE,
			   "unknown option '%s': did you mean '--%s'?", arg,
			   hint);
	return say(cl, IMA_EXIT_USAGE, "unknown option '%s'", arg);
}

static int parse_cmdline(struct cmdline *cl, int argc, char **argv)
{
	struct ima_audit_opts *opts = &cl->opts;
	/* the options that only set a flag or only keep their argument */
	const struct {
		int opt;
		bool *flag;
		const char **arg;
	} plain[] = {
		{ OPT_ALLOW_UNVERIFIED_BOOT, &opts->allow_unverified_boot, NULL },
		{ OPT_ALLOW_SHA1, &opts->allow_sha1, NULL },
		{ OPT_ALLOW_UNCOVERED, &opts->allow_uncovered, NULL },
		{ OPT_REQ_SIGS, &opts->require_signatures, NULL },
		{ OPT_REQ_COVER, &opts->require_coverage, NULL },
		{ 'v', &opts->verbose, NULL },
		{ OPT_SHOW_POLICY, &cl->show_policy, NULL },
		{ OPT_JSON, &cl->json, NULL },
		{ OPT_HTML, NULL, &cl->html },
		{ OPT_WRITE_KEYLIME, NULL, &opts->keylime_out_name },
		{ OPT_QUOTE, NULL, &cl->qa.msg },
		{ OPT_QUOTE_SIG, NULL, &cl->qa.sig },
		{ OPT_AK_PUB, NULL, &cl->qa.ak },
		{ OPT_QUOTE_PCRS, NULL, &cl->qa.pcrs },
	};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long n;
	size_t i;
	int c, w;

	cl->log = DEFAULT_LOG;
	opts->pcr_mask = 1u << 10;
	opts->jobs = cpus > 1 ? (int)cpus : 0;
	cl->inputs = calloc((size_t)argc, sizeof(*cl->inputs));
	if (!cl->inputs)
		return say(cl, IMA_EXIT_MALFORMED, "out of memory");
	opterr = 0;	/* the messages are ours (bad_option) */
	while ((c = getopt_long(argc, argv, ":hv", options, NULL)) != -1) {
		struct input *in = &cl->inputs[cl->ninputs];

		for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
			if (plain[i].opt == c)
				break;
		if (i < sizeof(plain) / sizeof(plain[0])) {
			if (plain[i].flag)
				*plain[i].flag = true;
			else
				*plain[i].arg = optarg;
			continue;
		}
		switch (c) {
		case OPT_PCR:
			if (parse_u64(optarg, IMA_NR_PCRS - 1, &n))
				return say(cl, IMA_EXIT_USAGE, "bad PCR index '%s'", optarg);
			if (!cl->pcr_given)
				opts->pcr_mask = 0;
			cl->pcr_given = true;
			opts->pcr_mask |= 1u << n;
			break;
		case OPT_PCRS:
		case OPT_PCR_VALUE:
		case OPT_TPM_SYSFS:
		case OPT_KEY:
		case OPT_DENY:
		case OPT_CA:
		case OPT_MANIFEST:
		case OPT_EXPECT_POLICY:
		case OPT_EXCLUDE:
			/* a file or a value, loaded by run() in argv order */
			*in = (struct input){ c, c == OPT_TPM_SYSFS && !optarg ?
					      DEFAULT_SYSFS : optarg };
			cl->ninputs++;
			break;
		case OPT_IGNORE_PCR:
			if (parse_pcr_range(optarg, &opts->ignore_pcrs))
				return say(cl, IMA_EXIT_USAGE, "bad --ignore-pcr '%s': N or N-M, 0-23",
						   optarg);
			break;
		case OPT_JOBS:
			if (parse_u64(optarg, 256, &n))
				return say(cl, IMA_EXIT_USAGE, "bad --jobs '%s'", optarg);
			opts->jobs = n > 1 ? (int)n : 0;
			break;
		case OPT_BYTE_ORDER:
			w = parse_word(optarg, byte_orders);
			if (w < 0)
				return say(cl, IMA_EXIT_USAGE, "bad --byte-order '%s'",
						   optarg);
			opts->reader.order = (enum ima_byte_order)w;
			break;
		case OPT_MAX_SIZE:
			if (parse_u64(optarg, UINT64_MAX, &n) || !n)
				return say(cl, IMA_EXIT_USAGE, "bad --max-size '%s'", optarg);
			opts->reader.max_size = n;
			break;
		case OPT_MAX_ENTRY:
			if (parse_u64(optarg, UINT32_MAX, &n) || !n)
				return say(cl, IMA_EXIT_USAGE, "bad --max-entry '%s'",
						   optarg);
			opts->reader.max_entry = (uint32_t)n;
			break;
		case OPT_FORMAT:
			w = parse_word(optarg, formats);
			if (w < 0)
				return say(cl, IMA_EXIT_USAGE, "bad --format '%s': auto, binary or ascii",
						   optarg);
			opts->reader.format = (enum ima_list_format)w;
			break;
		case OPT_LIST_BANK:
			n = (unsigned long long)ima_bank_by_name(optarg,
								 strlen(optarg));
			if (n >= IMA_NR_BANKS)
				return say(cl, IMA_EXIT_USAGE, "bad --list-bank '%s': sha1, sha256, sha384 or sha512",
						   optarg);
			opts->reader.digest_alg = ima_bank_algo((int)n);
			break;
		case OPT_NONCE:
			if (parse_nonce(optarg, &cl->qa))
				return say(cl, IMA_EXIT_USAGE, "bad --nonce '%s': 1-66 bytes in hex",
						   optarg);
			cl->nonce_given = true;
			break;
		case OPT_VERSION:
			printf(cl->json ?
			       "{\"tool\":\"ima-audit\",\"version\":\"%s\"}\n" :
			       "ima-audit %s\n", IMA_AUDIT_VERSION);
			cl->reported = true;
			return IMA_EXIT_OK;
		case 'h':
			fputs(usage_text, stdout);
			cl->reported = true;
			return IMA_EXIT_OK;
		default:
			return bad_option(cl, c, argv[optind - 1]);
		}
	}
	if (optind < argc)
		cl->log = argv[optind++];
	if (optind < argc)
		return say(cl, IMA_EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	return CMDLINE_RUN;
}

/* The exclude patterns, made on first use; NULL when out of memory. */
static struct ima_excludes *excludes(struct cmdline *cl)
{
	if (!cl->excludes)
		cl->excludes = ima_excludes_new();
	cl->opts.excludes = cl->excludes;
	return cl->excludes;
}

static int write_keylime(void *arg, FILE *out)
{
	const struct ima_audit *a = arg;

	return ima_keylime_write(a->opts->keylime_out, a->list_alg, out);
}


/*
 * One input of the command line: an exit code (OK: loaded). A file that
 * cannot be read, or is not what its option takes, is 3 whatever the
 * option; a value on the command line that is wrong, or options that
 * conflict, 2.
 */
static int load_input(struct cmdline *cl, const struct input *in)
{
	struct ima_audit_opts *opts = &cl->opts;
	const int bad_file = IMA_EXIT_MALFORMED;
	char err[512];

	switch (in->opt) {
	case OPT_KEY: case OPT_DENY: case OPT_CA: case OPT_MANIFEST:
	case OPT_EXPECT_POLICY:
		if (is_dir(in->arg))
			return say(cl, bad_file, "%s: a directory, not a file",
				   in->arg);
		break;
	default:
		break;
	}
	switch (in->opt) {
	case OPT_PCRS:
		return load_pcrs(cl, opts, in->arg);
	case OPT_PCR_VALUE:
		if (ima_pcr_parse_text(&opts->pcrs, in->arg, strlen(in->arg),
				       "--pcr-value", err, sizeof(err)))
			return say(cl, IMA_EXIT_USAGE, "%s", err);
		return IMA_EXIT_OK;
	case OPT_TPM_SYSFS:
		if (ima_pcr_load_sysfs(&opts->pcrs, in->arg, err,
				       sizeof(err)) <= 0)
			return say(cl, bad_file,
				   "%s: no PCR values readable (DIR/pcr-sha256/10 and so on: a TPM's sysfs directory)",
				   in->arg);
		return IMA_EXIT_OK;
	case OPT_KEY:
		if (ima_keyring_load(&opts->keys, in->arg, err, sizeof(err)))
			return say(cl, bad_file, "%s", err);
		return IMA_EXIT_OK;
	case OPT_DENY:
		if (cl->deny)
			return say(cl, IMA_EXIT_USAGE, "%s",
				   "--deny given twice: put the revoked digests in one file");
		cl->deny = ima_deny_new();
		if (!cl->deny)
			return say(cl, bad_file, "out of memory");
		if (ima_deny_load(cl->deny, in->arg, err, sizeof(err)))
			return say(cl, bad_file, "%s", err);
		opts->deny = cl->deny;
		return IMA_EXIT_OK;
	case OPT_CA:
		if (ima_listkeys_load_ca(&cl->listkeys, in->arg, err,
					 sizeof(err)))
			return say(cl, bad_file, "%s", err);
		opts->listkeys = &cl->listkeys;
		return IMA_EXIT_OK;
	case OPT_MANIFEST:
		if (!opts->manifest)
			opts->manifest = ima_manifest_new();
		if (!opts->manifest || !excludes(cl))
			return say(cl, bad_file, "out of memory");
		switch (ima_keylime_sniff(in->arg)) {
		case -1:
			return say(cl, bad_file, "%s: %s", in->arg,
				   strerror(errno));
		case 1:
			if (opts->keylime)
				return say(cl, IMA_EXIT_USAGE, "%s",
					   "two Keylime runtime policies: give one (its keyrings and ima-buf would mix)");
			if (ima_keylime_load(&cl->keylime, opts->manifest,
					     cl->excludes, in->arg, err,
					     sizeof(err)))
				return say(cl, bad_file, "%s", err);
			opts->keylime = &cl->keylime;
			return IMA_EXIT_OK;
		}
		if (ima_manifest_load(opts->manifest, in->arg, err,
				      sizeof(err)))
			return say(cl, bad_file, "%s", err);
		return IMA_EXIT_OK;
	case OPT_EXCLUDE:
		if (!excludes(cl))
			return say(cl, bad_file, "out of memory");
		if (ima_excludes_add(cl->excludes, in->arg, strlen(in->arg),
				     "--exclude", err, sizeof(err)))
			return say(cl, IMA_EXIT_USAGE, "%s", err);
		return IMA_EXIT_OK;
	case OPT_EXPECT_POLICY:
		free(cl->policy);
		cl->policy = read_small_file(in->arg,
					     &opts->expect_policy_len);
		if (!cl->policy)
			return say(cl, bad_file, "%s: %s", in->arg,
				   strerror(errno));
		opts->expect_policy = cl->policy;
		opts->expect_policy_name = in->arg;
		return IMA_EXIT_OK;
	}
	return IMA_EXIT_USAGE;
}

/* The summary of a verified quote the reports print. */
static struct ima_quote_summary quote_summary(const struct ima_quote_check *qc)
{
	return (struct ima_quote_summary) {
		.tpm_generated = qc->quote.magic == TPM_GENERATED_VALUE &&
				 qc->quote.type == TPM_ST_ATTEST_QUOTE,
		.nonce_ok = qc->nonce_ok,
		.sig_ok = qc->sig_ok,
		.pcrs_ok = qc->pcrs_ok,
		.reset_count = qc->quote.reset_count,
		.restart_count = qc->quote.restart_count,
		.clock_ms = (unsigned long long)qc->quote.clock,
	};
}

/*
 * --show-policy: the recorded policy on stdout, failures on stderr. With
 * nothing to attest one (no PCR values bind its PCR), the policy the list
 * claims, said to be unattested: the exit status stays a failure.
 */
static int show_policy(struct cmdline *cl, const struct ima_audit *a,
		       int rc)
{
	const char *log = cl->log;

	if (a->policy_found) {
		fwrite(a->policy, 1, a->policy_len, stdout);
	} else if (a->policy_unattributed) {
		fprintf(stderr, "ima-audit: %s: no policy can be attributed to the last kernel: %s\n",
			log, a->policy_diff);
	} else if (a->has_claimed_policy &&
		   !(a->bound & (1u << a->claimed_policy_pcr))) {
		fwrite(a->claimed_policy, 1, a->claimed_policy_len, stdout);
		fprintf(stderr, "ima-audit: %s: the policy above is what entry %llu claims, NOT ATTESTED: nothing binds PCR %u (give its values: --pcrs FILE, --pcr-value sha256:%u=HEX, --tpm-sysfs, or a quote)\n",
			log, (unsigned long long)a->claimed_policy_index,
			a->claimed_policy_pcr, a->claimed_policy_pcr);
	} else if (a->has_claimed_policy) {
		fprintf(stderr, "ima-audit: %s: entry %llu records a policy, but it is not attested: %s\n",
			log, (unsigned long long)a->claimed_policy_index,
			a->quote_failed ? "the quote failed" :
			"it is after the prefix the PCR values cover");
	} else {
		fprintf(stderr, "ima-audit: no ima_policy entry in %s\n", log);
	}
	ima_report_failures(a, stderr);
	cl->reported = true;
	if (rc == IMA_EXIT_OK && !a->policy_found)
		rc = IMA_EXIT_FAIL;
	return rc;
}

/* The list to read: standard input, or the file (3 if it cannot be). */
static int open_list(struct cmdline *cl, int *fd)
{
	if (!strcmp(cl->log, "-")) {
		*fd = STDIN_FILENO;
		return IMA_EXIT_OK;
	}
	if (is_dir(cl->log))
		return say(cl, IMA_EXIT_MALFORMED,
			   "%s: a directory, not a measurement list", cl->log);
	*fd = open(cl->log, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return say(cl, IMA_EXIT_MALFORMED, "%s: %s", cl->log,
			   strerror(errno));
	return IMA_EXIT_OK;
}

/* Loads every input, audits the list, prints; returns the exit code. */
static int run(struct cmdline *cl)
{
	struct ima_audit_opts *opts = &cl->opts;
	struct quote_args *qa = &cl->qa;
	struct ima_quote_summary qsum;
	struct ima_audit audit;
	struct ima_reader reader;
	char why[600];
	bool quote, page_oom = false;
	size_t i;
	int fd = -1, rc;

	for (i = 0; i < cl->ninputs; i++) {
		rc = load_input(cl, &cl->inputs[i]);
		if (rc != IMA_EXIT_OK)
			return rc;
	}
	rc = list_bank(cl, &opts->reader, cl->log);
	if (rc != IMA_EXIT_OK)
		return rc;

	quote = qa->msg || qa->sig || qa->ak || qa->pcrs || cl->nonce_given;
	if (quote && (!qa->msg || !qa->sig || !qa->ak || !cl->nonce_given))
		return say(cl, IMA_EXIT_USAGE, "%s",
			   "a quote needs --quote, --quote-sig, --ak-pub and --nonce");
	if (quote) {
		rc = verify_quote(cl, qa, opts, &cl->qc);
		if (rc != IMA_EXIT_OK && rc != IMA_EXIT_FAIL)
			return rc;
		opts->quote = &cl->qc;
	}

	opts->banks = 1u << IMA_BANK_SHA1 | 1u << IMA_BANK_SHA256;
	opts->input_name = cl->log;
	if (opts->keylime_out_name) {
		opts->keylime_out = cl->keylime_out = ima_keylime_out_new();
		if (!opts->keylime_out)
			return say(cl, IMA_EXIT_MALFORMED, "out of memory");
	}
	if (cl->html) {
		opts->on_record = ima_table_record;
		opts->record_ctx = &cl->table;
	}

	rc = open_list(cl, &fd);
	if (rc != IMA_EXIT_OK)
		return rc;
	if (ima_reader_init_fd(&reader, fd, &opts->reader) ||
	    ima_audit_init(&audit, opts)) {
		if (fd > STDIN_FILENO)
			close(fd);
		return say(cl, IMA_EXIT_MALFORMED, "out of memory");
	}
	ima_audit_run(&audit, &reader);
	ima_reader_free(&reader);
	if (fd > STDIN_FILENO)
		close(fd);
	if (quote) {
		qsum = quote_summary(&cl->qc);
		audit.quote = &qsum;
	}

	/* what the run writes, before the report that says whether it could */
	if (opts->keylime_out && (audit.malformed || audit.io_error ||
				  audit.oom)) {
		fprintf(stderr, "ima-audit: %s: not written: the audit is incomplete, it proves no entry\n",
			opts->keylime_out_name);
		opts->keylime_out = NULL;	/* freed by cmdline_free */
	} else if (opts->keylime_out &&
		   ima_html_write_file(opts->keylime_out_name, write_keylime,
				       &audit)) {
		snprintf(why, sizeof(why), "%s: cannot write the Keylime policy: %s",
			 opts->keylime_out_name, strerror(errno));
		fprintf(stderr, "ima-audit: %s\n", why);
		snprintf(cl->error, sizeof(cl->error), "%s", why);
		audit.write_error = cl->error;
	}
	if (cl->html && !html_page(cl->html, &audit, &cl->table, why,
				   sizeof(why))) {
		fprintf(stderr, "ima-audit: %s\n", why);
		page_oom = cl->table.oom;
		if (!audit.write_error) {
			snprintf(cl->error, sizeof(cl->error), "%s", why);
			audit.write_error = cl->error;
		}
	}

	if (audit.malformed || audit.io_error) {
		text_escape(why, sizeof(why), audit.error);
		fprintf(stderr, "ima-audit: %s: %s at byte offset %llu: %s\n",
			cl->log, audit.malformed ? "malformed log" :
			"read error", (unsigned long long)audit.error_offset,
			why);
	}
	else if (audit.oom)
		fprintf(stderr, "ima-audit: %s: %s\n", cl->log, audit.error);
	rc = ima_audit_exit_code(&audit);
	if (page_oom)
		rc = IMA_EXIT_MALFORMED;
	if (cl->json) {
		ima_report_json(&audit, stdout);
		cl->reported = true;
	} else if (cl->show_policy) {
		rc = show_policy(cl, &audit, rc);
	} else {
		if (quote)
			print_quote(&cl->qc, stdout);
		ima_report_text(&audit, stdout);
		cl->reported = true;
	}
	ima_audit_free(&audit);
	if (fflush(stdout)) {
		fprintf(stderr, "ima-audit: write error: %s\n",
			strerror(errno));
		if (rc == IMA_EXIT_OK)
			rc = IMA_EXIT_FAIL;
	}
	return rc;
}

static void cmdline_free(struct cmdline *cl)
{
	free(cl->inputs);
	free(cl->policy);
	ima_keyring_free(&cl->opts.keys);
	ima_listkeys_free(&cl->listkeys);
	ima_deny_free(cl->deny);
	ima_manifest_free(cl->opts.manifest);
	ima_keylime_free(&cl->keylime);
	ima_excludes_free(cl->excludes);
	ima_keylime_out_free(cl->keylime_out);
	ima_table_free(&cl->table);
}

/* --json anywhere before "--": errors too are then one JSON object. */
static bool wants_json(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	static struct cmdline cl;
	int rc;

	cl.json = wants_json(argc, argv);
	rc = parse_cmdline(&cl, argc, argv);
	if (rc == CMDLINE_RUN)
		rc = run(&cl);
	if (cl.json && !cl.reported) {
		ima_report_json_error(stdout, cl.log, rc,
				      cl.error[0] ? cl.error : NULL);
		if (fflush(stdout) && rc == IMA_EXIT_OK)
			rc = IMA_EXIT_FAIL;
	}
	cmdline_free(&cl);
	return rc;
}
