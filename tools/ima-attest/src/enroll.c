// SPDX-License-Identifier: GPL-2.0-only
/*
 * Enrollment: the verifier trusts an AK only after (1) the EK certificate
 * chains to the manufacturer, (2) the EK public area carries the certified
 * key, (3) the AK public area is a restricted TPM signing key with the name
 * claimed, and (4) the TPM holding that EK released a fresh secret bound to
 * that name (credential activation). What it proved is kept as a record
 * that names it field by field, and read back by one rule
 * (att_enrollment_check).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>

#include "ima_attest.h"
#include "ima_hash.h"

long att_enroll_request(struct att_enroll *e, const struct att_msg *m,
			uint8_t *cred, size_t credmax, char *err,
			size_t errlen)
{
	const uint8_t *ekcert, *ekpub, *akpub, *akname;
	size_t ekcert_len, ekpub_len, akpub_len, akname_len;
	char perr[160];
	long n;

	e->challenged = false;
	e->ek_ok = e->ak_ok = e->activated = false;
	e->tpm_identity = e->ak_binding = ATT_NOT_PROVEN;
	if (strcmp(m->verb, "ENROLL")) {
		att_reason(&e->rs, ATT_FC_CHANNEL, "expected ENROLL, the guest sent %s", m->verb);
		return 0;
	}
	ekcert = att_msg_get(m, "ekcert", &ekcert_len);
	ekpub = att_msg_get(m, "ekpub", &ekpub_len);
	akpub = att_msg_get(m, "akpub", &akpub_len);
	akname = att_msg_get(m, "akname", &akname_len);
	if (!ekcert || !ekpub || !akpub || !akname) {
		att_reason(&e->rs, ATT_FC_CHANNEL, "ENROLL lacks %s", !ekcert ? "ekcert" :
			   !ekpub ? "ekpub" : !akpub ? "akpub" : "akname");
		return 0;
	}
	e->tpm_identity = ATT_REFUSED;
	if (att_public_parse(&e->ek, ekpub, ekpub_len, true, perr, sizeof(perr))) {
		att_reason(&e->rs, ATT_FC_EK_PUBLIC, "EK public area: %s", perr);
		return 0;
	}
	if (att_ek_check(ekcert, ekcert_len, e->ca_file, e->chain_file, &e->ek,
			 &e->rs))
		return 0;
	e->ek_ok = true;
	e->tpm_identity = ATT_PROVEN;
	e->ak_binding = ATT_REFUSED;
	if (att_public_parse(&e->ak, akpub, akpub_len, true, perr, sizeof(perr))) {
		att_reason(&e->rs, ATT_FC_AK_PUBLIC, "AK public area: %s", perr);
		return 0;
	}
	if (akname_len > sizeof(e->ak_name)) {
		att_reason(&e->rs, ATT_FC_AK_NAME, "AK name of %zu bytes", akname_len);
		return 0;
	}
	if (att_ak_check(&e->ak, akname, akname_len, &e->rs))
		return 0;
	e->ak_ok = true;
	memcpy(e->ak_name, akname, akname_len);
	e->ak_name_len = akname_len;
	if (RAND_bytes(e->secret, sizeof(e->secret)) != 1) {
		snprintf(err, errlen, "no random bytes for the secret");
		return -1;
	}
	n = att_make_credential(&e->ek, e->secret, sizeof(e->secret),
				e->ak_name, e->ak_name_len, cred, credmax, err,
				errlen);
	if (n > 0)
		e->challenged = true;
	return n;
}

bool att_enroll_answer(struct att_enroll *e, const struct att_msg *m)
{
	const uint8_t *s;
	size_t len;

	if (!e->challenged) {
		att_reason(&e->rs, ATT_FC_ACTIVATION, "no challenge outstanding");
		return false;
	}
	e->challenged = false;	/* one answer per secret */
	if (!strcmp(m->verb, "FAILED")) {
		s = att_msg_get(m, "why", &len);
		att_reason(&e->rs, ATT_FC_ACTIVATION, "credential activation failed in the guest: %.*s",
			   s ? (int)(len > 120 ? 120 : len) : 7,
			   s ? (const char *)s : "no word");
		goto out;
	}
	if (strcmp(m->verb, "ACTIVATED")) {
		att_reason(&e->rs, ATT_FC_ACTIVATION, "expected ACTIVATED, the guest sent %s", m->verb);
		goto out;
	}
	s = att_msg_get(m, "secret", &len);
	if (!s || len != sizeof(e->secret) ||
	    CRYPTO_memcmp(s, e->secret, sizeof(e->secret))) {
		att_reason(&e->rs, ATT_FC_ACTIVATION, "activation answer does not match the secret of this challenge (wrong or replayed)");
		goto out;
	}
	e->activated = true;
	e->ak_binding = ATT_PROVEN;
