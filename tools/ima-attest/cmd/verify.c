// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest verify: a quote by the enrolled AK, the firmware's event log
 * against it, boot_aggregate against the list (the verdict: att_verify).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "att_cmd.h"
#include "att_page.h"
#include "ima_hash.h"

static const struct att_cmd cmd = {
	.name = "verify",
	.summary = "Verify a quote by the enrolled AK, the firmware event log against the\n"
		   "quoted PCRs 0-9, and the list's boot_aggregate against them",
	.text =
"The quote (tpm2_quote -m, -s, -o -F values) must be signed by the AK of\n"
"DIR's enrollment, trusted by the rule of `ima-attest enrolled`, carry the\n"
"nonce as extraData, and its pcrDigest must be the quoted values'. The\n"
"firmware's event log (binary_bios_measurements: crypto agile, or the SHA1\n"
"format of TCG 1.2, which attests the sha1 bank only) must replay, in every\n"
"bank it carries and the quote has, to the quoted PCRs 0-9, and every bank\n"
"it carries must be quoted. With --list, the list's first entry must be the\n"
"boot_aggregate of those PCRs, read from the record's data, not its\n"
"template name (the definition before Linux 5.8, PCRs 0-7, is named).\n"
"Proves nothing of the rest of the list (ima-attest poll, ima-audit).\n"
"\n"
"--html writes the result as the page of ima-audit --html; --rounds adds\n"
"the polling rounds that `ima-attest poll --record` wrote.\n"
"\n"
"Exit status: 0 proven, 1 refused (every reason printed), 2 usage or I/O\n"
"error (an unreadable quote file, a page that cannot be written).\n",
};

static void text(const struct att_verify *v)
{
	char hx[2 * 32 + 1];
	int i;

	printf("quote (enrolled AK, nonce, pcrDigest): %s\n", v->quote_ok ? "PASS" : "FAIL");
	if (v->ev_read) {
		printf("firmware event log: %s%u events, banks",
		       v->ev->sha1_log ? "SHA1 (TCG 1.2) format, only sha1 attested, " : "",
		       v->ev->events);
		for (i = 0; i < v->ev->nbanks; i++)
			printf(" %s", att_evlog_bank_name(v->ev, i, hx, sizeof(hx)));
		printf(", PCRs extended 0x%06x\n", v->ev->touched);
	}
	if (v->ev_ok)
		printf("firmware event log replays to the quoted PCRs 0-9: PASS\n");
	if (v->have_agg) {
		ima_bin2hex(v->agg, 32, hx);
		printf("boot_aggregate from the replayed PCRs 0-9: sha256:%s\n", hx);
	}
	if (v->have_want && v->def > IMA_BOOT_DEF_NONE)
		printf("boot_aggregate: matches the list's first entry%s\n",
		       v->def == IMA_BOOT_DEF_PRE_5_8 ?
		       ", by the definition before Linux 5.8 (PCRs 0-7 only: PCRs 8-9 are not in it)" : "");
	att_print_reasons(stdout, &v->rs);
	printf("result: %s\n", v->rs.n ? "FAIL" : "PASS");
}

