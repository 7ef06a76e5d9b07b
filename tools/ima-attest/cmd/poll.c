// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest poll --state FILE --enrolled DIR --quote MSG --quote-sig SIG
 *                 --quote-pcrs VALUES --nonce HEX --entries FILE
 *                 --offset BYTES [--key CERT] [--deny FILE]
 *
 * One round of incremental verification: a fresh quote by the enrolled AK
 * and only the list entries from byte BYTES on, verified from the state
 * FILE (made on the first round, updated when the round passes). With
 * --deny (ima-audit's deny list forms), a new entry whose digest is listed
 * fails the round, signed or not.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ima_attest.h"
#include "ima_quote.h"
#include "ima_sig.h"

#include "att_cmd.h"

#define MAX_ENTRIES	(64u << 20)

int cmd_poll(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state", required_argument, NULL, 'S' },
		{ "enrolled", required_argument, NULL, 'e' },
		{ "quote", required_argument, NULL, 'q' },
		{ "quote-sig", required_argument, NULL, 's' },
		{ "quote-pcrs", required_argument, NULL, 'p' },
		{ "nonce", required_argument, NULL, 'n' },
		{ "entries", required_argument, NULL, 'E' },
		{ "offset", required_argument, NULL, 'o' },
		{ "key", required_argument, NULL, 'k' },
		{ "deny", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	const char *statef = NULL, *dir = NULL, *msgf = NULL, *sigf = NULL;
	const char *denyf = NULL;
	struct ima_denylist *deny = NULL;
	const char *pcrf = NULL, *noncehex = NULL, *entf = NULL, *keyf = NULL;
	const char *offs = NULL;
	uint8_t *ent = NULL;
	size_t ent_len;
	struct att_quote_files qf = { 0 };
	struct ima_quote_check qc = { 0 };
	struct att_poll_round r = { 0 };
	struct ima_keyring kr = { 0 };
	struct att_poll_state st;
	struct att_enrollment rec = { 0 };
	char err[ATT_REASON_LEN], *end;
	int opt, rc = 2, ls;
	bool first, quote_ok;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'S': statef = optarg; break;
		case 'e': dir = optarg; break;
		case 'q': msgf = optarg; break;
		case 's': sigf = optarg; break;
		case 'p': pcrf = optarg; break;
		case 'n': noncehex = optarg; break;
		case 'E': entf = optarg; break;
		case 'o': offs = optarg; break;
		case 'k': keyf = optarg; break;
		case 'D': denyf = optarg; break;
		default: att_usage();
		}
	}
	if (!statef || !dir || !msgf || !sigf || !pcrf || !noncehex || !entf ||
	    !offs || optind != argc)
		att_usage();

	errno = 0;
	r.offset = strtoull(offs, &end, 10);
	if (errno || *end || !*offs) {
		fprintf(stderr, "ima-attest: bad --offset\n");
		return 2;
	}
	ls = att_poll_load(&st, statef, err, sizeof(err));
	if (ls < 0) {
		fprintf(stderr, "ima-attest: %s\n", err);
		return 2;
	}
	if (denyf) {
		deny = ima_deny_new();
		if (!deny || ima_deny_load(deny, denyf, err, sizeof(err))) {
			fprintf(stderr, "ima-attest: %s\n", deny ? err : "out of memory");
			goto out;
		}
	}
	first = !st.have_boot;
	if (att_quote_files_load(&qf, msgf, sigf, pcrf, noncehex, err,
				 sizeof(err))) {
		fprintf(stderr, "ima-attest: %s\n", err);
		goto out;
	}
	ent = att_slurp(entf, MAX_ENTRIES, &ent_len);
	if (!ent) {
		fprintf(stderr, "ima-attest: cannot read the round's entries: %s: %s\n",
			entf, strerror(errno));
		goto out;
	}
	if (keyf) {
		if (ima_keyring_load(&kr, keyf, err, sizeof(err))) {
			fprintf(stderr, "ima-attest: %s\n", err);
			goto out;
		}
		r.verifier = ima_verifier_new(&kr);
		if (!r.verifier)
			goto out;
	}
	quote_ok = att_quote_check(&qc, &qf, dir, &rec, &r.rs);
	/* the state is of one enrolled AK: a new enrollment starts anew */
	if (qc.ak && ls == 0 && (st.ak_name_len != rec.ak_name_len ||
				 memcmp(st.ak_name, rec.ak_name, rec.ak_name_len))) {
		att_reason(&r.rs, ATT_FC_STATE, "the state %s is of another enrolled AK: remove it to start from entry 0",
			   statef);
		goto verdict;
	}
	if (!quote_ok)
		goto verdict;
	memcpy(st.ak_name, rec.ak_name, rec.ak_name_len);
	st.ak_name_len = rec.ak_name_len;
	r.reset_count = qc.quote.reset_count;
	r.restart_count = qc.quote.restart_count;
	r.clock = qc.quote.clock;
	r.quoted = &qc.pcrs;
	r.entries = ent;
	r.entries_len = ent_len;
	r.deny = deny;
	att_poll(&st, &r);
verdict:
	for (int i = 0; i < r.rs.n; i++)
		printf("reason: %s\n", r.rs.r[i]);
	if (r.rs.n) {
		printf("round: FAIL (state kept at entry %llu, byte %llu)\n",
		       (unsigned long long)st.next_index, (unsigned long long)st.next_offset);
		rc = 1;
		goto out;
	}
	if (att_poll_save(&st, statef, err, sizeof(err))) {
		fprintf(stderr, "ima-attest: %s\n", err);
		goto out;
	}
	/* what this round proved, and what a round never proves */
	printf("proven: TPM identity and AK binding (%s/verdict, every field checked); the quote signed by that AK over this round's nonce; %s (resetCount %lu, restartCount %lu%s); %llu new entries from entry %llu replay from the saved state to the quoted PCR 10 in both banks%s; %s\n",
	       dir, first ? "boot identity recorded" : "the same boot as the last round",
	       (unsigned long)st.reset_count, (unsigned long)st.restart_count,
	       first ? "" : ", clock not backwards",
	       (unsigned long long)r.verified, (unsigned long long)(st.next_index - r.verified),
	       st.next_index == r.verified && r.verified ? ", entry 0's boot_aggregate = the quoted PCRs 0-9" : "",
	       r.verifier ? "every new file entry's signature verified with the IMA key" :
			    "signatures not checked (no --key)");
	if (deny)
		printf("proven: no new entry's digest is among the %zu of %s\n",
		       ima_deny_count(deny), denyf);
	printf("not proven by a round: the firmware event log (ima-attest verify), the active policy (ima-audit --expect-policy)\n");
	printf("round %llu: PASS, %llu new entries verified, %llu after the quote left for the next round; next entry %llu at byte %llu\n",
	       (unsigned long long)st.rounds, (unsigned long long)r.verified,
	       (unsigned long long)r.uncovered, (unsigned long long)st.next_index,
	       (unsigned long long)st.next_offset);
	rc = 0;
out:
	att_reasons_free(&r.rs);
	att_enrollment_free(&rec);
	ima_verifier_free(r.verifier);
	ima_deny_free(deny);
	ima_keyring_free(&kr);
	att_pkey_free(qc.ak);
	att_quote_files_free(&qf);
	free(ent);
	return rc;
}
