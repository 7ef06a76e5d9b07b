// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest poll: one round of incremental verification (the verdict:
 * att_poll, over the quote checked by att_quote_check).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "att_cmd.h"
#include "ima_audit.h"
#include "ima_sig.h"

#define MAX_ENTRIES	(64u << 20)

static const struct att_cmd cmd = {
	.name = "poll",
	.summary = "One round of incremental verification of a running machine's list:\n"
		   "a fresh quote and only the entries since the last round",
	.text =
"The quote must be the enrolled AK's over this round's nonce (as verify),\n"
"of the same boot as the last round (resetCount, restartCount; the clock\n"
"not going back). The entries (binary, from byte --offset of the list on)\n"
"must start where the state ends and replay from its PCR 10 to the quoted\n"
"PCR 10 in both banks at some prefix; entries after it wait for the next\n"
"round. Entry 0 must be the boot_aggregate of the quoted PCRs 0-9; a kexec\n"
"hand-over must be followed by the next kernel's boot_aggregate. With\n"
"--key every new file entry must carry a signature that verifies; with\n"
"--deny no new entry's digest may be listed. Records are read by their\n"
"data, never their template name. A round proves nothing of the firmware\n"
"log (ima-attest verify) or the active policy (ima-audit --expect-policy).\n"
"\n"
"The state FILE (made on the first round, moved only when a round passes)\n"
"and the --record FILE are the verifier's own: in a directory only it can\n"
"write, never through a link, each written whole and renamed into place.\n"
"--record appends this round, passed or refused, as one JSON object a line\n"
"(name, pass, verified, uncovered, next_entry, lines, failures), which\n"
"`ima-attest verify --html PAGE --rounds FILE` shows.\n"
"\n"
"Exit status: 0 the round passed, 1 refused (state unchanged, every reason\n"
"printed), 2 usage or I/O error (state or record unreadable or unsafe).\n",
};

struct round {
	struct att_cli *cli;
	const char *name;
	const char *statef, *dir, *denyf;
	struct att_poll_state st;
	struct att_poll_round r;
	struct ima_quote_check qc;
	struct ima_denylist *deny;
	bool first, ran, saved;
	char *lines;			/* the text lines of the verdict */
	size_t lines_len;
};

/* what the round proved, or why not, as the lines of text */
static void verdict_lines(struct round *x, FILE *out)
{
	const struct att_poll_state *st = &x->st;
	const struct att_poll_round *r = &x->r;

	att_print_reasons(out, &r->rs);
	if (r->rs.n || !x->saved) {
		fprintf(out, "round: FAIL (state kept at entry %llu, byte %llu)\n",
			(unsigned long long)st->next_index,
			(unsigned long long)st->next_offset);
		return;
	}
	fputs("proven: TPM identity and AK binding (", out);
	att_text(out, x->dir);
	fprintf(out, "/verdict, every field checked); the quote signed by that AK over this round's nonce; %s (resetCount %lu, restartCount %lu%s); %llu new entries from entry %llu replay from the saved state to the quoted PCR 10 in both banks%s; %s\n",
		x->first ? "boot identity recorded" : "the same boot as the last round",
		(unsigned long)st->reset_count, (unsigned long)st->restart_count,
		x->first ? "" : ", clock not backwards",
		(unsigned long long)r->verified,
		(unsigned long long)(st->next_index - r->verified),
		st->next_index == r->verified && r->verified ?
		", entry 0's boot_aggregate = the quoted PCRs 0-9" : "",
		r->verifier ? "every new file entry's signature verified with the IMA key" :
			      "signatures not checked (no --key)");
	if (x->deny) {
		fprintf(out, "proven: no new entry's digest is among the %zu of ",
			ima_deny_count(x->deny));
		att_text(out, x->denyf);
		fputc('\n', out);
	}
	fputs("not proven by a round: the firmware event log (ima-attest verify), the active policy (ima-audit --expect-policy)\n",
	      out);
	fprintf(out, "round %llu: PASS, %llu new entries verified, %llu after the quote left for the next round; next entry %llu at byte %llu\n",
		(unsigned long long)st->rounds, (unsigned long long)r->verified,
		(unsigned long long)r->uncovered,
		(unsigned long long)st->next_index,
		(unsigned long long)st->next_offset);
}

static void json_num(FILE *out, const char *key, bool have, uint64_t v)
{
	att_json_key(out, key);
	if (have)
		fprintf(out, "%llu", (unsigned long long)v);
	else
		fputs("null", out);
}

