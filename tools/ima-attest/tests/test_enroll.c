// SPDX-License-Identifier: GPL-2.0-only
/*
 * Enrollment: the guest's answer to a challenge, and the record of what
 * an enrollment proved (written, read back field by field, refused when
 * any field does not check).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "ima_attest.h"
#include "unit_main.h"
#include "util.h"

static int parse(struct att_msg *m, const char *s)
{
	char err[160];

	return att_msg_parse(m, s, strlen(s), err, sizeof(err));
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

/*
 * The guest's word on a failed activation is quoted in the reason, which
 * the enrollment record and the report print one a line: a "why" that
 * holds "\nPASS AK binding" would print a line of its own. It is escaped.
 */
static void test_failed_why_escaped(void **state)
{
	struct att_enroll e = { 0 };
	struct att_msg m;
	/* why = "x\nPASS AK binding\x1b[2K" */
	static const char line[] =
		"FAILED why=780a5041535320414b2062696e64696e671b5b324b";

	e.challenged = true;
	assert_int_equal(parse(&m, line), 0);
	assert_false(att_enroll_answer(&e, &m));
	att_msg_free(&m);
	assert_int_equal(e.rs.n, 1);
	assert_string_equal(e.rs.r[0],
			    "credential activation failed in the guest: x\\x0aPASS AK binding\\x1b[2K");
	assert_true(printable(e.rs.r[0]));
	att_reasons_free(&e.rs);
}

/* --- the enrollment record ------------------------------------------ */

static char dir[64];

static void path_of(char *out, size_t n, const char *name)
{
	snprintf(out, n, "%s/%s", dir, name);
}

static void put_file(const char *name, const void *p, size_t n)
{
	char path[128];
	FILE *f;

	path_of(path, sizeof(path), name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
	chmod(path, 0600);
}

static uint8_t *read_data(const char *name, size_t *n)
{
	char path[256];
	uint8_t *b = malloc(4096);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", DATA_DIR, name);
	f = fopen(path, "r");
	assert_non_null(f);
	*n = fread(b, 1, 4096, f);
	fclose(f);
	return b;
}

/*
 * A trusted enrollment's directory, as ima-attest enroll writes it: the
 * AK of tests/data/ak.tpm2b (a tpm2_createak key), its PEM, a stand-in EK
 * certificate, and the record naming them. rec is the record written.
 */
static void enrolled_dir(struct att_enrollment *rec, const char *boot)
{
	struct att_public ak;
	char err[256], text[ATT_RECORD_MAX];
	uint8_t *t;
	size_t n;
	void *pk;
	BIO *bio;
	char *pem;
	long plen;
	static const char cert[] = "stand-in EK certificate";

	snprintf(dir, sizeof(dir), "/tmp/test_enroll-%d", (int)getpid());
	mkdir(dir, 0700);
	chmod(dir, 0700);
	t = read_data("ak.tpm2b", &n);
	assert_int_equal(att_public_parse(&ak, t, n, true, err, sizeof(err)), 0);
	free(t);
	put_file("ak.pub", ak.area, ak.area_len);
	pk = att_public_pkey(&ak, err, sizeof(err));
	assert_non_null(pk);
	bio = BIO_new(BIO_s_mem());
	assert_true(PEM_write_bio_PUBKEY(bio, pk));
	plen = BIO_get_mem_data(bio, &pem);
	put_file("ak.pem", pem, (size_t)plen);
	BIO_free(bio);
	att_pkey_free(pk);
	put_file("ek-cert.der", cert, sizeof(cert));
	memset(rec, 0, sizeof(*rec));
	snprintf(rec->boot, sizeof(rec->boot), "%s", boot);
	rec->have_ca = rec->have_ekcert = true;
	memset(rec->ca_sha256, 0xca, 32);
	assert_int_equal(EVP_Digest(cert, sizeof(cert), rec->ekcert_sha256, NULL,
				    EVP_sha256(), NULL), 1);
	rec->ek_name_len = 34;
	memset(rec->ek_name, 0xe4, 34);
	rec->ek_name[0] = 0;
	rec->ek_name[1] = 0x0b;
	assert_int_equal(att_public_name(&ak, rec->ak_name, sizeof(rec->ak_name)), 34);
	rec->ak_name_len = 34;
	rec->tpm_identity = rec->ak_binding = ATT_PROVEN;
	rec->trusted = true;
	n = att_enrollment_format(rec, text, sizeof(text));
	assert_int_not_equal(n, 0);
	put_file(ATT_RECORD, text, n);
}

static void remove_dir(void)
{
	static const char *const names[] = {
		"ak.pub", "ak.pem", "ak.name", "ek-cert.der", ATT_RECORD,
		"link", "victim",
	};
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		path_of(path, sizeof(path), names[i]);
		unlink(path);
	}
	rmdir(dir);
}