out:
	OPENSSL_cleanse(e->secret, sizeof(e->secret));
	return e->activated;
}

/* --- the record of what an enrollment proved ------------------------- */

static const char *const proofs[] = {
	[ATT_NOT_PROVEN] = "not-proven",
	[ATT_PROVEN] = "proven",
	[ATT_REFUSED] = "refused",
};

static size_t put_hex(char *out, const uint8_t *p, size_t n)
{
	if (!n) {
		strcpy(out, "-");
		return 1;
	}
	ima_bin2hex(p, n, out);
	return 2 * n;
}

size_t att_enrollment_format(const struct att_enrollment *rec, char *out,
			     size_t outlen)
{
	char h[6][2 * ATT_MAX_NAME + 1];
	size_t n;
	int i, w;

	put_hex(h[0], rec->ca_sha256, rec->have_ca ? 32 : 0);
	put_hex(h[1], rec->ekcert_sha256, rec->have_ekcert ? 32 : 0);
	put_hex(h[2], rec->ek_name, rec->ek_name_len);
	put_hex(h[3], rec->ak_name, rec->ak_name_len);
	w = snprintf(out, outlen,
		     "ima-attest enrollment 1\nboot: %s\nmanufacturer-ca-sha256: %s\nek-certificate-sha256: %s\nek-name: %s\nak-name: %s\ntpm-identity: %s\nak-binding: %s\nresult: %s\n",
		     rec->boot, h[0], h[1], h[2], h[3],
		     proofs[rec->tpm_identity], proofs[rec->ak_binding],
		     rec->trusted ? "trusted" : "refused");
	if (w < 0 || (size_t)w >= outlen)
		return 0;
	n = (size_t)w;
	for (i = 0; i < rec->rs.n; i++) {
		/* reasons are escaped (att_reason): one line each */
		w = snprintf(out + n, outlen - n, "reason: %s\n", rec->rs.r[i]);
		if (w < 0 || (size_t)w >= outlen - n)
			return 0;
		n += (size_t)w;
	}
	return n;
}

/* hex of exactly want bytes (max bytes when want is 0), or "-" */
static int get_hex(const char *v, uint8_t *out, size_t want, size_t max,
		   size_t *got)
{
	size_t n = strlen(v);
	int r;

	if (!strcmp(v, "-")) {
		*got = 0;
		return 0;
	}
	if (!n || n % 2 || n / 2 > max || (want && n / 2 != want))
		return -1;
	for (r = 0; v[r]; r++)
		if (!((v[r] >= '0' && v[r] <= '9') || (v[r] >= 'a' && v[r] <= 'f')))
			return -1;	/* lower case, as written */
	r = ima_hex2bin(v, n, out, max);
	if (r < 0)
		return -1;
	*got = (size_t)r;
	return 0;
}

static int get_proof(const char *v)
{
	int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(v, proofs[i]))
			return i;
	return -1;
}

/* a boot's name: 1-64 letters, digits, '-' or '_' (or "-": none) */
bool att_boot_id_ok(const char *id)
{
	size_t i, n = strlen(id);

	if (!n || n > 64)
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)id[i]) && id[i] != '-' && id[i] != '_')
			return false;
	return true;
}