/* the fields of this round, in the --json object and the --record line */
static void json_round(struct round *x, FILE *out)
{
	bool pass = !x->r.rs.n && x->saved;
	char when[32];
	time_t now = time(NULL);
	const char *p, *nl, *end = x->lines + x->lines_len;
	int i;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fputs("\"name\":", out);
	att_json_str(out, x->name);
	fprintf(out, ",\"time\":\"%s\",\"pass\":%s", when, pass ? "true" : "false");
	json_num(out, "round", x->saved, x->st.rounds);
	json_num(out, "verified", pass, x->r.verified);
	json_num(out, "uncovered", pass, x->r.uncovered);
	json_num(out, "next_entry", x->ran || x->saved, x->st.next_index);
	json_num(out, "next_offset", x->ran || x->saved, x->st.next_offset);
	fprintf(out, ",\"first\":%s", x->first ? "true" : "false");
	/* the boot the state is of now: this round's quote's, once passed */
	json_num(out, "reset_count", x->saved, x->st.reset_count);
	json_num(out, "restart_count", x->saved, x->st.restart_count);
	json_num(out, "clock_ms", x->saved, x->st.clock);
	fputs(",\"lines\":[", out);
	for (i = 0, p = x->lines; p && p < end; p = nl + 1, i++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		fputs(i ? ",\"" : "\"", out);
		ima_json_escape(out, p, (size_t)(nl - p));
		fputc('"', out);
	}
	fputs("],\"failures\":[", out);
	for (i = 0; i < x->r.rs.n; i++) {
		fprintf(out, "%s{\"class\":\"%s\",\"reason\":", i ? "," : "",
			att_fail_class_name(x->r.rs.cls[i]));
		att_json_str(out, x->r.rs.r[i]);
		fputc('}', out);
	}
	fputc(']', out);
}

/* this round, one line appended to the --record file (written safely) */
static int record_round(struct round *x, const char *path, char *err,
			size_t errlen)
{
	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);
	int rc;

	if (!m) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fputc('{', m);
	json_round(x, m);
	fputs("}\n", m);
	if (fclose(m)) {
		free(line);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = att_file_append(path, line, len, ATT_ROUNDS_MAX, err, errlen);
	free(line);
	return rc;
}

