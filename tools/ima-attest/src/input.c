// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a verifier is handed, read once for every command: whole files of a
 * bounded size, and the quote (tpm2_quote -m, -s, -o -F values) with the
 * nonce the verifier chose, checked with the AK of the enrollment it
 * trusts (verify and poll load and check a quote the same way).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ima_attest.h"
#include "ima_hash.h"
#include "ima_log.h"
#include "ima_quote.h"
#include "ima_text.h"

uint8_t *att_slurp(const char *path, size_t max, size_t *len)
{
	return (uint8_t *)ima_read_file(path, max, len, NULL, 0);
}

int att_nonce_parse(const char *hex, uint8_t *out, size_t max, size_t *len)
{
	size_t n = strlen(hex);
	int r;

	if (!n || n % 2 || n / 2 > max)
		return -1;
	r = ima_hex2bin(hex, n, out, max);
	if (r <= 0 || (size_t)r * 2 != n)
		return -1;
	*len = (size_t)r;
	return 0;
}

int att_quote_files_load(struct att_quote_files *f, const char *msg,
			 const char *sig, const char *pcrs,
			 const char *nonce_hex, char *err, size_t errlen)
{
	const char *bad = NULL;

	memset(f, 0, sizeof(*f));
	if (att_nonce_parse(nonce_hex, f->nonce, sizeof(f->nonce),
			    &f->nonce_len)) {
		snprintf(err, errlen, "--nonce is not hex");
		return -1;
	}
	f->msg = att_slurp(msg, ATT_QUOTE_FILE_MAX, &f->msg_len);
	if (!f->msg)
		bad = msg;
	if (!bad && !(f->sig = att_slurp(sig, ATT_QUOTE_FILE_MAX, &f->sig_len)))
		bad = sig;
	if (!bad && !(f->vals = att_slurp(pcrs, ATT_QUOTE_FILE_MAX,
					  &f->vals_len)))
		bad = pcrs;
	if (bad) {
		snprintf(err, errlen, "cannot read the quote files: %s: %s", bad,
			 strerror(errno));
		att_quote_files_free(f);
		return -1;
	}
	return 0;
}

void att_quote_files_free(struct att_quote_files *f)
{
	free(f->msg);
	free(f->sig);
	free(f->vals);
	f->msg = f->sig = f->vals = NULL;
}

bool att_quote_check(struct ima_quote_check *qc,
		     const struct att_quote_files *f, const char *dir,
		     struct att_enrollment *rec, struct att_reasons *rs)
{
	struct att_reasons ers = { 0 };
	int st, i;

	memset(qc, 0, sizeof(*qc));
	if (att_enrollment_check(dir, NULL, rec, &qc->ak, &ers) != ATT_ENROLLED) {
		att_reason(rs, ATT_FC_ENROLLMENT, "no AK enrolled in %s (enrollment refused or not run, or its record does not check): no quote can be trusted",
			   dir);
		att_reasons_append(rs, &ers, "enrollment: ");
		att_reasons_free(&ers);
		return false;
	}
	att_reasons_free(&ers);
	qc->msg = f->msg;
	qc->msg_len = f->msg_len;
	qc->sig = f->sig;
	qc->sig_len = f->sig_len;
	qc->nonce = f->nonce;
	qc->nonce_len = f->nonce_len;
	qc->values = f->vals;
	qc->values_len = f->vals_len;
	st = ima_quote_verify(qc);
	if (st == IMA_QUOTE_OK && qc->sig_ok && qc->nonce_ok && qc->pcrs_ok)
		return true;
	if (st == IMA_QUOTE_FAIL)
		for (i = 0; i < qc->nreasons; i++)
			att_reason(rs, qc->reason_class[i], "%s%s",
				   strncmp(qc->reasons[i], "quote", 5) ? "quote: " : "",
				   qc->reasons[i]);
	else
		att_reason(rs, ATT_FC_QUOTE_MALFORMED, "quote: %s",
			   qc->error[0] ? qc->error : "not verified");
	return false;
}

int att_list_aggregate(const char *path, uint8_t *out, char *err,
		       size_t errlen)
{
	struct ima_reader r;
	struct ima_record rec;
	struct ima_data_view v;
	int fd, ret = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (ima_reader_init_fd(&r, fd, NULL)) {
		snprintf(err, errlen, "cannot read %s", path);
		close(fd);
		return -1;
	}
	if (ima_reader_next(&r, &rec) != IMA_READ_RECORD) {
		snprintf(err, errlen, "the list has no first entry");
		goto out;
	}
	if (rec.tmpl.legacy ||
	    !ima_data_view(rec.data, rec.data_len, r.order, &v) ||
	    !(v.ident & IMA_ID_BOOT) || v.nlen != 14 ||
	    memcmp(v.name, "boot_aggregate", 14)) {
		snprintf(err, errlen, "the list's first entry is not boot_aggregate");
		goto out;
	}
	if (!v.alg || strcmp(v.alg->name, "sha256")) {
		snprintf(err, errlen, "the list's first entry has no sha256 d-ng digest");
		goto out;
	}
	memcpy(out, v.dig, 32);
	ret = 0;
out:
	ima_reader_free(&r);
	close(fd);
	return ret;
}