static int parse_record(struct att_enrollment *rec, const char *text,
			size_t len, char *err, size_t errlen)
{
	static const char *const keys[] = {
		"boot", "manufacturer-ca-sha256", "ek-certificate-sha256",
		"ek-name", "ak-name", "tpm-identity", "ak-binding", "result",
	};
	const char *p = text, *end = text + len, *nl;
	char line[ATT_REASON_LEN + 16];
	size_t n, k = 0, got;
	unsigned int ln = 0;
	int bad = 0;

	memset(rec, 0, sizeof(*rec));
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "a NUL byte in the record");
		return -1;
	}
	while (p < end) {
		const char *v;

		ln++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			snprintf(err, errlen, "line %u: no newline at the end", ln);
			return -1;
		}
		n = (size_t)(nl - p);
		if (n >= sizeof(line)) {
			snprintf(err, errlen, "line %u: too long", ln);
			return -1;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p = nl + 1;
		if (ln == 1) {
			if (strcmp(line, "ima-attest enrollment 1")) {
				snprintf(err, errlen, "line 1: not 'ima-attest enrollment 1'");
				return -1;
			}
			continue;
		}
		if (k == sizeof(keys) / sizeof(keys[0])) {
			/* only reasons after result, escaped (printable) */
			for (v = line; *v; v++)
				bad |= *v < 0x20 || *v > 0x7e;
			if (strncmp(line, "reason: ", 8) || bad ||
			    n - 8 >= ATT_REASON_LEN) {
				snprintf(err, errlen, "line %u: not a reason", ln);
				return -1;
			}
			/* as written: escaped already */
			att_reason_text(&rec->rs, ATT_FC_ENROLLMENT, line + 8);
			continue;
		}
		n = strlen(keys[k]);
		if (strncmp(line, keys[k], n) || strncmp(line + n, ": ", 2)) {
			snprintf(err, errlen, "line %u: not '%s: '", ln, keys[k]);
			return -1;
		}
		v = line + n + 2;
		switch (k) {
		case 0:
			bad = (strcmp(v, "-") && !att_boot_id_ok(v)) ||
			      strlen(v) >= sizeof(rec->boot);
			if (!bad)
				strcpy(rec->boot, v);
			break;
		case 1:
			bad = get_hex(v, rec->ca_sha256, 32, 32, &got);
			rec->have_ca = got;
			break;
		case 2:
			bad = get_hex(v, rec->ekcert_sha256, 32, 32, &got);
			rec->have_ekcert = got;
			break;
		case 3:
			bad = get_hex(v, rec->ek_name, 0, ATT_MAX_NAME,
				      &rec->ek_name_len);
			break;
		case 4:
			bad = get_hex(v, rec->ak_name, 0, ATT_MAX_NAME,
				      &rec->ak_name_len);
			break;
		case 5:
			rec->tpm_identity = get_proof(v);
			bad = rec->tpm_identity < 0;
			break;
		case 6:
			rec->ak_binding = get_proof(v);
			bad = rec->ak_binding < 0;
			break;
		default:
			bad = strcmp(v, "trusted") && strcmp(v, "refused");
			rec->trusted = !strcmp(v, "trusted");
			break;
		}
		if (bad) {
			snprintf(err, errlen, "line %u: bad %s", ln, keys[k]);
			return -1;
		}
		k++;
	}
	if (k != sizeof(keys) / sizeof(keys[0])) {
		snprintf(err, errlen, "%s", ln ? "it ends before 'result: '" :
			 "empty");
		return -1;
	}
	/* what is named is exactly what was proven */
	if ((rec->tpm_identity == ATT_PROVEN) !=
	    (rec->have_ca && rec->have_ekcert && rec->ek_name_len) ||
	    (rec->ak_binding == ATT_PROVEN) != !!rec->ak_name_len ||
	    (rec->ak_binding != ATT_NOT_PROVEN &&
	     rec->tpm_identity != ATT_PROVEN) ||
	    rec->trusted != (rec->tpm_identity == ATT_PROVEN &&
			     rec->ak_binding == ATT_PROVEN)) {
		snprintf(err, errlen, "its fields disagree with its result");
		return -1;
	}
	return 0;
}

int att_enrollment_parse(struct att_enrollment *rec, const char *text,
			 size_t len, char *err, size_t errlen)
{
	memset(rec, 0, sizeof(*rec));
	if (parse_record(rec, text, len, err, errlen)) {
		att_enrollment_free(rec);
		return -1;
	}
	return 0;
}

void att_enrollment_free(struct att_enrollment *rec)
{
	att_reasons_free(&rec->rs);
}

/* the file name in dir, read as one to trust, or NULL with a reason */
static uint8_t *trusted_file(int dirfd, const char *dir, const char *name,
			     size_t max, size_t *len, int *status,
			     struct att_reasons *rs)
{
	char err[ATT_REASON_LEN];
	uint8_t *p = att_file_read(dirfd, dir, name, max, len, err,
				   sizeof(err));