int cmd_poll(int argc, char **argv)
{
	struct att_quote_opts q;
	const char *statef, *entf, *offs, *keyf, *denyf, *recordf, *name;
	const struct att_opt opts[] = {
		{ "state", "FILE", &statef, true,
		  "the verifier's state between rounds (made on the first)" },
		ATT_OPTS_QUOTE(&q),
		{ "entries", "FILE", &entf, true,
		  "the binary list's bytes from --offset on" },
		{ "offset", "BYTES", &offs, true,
		  "where the entries start in the list (the state's next)" },
		{ "key", "CERT", &keyf, false,
		  "the IMA key (PEM or DER certificate or key): signatures" },
		{ "deny", "FILE", &denyf, false,
		  "digests of revoked files (sha256sum, --tag or Keylime)" },
		{ "record", "FILE", &recordf, false,
		  "append this round to FILE, one JSON object a line" },
		{ "round", "NAME", &name, false,
		  "this round's name in the record (default: round N)" },
		ATT_OPT_END,
	};
	struct att_quote_files qf = { 0 };
	struct att_enrollment rec = { 0 };
	struct ima_keyring kr = { 0 };
	struct round x = { 0 };
	struct att_cli cli;
	char err[ATT_REASON_LEN + 64], *end, namebuf[40];
	uint8_t *ent = NULL;
	size_t ent_len;
	FILE *lines;
	int rc, ls;
	bool quote_ok;

	rc = att_cli_parse(&cli, &cmd, opts, 0, 0, argc, argv);
	if (rc >= 0)
		return rc;
	x.cli = &cli;
	x.statef = statef;
	x.dir = q.enrolled;
	x.denyf = denyf;
	errno = 0;
	x.r.offset = strtoull(offs, &end, 10);
	if (errno || *end || !*offs || *offs == '-')
		return att_cli_fail(&cli, ATT_EXIT_ERROR,
				    "--offset: a byte offset in the list (not '%s')", offs);
	/* every file the verifier keeps or is given, before the round */
	if (recordf && att_file_append(recordf, NULL, 0, ATT_ROUNDS_MAX, err,
				       sizeof(err)))
		return att_cli_fail(&cli, ATT_EXIT_ERROR, "--record: %s", err);
	ls = att_poll_load(&x.st, statef, err, sizeof(err));
	if (ls < 0)
		return att_cli_fail(&cli, ATT_EXIT_ERROR, "%s", err);
	x.first = !x.st.have_boot;
	snprintf(namebuf, sizeof(namebuf), "round %llu",
		 (unsigned long long)x.st.rounds + 1);
	x.name = name ? name : namebuf;
	rc = ATT_EXIT_ERROR;
	if (denyf) {
		x.deny = ima_deny_new();
		if (!x.deny || ima_deny_load(x.deny, denyf, err, sizeof(err))) {
			att_cli_error(&cli, ATT_EXIT_ERROR, "%s",
				      x.deny ? err : "out of memory");
			goto print;
		}
	}
	if (att_quote_files_load(&qf, q.msg, q.sig, q.pcrs, q.nonce, err,
				 sizeof(err))) {
		att_cli_error(&cli, ATT_EXIT_ERROR, "%s", err);
		goto print;
	}
	ent = att_slurp(entf, MAX_ENTRIES, &ent_len);
	if (!ent) {
		att_cli_error(&cli, ATT_EXIT_ERROR,
			      "cannot read the round's entries: %s: %s", entf,
			      strerror(errno));
		goto print;
	}
	if (keyf) {
		if (ima_keyring_load(&kr, keyf, err, sizeof(err))) {
			att_cli_error(&cli, ATT_EXIT_ERROR, "%s", err);
			goto print;
		}
		x.r.verifier = ima_verifier_new(&kr);
		if (!x.r.verifier) {
			att_cli_error(&cli, ATT_EXIT_ERROR, "out of memory");
			goto print;
		}
	}
	x.ran = true;
	quote_ok = att_quote_check(&x.qc, &qf, q.enrolled, &rec, &x.r.rs);
	/* the state is of one enrolled AK: a new enrollment starts anew */
	if (x.qc.ak && ls == 0 &&
	    (x.st.ak_name_len != rec.ak_name_len ||
	     memcmp(x.st.ak_name, rec.ak_name, rec.ak_name_len))) {
		att_reason(&x.r.rs, ATT_FC_STATE,
			   "the state %s is of another enrolled AK: remove it to start from entry 0",
			   statef);
	} else if (quote_ok) {
		memcpy(x.st.ak_name, rec.ak_name, rec.ak_name_len);
		x.st.ak_name_len = rec.ak_name_len;
		x.r.reset_count = x.qc.quote.reset_count;
		x.r.restart_count = x.qc.quote.restart_count;
		x.r.clock = x.qc.quote.clock;
		x.r.quoted = &x.qc.pcrs;
		x.r.entries = ent;
		x.r.entries_len = ent_len;
		x.r.deny = x.deny;
		att_poll(&x.st, &x.r);
	}
	if (x.r.rs.n) {
		rc = ATT_EXIT_FAIL;
	} else if (att_poll_save(&x.st, statef, err, sizeof(err))) {
		att_cli_error(&cli, ATT_EXIT_ERROR, "%s", err);
	} else {
		x.saved = true;
		rc = ATT_EXIT_OK;
	}
print:
	lines = open_memstream(&x.lines, &x.lines_len);
	if (lines) {
		if (cli.error[0])
			fprintf(lines, "error: %s\n", cli.error);
		verdict_lines(&x, lines);
		if (fclose(lines)) {
			free(x.lines);
			x.lines = NULL;
			x.lines_len = 0;
		}
	}
	if (recordf && record_round(&x, recordf, err, sizeof(err)))
		rc = att_cli_error(&cli, ATT_EXIT_ERROR, "--record: %s", err);
	if (cli.json) {
		att_json_begin(&cli);
		att_json_key(cli.out, "round");
		fputc('{', cli.out);
		json_round(&x, cli.out);
		fputc('}', cli.out);
		att_json_key(cli.out, "record");
		att_json_str(cli.out, recordf);
		att_json_end(&cli, &x.r.rs, rc);
	} else if (x.ran || x.r.rs.n) {
		/* the lines without the error, which went to stderr */
		const char *p = x.lines;

		if (p && cli.error[0] && !strncmp(p, "error: ", 7))
			p = strchr(p, '\n') + 1;
		if (p)
			fwrite(p, 1, x.lines_len - (size_t)(p - x.lines), stdout);
	}
	ima_verifier_free(x.r.verifier);
	ima_deny_free(x.deny);
	ima_keyring_free(&kr);
	att_pkey_free(x.qc.ak);
	att_reasons_free(&x.r.rs);
	att_enrollment_free(&rec);
	att_quote_files_free(&qf);
	free(x.lines);
	free(ent);
	return rc;
}