static int check(const char *boot, struct att_reasons *rs)
{
	struct att_enrollment got;
	void *ak = NULL;
	int st;

	att_reasons_free(rs);
	st = att_enrollment_check(dir, boot, &got, &ak, rs);
	att_enrollment_free(&got);
	assert_true((st == ATT_ENROLLED) == (ak != NULL));
	att_pkey_free(ak);
	return st;
}

/*
 * The record names what an enrollment proved and is read back field by
 * field: never by a "PASS" prefix (before, any file whose first line
 * started "PASS TPM identity" and held "PASS AK binding" and no "FAIL"
 * was a trusted enrollment, whatever ak.pem held).
 */
static void test_record_round_trip(void **state)
{
	struct att_enrollment rec, back;
	char text[ATT_RECORD_MAX], err[256];
	size_t n;

	enrolled_dir(&rec, "boot-1");
	n = att_enrollment_format(&rec, text, sizeof(text));
	assert_int_equal(att_enrollment_parse(&back, text, n, err, sizeof(err)), 0);
	assert_string_equal(back.boot, "boot-1");
	assert_true(back.trusted);
	assert_int_equal(back.ak_name_len, 34);
	assert_memory_equal(back.ak_name, rec.ak_name, 34);
	assert_memory_equal(back.ekcert_sha256, rec.ekcert_sha256, 32);
	att_enrollment_free(&back);
	remove_dir();
}

static void test_record_refused_forms(void **state)
{
	static const char *const bad[] = {
		/* the two PASS lines of the format before records */
		"PASS TPM identity: EK certificate chains to the manufacturer CA\nPASS AK binding: ok\n",
		/* trusted without naming the AK */
		"ima-attest enrollment 1\nboot: -\nmanufacturer-ca-sha256: -\nek-certificate-sha256: -\nek-name: -\nak-name: -\ntpm-identity: proven\nak-binding: proven\nresult: trusted\n",
		/* a field out of order */
		"ima-attest enrollment 1\nmanufacturer-ca-sha256: -\nboot: -\n",
		/* upper-case hex, a name too long */
		"ima-attest enrollment 1\nboot: -\nmanufacturer-ca-sha256: AB\n",
		/* no newline at the end */
		"ima-attest enrollment 1",
		/* trusted while the AK binding is refused */
		"ima-attest enrollment 1\nboot: -\nmanufacturer-ca-sha256: -\nek-certificate-sha256: -\nek-name: -\nak-name: -\ntpm-identity: not-proven\nak-binding: not-proven\nresult: trusted\n",
		/* a reason holding a control byte */
		"ima-attest enrollment 1\nboot: -\nmanufacturer-ca-sha256: -\nek-certificate-sha256: -\nek-name: -\nak-name: -\ntpm-identity: not-proven\nak-binding: not-proven\nresult: refused\nreason: a\x1b[2Kb\n",
		/* a line after the reasons that is none */
		"ima-attest enrollment 1\nboot: -\nmanufacturer-ca-sha256: -\nek-certificate-sha256: -\nek-name: -\nak-name: -\ntpm-identity: not-proven\nak-binding: not-proven\nresult: refused\nresult: trusted\n",
		/* a boot name with a space */
		"ima-attest enrollment 1\nboot: a b\n",
	};
	struct att_enrollment rec;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!att_enrollment_parse(&rec, bad[i], strlen(bad[i]), err,
					  sizeof(err)))
			fail_msg("form %zu parsed", i);
}

/*
 * The one rule (att_enrollment_check) on a directory: trusted only when
 * the record says so and every file it names is what it proved.
 */