	if (!p) {
		att_reason(rs, ATT_FC_ENROLLMENT, "%s", err);
		*status = errno == EPERM || errno == ENOENT ? ATT_ENROLL_REFUSED :
			  ATT_ENROLL_ERROR;
	}
	return p;
}

int att_enrollment_check(const char *dir, const char *boot,
			 struct att_enrollment *rec, void **ak,
			 struct att_reasons *rs)
{
	struct att_public pub;
	uint8_t *text = NULL, *akpub = NULL, *pem = NULL, *cert = NULL;
	uint8_t d[32];
	char err[ATT_REASON_LEN];
	size_t len;
	void *pk = NULL;
	EVP_PKEY *pempk = NULL;
	BIO *bio = NULL;
	int fd, status = ATT_ENROLL_REFUSED;

	memset(rec, 0, sizeof(*rec));
	fd = att_dir_open(dir, false, err, sizeof(err));
	if (fd < 0) {
		att_reason(rs, ATT_FC_ENROLLMENT, "%s", err);
		return errno == ENOENT ? ATT_ENROLL_ABSENT :
		       errno == EPERM ? ATT_ENROLL_REFUSED : ATT_ENROLL_ERROR;
	}
	text = att_file_read(fd, dir, ATT_RECORD, ATT_RECORD_MAX, &len, err,
			     sizeof(err));
	if (!text) {
		struct stat st;

		status = errno == ENOENT ? ATT_ENROLL_ABSENT :
			 errno == EPERM ? ATT_ENROLL_REFUSED : ATT_ENROLL_ERROR;
		att_reason(rs, ATT_FC_ENROLLMENT, "%s", err);
		if (status == ATT_ENROLL_ABSENT &&
		    !fstatat(fd, ATT_CHALLENGE, &st, AT_SYMLINK_NOFOLLOW))
			att_reason(rs, ATT_FC_ENROLLMENT,
				   "a credential challenge is pending in %s: ima-attest activate decides it",
				   dir);
		goto out;
	}
	if (att_enrollment_parse(rec, (const char *)text, len, err,
				 sizeof(err))) {
		att_reason(rs, ATT_FC_ENROLLMENT, "%s/%s is not an enrollment record: %s", dir,
			   ATT_RECORD, err);
		status = ATT_ENROLL_ABSENT;
		goto out;
	}
	if (boot && strcmp(rec->boot, boot)) {
		att_reason(rs, ATT_FC_ENROLLMENT, "%s/%s is boot %s's, not boot %s's", dir,
			   ATT_RECORD, rec->boot, boot);
		status = ATT_ENROLL_ABSENT;
		goto out;
	}
	if (!rec->trusted) {
		att_reason(rs, ATT_FC_ENROLLMENT, "the enrollment refused: TPM identity %s, AK binding %s",
			   proofs[rec->tpm_identity], proofs[rec->ak_binding]);
		goto out;
	}
	/* the AK it proved: ak.pub, its name and attributes */
	akpub = trusted_file(fd, dir, "ak.pub", ATT_MAX_PUBLIC, &len, &status, rs);
	if (!akpub)
		goto out;
	if (att_public_parse(&pub, akpub, len, false, err, sizeof(err))) {
		att_reason(rs, ATT_FC_ENROLLMENT, "%s/ak.pub: %s", dir, err);
		goto out;
	}
	if (att_ak_check(&pub, rec->ak_name, rec->ak_name_len, rs))
		goto out;
	/* the EK certificate it checked */
	cert = trusted_file(fd, dir, "ek-cert.der", 1u << 16, &len, &status, rs);
	if (!cert)
		goto out;
	if (ima_digest(ima_hash_by_name("sha256", 6), cert, len, d) ||
	    memcmp(d, rec->ekcert_sha256, 32)) {
		att_reason(rs, ATT_FC_ENROLLMENT, "%s/ek-cert.der is not the EK certificate the enrollment checked (sha256)",
			   dir);
		goto out;
	}
	/* ak.pem, what other tools are given, is that same key */
	pk = att_public_pkey(&pub, err, sizeof(err));
	if (!pk) {
		att_reason(rs, ATT_FC_ENROLLMENT, "%s/ak.pub: %s", dir, err);
		goto out;
	}
	pem = trusted_file(fd, dir, "ak.pem", 1u << 16, &len, &status, rs);
	if (!pem)
		goto out;
	bio = BIO_new_mem_buf(pem, (int)len);
	pempk = bio ? PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL) : NULL;
	if (!pempk || EVP_PKEY_eq(pempk, pk) != 1) {
		att_reason(rs, ATT_FC_ENROLLMENT, "%s/ak.pem is not the AK of %s/ak.pub, the one the enrollment proved",
			   dir, dir);
		goto out;
	}
	status = ATT_ENROLLED;
	if (ak) {
		*ak = pk;
		pk = NULL;
	}