static void json(struct att_cli *cli, const struct att_verify *v,
		 const char *html)
{
	const struct ima_quote_check *qc = &v->qc;
	const struct att_evlog *ev = v->ev;
	FILE *out = cli->out;
	int i, j;

	att_json_key(out, "enrollment");
	if (v->rec.boot[0])
		att_json_enrollment(out, &v->rec);
	else
		fputs("null", out);
	att_json_key(out, "quote");
	if (qc->ak)
		fprintf(out, "{\"signature\":%s,\"nonce\":%s,\"pcr_digest\":%s,\"reset_count\":%u,\"restart_count\":%u,\"clock_ms\":%llu}",
			qc->sig_ok ? "true" : "false", qc->nonce_ok ? "true" : "false",
			qc->pcrs_ok ? "true" : "false", qc->quote.reset_count,
			qc->quote.restart_count, (unsigned long long)qc->quote.clock);
	else
		fputs("null", out);
	fprintf(out, ",\"quote_proven\":%s", v->quote_ok ? "true" : "false");
	att_json_key(out, "eventlog");
	if (ev && v->ev_read) {
		fprintf(out, "{\"format\":\"%s\",\"events\":%u,\"banks\":",
			ev->sha1_log ? "sha1" : "crypto-agile", ev->events);
		att_json_banks(out, ev);
		fputs(",\"pcrs\":[", out);
		for (j = 0, i = 0; i < ATT_EV_PCRS; i++)
			if (ev->touched & (1u << i))
				fprintf(out, "%s%d", j++ ? "," : "", i);
		fprintf(out, "],\"replays_to_quote\":%s,\"error\":null}",
			v->ev_ok ? "true" : "false");
	} else {
		fputs("{\"error\":", out);
		att_json_str(out, v->ev_error);
		fputc('}', out);
	}
	att_json_key(out, "boot_aggregate");
	fputs("{\"derived\":", out);
	att_json_hex(out, v->agg, v->have_agg ? 32 : 0);
	att_json_key(out, "list");
	att_json_hex(out, v->want, v->have_want ? 32 : 0);
	att_json_key(out, "definition");
	att_json_str(out, !v->have_want || v->def <= IMA_BOOT_DEF_NONE ? NULL :
		     v->def == IMA_BOOT_DEF_PRE_5_8 ? "pre-5.8: PCRs 0-7" :
		     "PCRs 0-9");
	fputc('}', out);
	att_json_key(out, "proven");
	att_json_strs(out, v->proven, v->nproven);
	att_json_key(out, "page");
	att_json_str(out, html);
}

int cmd_verify(int argc, char **argv)
{
	struct att_quote_opts q;
	const char *logf, *listf, *html, *rounds;
	const struct att_opt opts[] = {
		ATT_OPTS_QUOTE(&q),
		{ "eventlog", "LOG", &logf, true,
		  "the firmware's event log (binary_bios_measurements)" },
		{ "list", "LIST", &listf, false,
		  "the binary measurement list: its boot_aggregate checked" },
		{ "html", "FILE", &html, false,
		  "also write the result as one self-contained HTML page" },
		{ "rounds", "JSONL", &rounds, false,
		  "with --html: the rounds `ima-attest poll --record` wrote" },
		ATT_OPT_END,
	};
	struct att_quote_files qf = { 0 };
	struct att_verify v = { 0 };
	struct att_cli cli;
	char err[512];
	int rc, fd;

	rc = att_cli_parse(&cli, &cmd, opts, 0, 0, argc, argv);
	if (rc >= 0)
		return rc;
	if (rounds && !html)
		return att_cli_fail(&cli, ATT_EXIT_ERROR,
				    "--rounds is shown on the page: give --html FILE too");
	if (rounds) {
		fd = open(rounds, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return att_cli_fail(&cli, ATT_EXIT_ERROR, "--rounds %s: %s",
					    rounds, strerror(errno));
		close(fd);
	}
	if (att_quote_files_load(&qf, q.msg, q.sig, q.pcrs, q.nonce, err,
				 sizeof(err)))
		return att_cli_fail(&cli, ATT_EXIT_ERROR, "%s", err);
	v.enrolled = q.enrolled;
	v.q = &qf;
	v.eventlog = logf;
	v.list = listf;
	rc = att_verify(&v);
	if (rc < 0) {
		rc = att_cli_fail(&cli, ATT_EXIT_ERROR, "out of memory");
		goto out;
	}
	if (html) {
		struct att_page_verify pv = {
			.enrolled = q.enrolled, .quote_checked = !!v.qc.ak,
			.quote_ok = v.quote_ok, .qc = &v.qc, .ev = v.ev,
			.ev_error = v.ev_read ? NULL : v.ev_error,
			.agg = v.have_agg ? v.agg : NULL,
			.list_agg = v.have_want ? v.want : NULL, .rs = &v.rs,
			.proven = v.proven, .nproven = v.nproven,
			.rounds = rounds,
		};

		if (att_page_verify(html, &pv))
			rc = att_cli_error(&cli, ATT_EXIT_ERROR,
					   "%s: cannot write the page: %s", html,
					   strerror(errno));
	}
	if (cli.json) {
		att_json_begin(&cli);
		json(&cli, &v, rc == ATT_EXIT_ERROR ? NULL : html);
		att_json_end(&cli, &v.rs, rc);
	} else {
		text(&v);
	}
out:
	att_verify_free(&v);
	att_quote_files_free(&qf);
	return rc;
}