static void test_check_fields(void **state)
{
	struct att_enrollment rec;
	struct att_reasons rs = { 0 };
	char path[128], text[ATT_RECORD_MAX];
	size_t n;
	void *other;
	BIO *bio;
	char *pem;
	long plen;

	enrolled_dir(&rec, "b");
	assert_int_equal(check("b", &rs), ATT_ENROLLED);
	assert_int_equal(check(NULL, &rs), ATT_ENROLLED);
	assert_int_equal(check("c", &rs), ATT_ENROLL_ABSENT);
	assert_true(has_reason(&rs, "is boot b's, not boot c's"));
	/* ak.pem another key */
	other = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	bio = BIO_new(BIO_s_mem());
	PEM_write_bio_PUBKEY(bio, other);
	plen = BIO_get_mem_data(bio, &pem);
	put_file("ak.pem", pem, (size_t)plen);
	BIO_free(bio);
	EVP_PKEY_free(other);
	assert_int_equal(check("b", &rs), ATT_ENROLL_REFUSED);
	assert_true(has_reason(&rs, "ak.pem is not the AK of"));
	/* ak.pub another AK than the one named */
	enrolled_dir(&rec, "b");
	rec.ak_name[5] ^= 1;
	n = att_enrollment_format(&rec, text, sizeof(text));
	put_file(ATT_RECORD, text, n);
	assert_int_equal(check("b", &rs), ATT_ENROLL_REFUSED);
	assert_true(has_reason(&rs, "AK name does not match its public area"));
	/* ek-cert.der another certificate than the one checked */
	enrolled_dir(&rec, "b");
	put_file("ek-cert.der", "another", 7);
	assert_int_equal(check("b", &rs), ATT_ENROLL_REFUSED);
	assert_true(has_reason(&rs, "ek-cert.der is not the EK certificate"));
	/* a record that is a link to a good one elsewhere */
	enrolled_dir(&rec, "b");
	path_of(path, sizeof(path), ATT_RECORD);
	rename(path, "/tmp/test_enroll-record");
	assert_int_equal(symlink("/tmp/test_enroll-record", path), 0);
	assert_int_equal(check("b", &rs), ATT_ENROLL_REFUSED);
	assert_true(has_reason(&rs, "a symbolic link"));
	unlink(path);
	unlink("/tmp/test_enroll-record");
	/* a record others can write, a directory others can write */
	enrolled_dir(&rec, "b");
	path_of(path, sizeof(path), ATT_RECORD);
	chmod(path, 0622);
	assert_int_equal(check("b", &rs), ATT_ENROLL_REFUSED);
	assert_true(has_reason(&rs, "writable by others"));
	chmod(path, 0600);
	chmod(dir, 0777);
	assert_int_equal(check("b", &rs), ATT_ENROLL_REFUSED);
	assert_true(has_reason(&rs, "writable by others (mode 0777)"));
	chmod(dir, 0700);
	/* a refused record, and none at all */
	rec.trusted = false;
	rec.ak_binding = ATT_REFUSED;
	rec.ak_name_len = 0;
	n = att_enrollment_format(&rec, text, sizeof(text));
	put_file(ATT_RECORD, text, n);
	assert_int_equal(check("b", &rs), ATT_ENROLL_REFUSED);
	unlink(path);
	assert_int_equal(check("b", &rs), ATT_ENROLL_ABSENT);
	att_reasons_free(&rs);
	remove_dir();
}

/*
 * Files written beside a planted link: the link is replaced, never
 * followed (before, ima-attest wrote the state through fopen("w") of
 * "STATE.new" and the verdict through ".verdict.tmp": a link planted there
 * was written through, then renamed into place as the state or verdict).
 */
static void test_store_links(void **state)
{
	char path[128], victim[128], err[256], buf[32];
	uint8_t *p;
	size_t n;
	int fd;
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/test_enroll-%d", (int)getpid());
	mkdir(dir, 0700);
	path_of(victim, sizeof(victim), "victim");
	f = fopen(victim, "w");
	fputs("untouched", f);
	fclose(f);
	path_of(path, sizeof(path), "link");
	assert_int_equal(symlink(victim, path), 0);
	fd = att_dir_open(dir, false, err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(att_file_write(fd, dir, "link", "new", 3, err, sizeof(err)), 0);
	p = att_file_read(fd, dir, "link", 100, &n, err, sizeof(err));
	assert_non_null(p);
	assert_int_equal(n, 3);
	free(p);
	f = fopen(victim, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "untouched");
	/* a link is not read */
	unlink(path);
	assert_int_equal(symlink(victim, path), 0);
	assert_null(att_file_read(fd, dir, "link", 100, &n, err, sizeof(err)));
	assert_non_null(strstr(err, "a symbolic link"));
	close(fd);
	/* a directory that is a link is not opened */
	assert_int_equal(att_dir_open(path, false, err, sizeof(err)), -1);
	remove_dir();
}

UNIT_TEST_MAIN(NULL, NULL,
	cmocka_unit_test(test_failed_why_escaped),
	cmocka_unit_test(test_record_round_trip),
	cmocka_unit_test(test_record_refused_forms),
	cmocka_unit_test(test_check_fields),
	cmocka_unit_test(test_store_links))