out:
	ERR_clear_error();
	EVP_PKEY_free(pempk);
	BIO_free(bio);
	att_pkey_free(pk);
	free(text);
	free(akpub);
	free(pem);
	free(cert);
	close(fd);
	return status;
}

/* --- what an enrollment writes: the AK's files, then the record ------ */

int att_ak_save(int dirfd, const char *dir, const struct att_enroll *e,
		char *err, size_t errlen)
{
	void *pk = att_public_pkey(&e->ak, err, errlen);
	BIO *bio = pk ? BIO_new(BIO_s_mem()) : NULL;
	char *pem;
	long n;
	int rc = -1;

	if (!bio || !PEM_write_bio_PUBKEY(bio, pk) ||
	    (n = BIO_get_mem_data(bio, &pem)) <= 0) {
		if (pk)
			snprintf(err, errlen, "cannot encode the AK as PEM");
		goto out;
	}
	rc = att_file_write(dirfd, dir, "ak.pem", pem, (size_t)n, err, errlen) ||
	     att_file_write(dirfd, dir, "ak.name", e->ak_name, e->ak_name_len,
			    err, errlen) ||
	     att_file_write(dirfd, dir, "ak.pub", e->ak.area, e->ak.area_len,
			    err, errlen) ? -1 : 0;
out:
	BIO_free(bio);
	att_pkey_free(pk);
	return rc;
}

/* sha256 of a file's bytes (the manufacturer CA); 0, or -1 */
static int file_sha256(const char *path, uint8_t *d)
{
	size_t n;
	uint8_t *p = att_slurp(path, 64u << 20, &n);
	int rc;

	if (!p)
		return -1;
	rc = ima_digest(ima_hash_by_name("sha256", 6), p, n, d);
	free(p);
	return rc;
}

int att_enrollment_of(struct att_enrollment *rec, const struct att_enroll *e,
		      const char *boot, const uint8_t *ekcert,
		      size_t ekcert_len, char *err, size_t errlen)
{
	int nl;

	memset(rec, 0, sizeof(*rec));
	snprintf(rec->boot, sizeof(rec->boot), "%s", boot ? boot : "-");
	rec->tpm_identity = e->tpm_identity;
	rec->ak_binding = e->ak_binding;
	if (e->tpm_identity == ATT_PROVEN) {
		rec->have_ca = !file_sha256(e->ca_file, rec->ca_sha256);
		rec->have_ekcert = ekcert &&
			!ima_digest(ima_hash_by_name("sha256", 6), ekcert,
				    ekcert_len, rec->ekcert_sha256);
		nl = att_public_name(&e->ek, rec->ek_name, sizeof(rec->ek_name));
		rec->ek_name_len = nl > 0 ? (size_t)nl : 0;
		if (!rec->have_ca || !rec->have_ekcert || !rec->ek_name_len) {
			snprintf(err, errlen, "cannot name the EK that was proven");
			return -1;
		}
	}
	if (e->ak_binding == ATT_PROVEN) {
		memcpy(rec->ak_name, e->ak_name, e->ak_name_len);
		rec->ak_name_len = e->ak_name_len;
	}
	rec->trusted = e->activated && e->tpm_identity == ATT_PROVEN &&
		       e->ak_binding == ATT_PROVEN;
	att_reasons_append(&rec->rs, &e->rs, "");
	return 0;
}

int att_enrollment_write(int dirfd, const char *dir,
			 const struct att_enrollment *rec, char *err,
			 size_t errlen)
{
	char text[ATT_RECORD_MAX];
	size_t n;

	n = att_enrollment_format(rec, text, sizeof(text));
	if (!n) {
		snprintf(err, errlen, "the enrollment record does not fit in %u bytes",
			 ATT_RECORD_MAX);
		return -1;
	}
	return att_file_write(dirfd, dir, ATT_RECORD, text, n, err, errlen);
}
