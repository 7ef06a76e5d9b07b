// SPDX-License-Identifier: GPL-2.0-only
/*
 * ima-attest - enroll a guest's TPM and verify its firmware log.
 *
 *   ima-attest enroll --channel SOCK --ca CA.pem [--ca-chain CHAIN.pem]
 *                     --out DIR [--timeout SECONDS] [--boot ID]
 *	Connects to the guest agent's channel (a unix socket: QEMU's
 *	virtio-serial chardev), asks for the TPM's identity, checks EK
 *	certificate, EK and AK public areas, makes a credential for the EK over
 *	a fresh secret and trusts the AK only when the guest's TPM returns that
 *	secret. DIR (made 0700; refused if others can write it) gets the
 *	enrollment record DIR/verdict (att_enrollment_format: what was proven,
 *	field by field, the boot ID named), DIR/ek-cert.der, and when trusted
 *	DIR/ak.pem, ak.pub, ak.name. A record and AK of an earlier run are
 *	removed first; every file appears whole (written beside it, fsync,
 *	renamed), the record last, once the guest has been told the result
 *	(ID: 1-64 letters, digits, '-' or '_'; chosen by whoever started the
 *	boot, so a waiter can tell this boot's record from a stale one).
 *
 *   ima-attest enrolled --enrolled DIR [--boot ID]
 *	Whether DIR's enrollment (of boot ID) is trusted: the one rule
 *	(att_enrollment_check) that verify and poll apply, for the scripts.
 *	Exit 0 trusted, 1 refused (or a file not what the record names), 2
 *	I/O or usage error, 3 no record (of boot ID) in DIR.
 *
 *   ima-attest verify --enrolled DIR --quote MSG --quote-sig SIG
 *                     --quote-pcrs VALUES --nonce HEX --eventlog LOG
 *                     [--list BINARY_RUNTIME_MEASUREMENTS]
 *                     [--html FILE [--rounds JSONL]]
 *	The quote must verify with the enrolled AK (ima-audit's quote checks)
 *	and the firmware's event log must replay, in every quoted bank, to the
 *	quoted PCRs 0-9; boot_aggregate derived from the replayed PCRs must be
 *	the list's first entry. --html writes the result as the page of
 *	ima-audit --html (with polling rounds recorded one JSON object a line).
 *
 *   ima-attest poll --state FILE --enrolled DIR --quote MSG --quote-sig SIG
 *                   --quote-pcrs VALUES --nonce HEX --entries FILE
 *                   --offset BYTES [--key CERT] [--deny FILE]
 *	One round of incremental verification: a fresh quote by the enrolled
 *	AK and only the list entries from byte BYTES on, verified from the
 *	state FILE (made on the first round, updated when the round passes).
 *	With --deny (ima-audit's deny list forms), a new entry whose digest
 *	is listed fails the round, signed or not.
 *
 *   ima-attest request --channel SOCK --out DIR VERB [KEY=VALUE...]
 *	One message to the guest agent (each VALUE's bytes, hex-encoded on
 *	the wire); the reply's verb and each of its fields into DIR/<key>.
 *
 *   ima-attest eventlog LOG
 *	Parse and replay a firmware event log (crypto agile, or the SHA1
 *	format of TCG 1.2); print every bank's value of every PCR the log
 *	extends ("sha256:N HEX"), for cross-checks, and on stderr its format
 *	and banks (a SHA1 log attests the sha1 bank only).
 *
 * Results on stdout, diagnostics on stderr. Exit status: 0 proven, 1 refused
 * (reasons printed), 2 usage or I/O error.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/pem.h>

#include "att_page.h"
#include "ima_attest.h"
#include "ima_hash.h"
#include "ima_log.h"
#include "ima_quote.h"
#include "ima_sig.h"

#define MAX_FILE	(64u << 20)

static void usage(void)
{
	fprintf(stderr,
		"usage: ima-attest enroll --channel SOCK --ca CA.pem [--ca-chain PEM] --out DIR [--timeout S]\n"
		"                         [--boot ID]\n"
		"       ima-attest enrolled --enrolled DIR [--boot ID]\n"
		"       ima-attest verify --enrolled DIR --quote MSG --quote-sig SIG --quote-pcrs VALUES\n"
		"                         --nonce HEX --eventlog LOG [--list LIST] [--html FILE [--rounds JSONL]]\n"
		"       ima-attest poll --state FILE --enrolled DIR --quote MSG --quote-sig SIG\n"
		"                       --quote-pcrs VALUES --nonce HEX --entries FILE --offset BYTES [--key CERT]\n"
"                       [--deny FILE]\n"
		"       ima-attest request --channel SOCK --out DIR VERB [KEY=VALUE...]\n"
		"       ima-attest eventlog LOG\n");
	exit(2);
}

/* The whole file, at most max bytes; NULL with errno on failure. */
static uint8_t *slurp(const char *path, size_t max, size_t *len)
{
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	for (;;) {
		if (n == cap) {
			uint8_t *nb;

			if (cap >= max) {
				errno = EFBIG;
				goto fail;
			}
			cap = cap ? cap * 2 : 4096;
			if (cap > max)
				cap = max;
			nb = realloc(buf, cap + 1);
			if (!nb)
				goto fail;
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (!buf)
		buf = calloc(1, 1);
	*len = n;
	return buf;
fail:
	close(fd);
	free(buf);
	return NULL;
}

/* --- the channel ---------------------------------------------------------- */
struct chan {
	int fd;
	time_t deadline;
	char *buf;
	size_t have;
};

static int chan_open(struct chan *c, const char *path, int timeout)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	c->deadline = time(NULL) + timeout;
	c->have = 0;
	c->buf = malloc(ATT_MSG_MAX + 2);
	if (!c->buf || strlen(path) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, path);
	for (;;) {
		c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (c->fd < 0)
			return -1;
		if (!connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)))
			return 0;
		close(c->fd);
		c->fd = -1;
		if ((errno != ENOENT && errno != ECONNREFUSED) ||
		    time(NULL) >= c->deadline)
			return -1;
		usleep(100 * 1000);
	}
}

static int chan_send(struct chan *c, const char *verb, const char **keys,
		     const uint8_t **vals, const size_t *lens, int n)
{
	static const char hx[] = "0123456789abcdef";
	size_t cap = strlen(verb) + 2, off, i;
	char *line;
	int k, ret;

	for (k = 0; k < n; k++)
		cap += strlen(keys[k]) + 2 + 2 * lens[k];
	line = malloc(cap);
	if (!line)
		return -1;
	off = (size_t)sprintf(line, "%s", verb);
	for (k = 0; k < n; k++) {
		off += (size_t)sprintf(line + off, " %s=", keys[k]);
		for (i = 0; i < lens[k]; i++) {
			line[off++] = hx[vals[k][i] >> 4];
			line[off++] = hx[vals[k][i] & 15];
		}
	}
	line[off++] = '\n';
	ret = 0;
	for (i = 0; i < off;) {
		ssize_t w = write(c->fd, line + i, off - i);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = -1;
			break;
		}
		i += (size_t)w;
	}
	free(line);
	return ret;
}

/* One line (without its newline) into m; 0, or -1 with err. */
static int chan_recv(struct chan *c, struct att_msg *m, char *err,
		     size_t errlen)
{
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->have);
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		time_t left;
		ssize_t r;

		if (nl) {
			size_t len = (size_t)(nl - c->buf);
			int ret = att_msg_parse(m, c->buf, len, err, errlen);

			memmove(c->buf, nl + 1, c->have - len - 1);
			c->have -= len + 1;
			return ret;
		}
		if (c->have > ATT_MSG_MAX) {
			snprintf(err, errlen, "message longer than %u bytes", ATT_MSG_MAX);
			return -1;
		}
		left = c->deadline - time(NULL);
		if (left <= 0 || poll(&p, 1, (int)left * 1000) == 0) {
			snprintf(err, errlen, "timed out waiting for the guest");
			return -1;
		}
		r = read(c->fd, c->buf + c->have, ATT_MSG_MAX + 1 - c->have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(err, errlen, "the guest closed the channel");
			return -1;
		}
		c->have += (size_t)r;
	}
}

/* sha256 of a file's bytes (the manufacturer CA); 0, or -1 */
static int file_sha256(const char *path, uint8_t *d)
{
	size_t n;
	uint8_t *p = slurp(path, MAX_FILE, &n);
	int rc;

	if (!p)
		return -1;
	rc = ima_digest(ima_hash_by_name("sha256", 6), p, n, d);
	free(p);
	return rc;
}

/* The record of what e proved into dir (written last, whole). */
static int write_record(int dirfd, const char *dir, const struct att_enroll *e,
			const char *boot, const char *ca,
			const uint8_t *ekcert, size_t ekcert_len, char *err,
			size_t errlen)
{
	struct att_enrollment rec = { 0 };
	char text[ATT_RECORD_MAX];
	size_t n;
	int nl;

	snprintf(rec.boot, sizeof(rec.boot), "%s", boot ? boot : "-");
	rec.tpm_identity = e->tpm_identity;
	rec.ak_binding = e->ak_binding;
	if (e->tpm_identity == ATT_PROVEN) {
		rec.have_ca = !file_sha256(ca, rec.ca_sha256);
		rec.have_ekcert = ekcert &&
			!ima_digest(ima_hash_by_name("sha256", 6), ekcert,
				    ekcert_len, rec.ekcert_sha256);
		nl = att_public_name(&e->ek, rec.ek_name, sizeof(rec.ek_name));
		rec.ek_name_len = nl > 0 ? (size_t)nl : 0;
		if (!rec.have_ca || !rec.have_ekcert || !rec.ek_name_len) {
			snprintf(err, errlen, "cannot name the EK that was proven");
			return -1;
		}
	}
	if (e->ak_binding == ATT_PROVEN) {
		memcpy(rec.ak_name, e->ak_name, e->ak_name_len);
		rec.ak_name_len = e->ak_name_len;
	}
	rec.trusted = e->activated && e->tpm_identity == ATT_PROVEN &&
		      e->ak_binding == ATT_PROVEN;
	rec.rs = e->rs;
	n = att_enrollment_format(&rec, text, sizeof(text));
	if (!n) {
		snprintf(err, errlen, "the enrollment record does not fit");
		return -1;
	}
	return att_file_write(dirfd, dir, ATT_RECORD, text, n, err, errlen);
}

/* the enrolled AK's files: ak.pem (for ima-audit --ak-pub), ak.pub, ak.name */
static int write_ak(int dirfd, const char *dir, const struct att_enroll *e,
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

static int cmd_enroll(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "channel", required_argument, NULL, 'c' },
		{ "ca", required_argument, NULL, 'a' },
		{ "ca-chain", required_argument, NULL, 'i' },
		{ "out", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, 't' },
		{ "boot", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const stale[] = {
		ATT_RECORD, "ak.pem", "ak.name", "ak.pub", "ek-cert.der",
	};
	const char *channel = NULL, *out = NULL, *boot = NULL;
	struct att_enroll e = { 0 };
	struct att_msg m = { 0 };
	struct chan c = { .fd = -1 };
	char err[ATT_REASON_LEN], werr[ATT_REASON_LEN];
	uint8_t cred[1024], *ekcert = NULL;
	size_t ekcert_len = 0, i;
	int timeout = 600, opt, rc = 2, dirfd;
	long n;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c': channel = optarg; break;
		case 'a': e.ca_file = optarg; break;
		case 'i': e.chain_file = optarg; break;
		case 'o': out = optarg; break;
		case 't': timeout = atoi(optarg); break;
		case 'b': boot = optarg; break;
		default: usage();
		}
	}
	if (!channel || !e.ca_file || !out || optind != argc || timeout <= 0)
		usage();
	if (boot && !att_boot_id_ok(boot)) {
		fprintf(stderr, "ima-attest: --boot: 1-64 letters, digits, '-' or '_'\n");
		return 2;
	}
	dirfd = att_dir_open(out, true, err, sizeof(err));
	if (dirfd < 0) {
		fprintf(stderr, "ima-attest: %s\n", err);
		return 2;
	}
	/* an earlier record or AK must not be read as this one's, not even
	 * in part */
	for (i = 0; i < sizeof(stale) / sizeof(stale[0]); i++)
		if (att_file_remove(dirfd, out, stale[i], err, sizeof(err))) {
			fprintf(stderr, "ima-attest: %s\n", err);
			close(dirfd);
			return 2;
		}
	if (chan_open(&c, channel, timeout)) {
		snprintf(err, sizeof(err), "cannot connect to %s: %s", channel,
			 strerror(errno));
		goto io;
	}
	/* 1. the TPM's identity and the AK */
	if (chan_send(&c, "ENROLL", NULL, NULL, NULL, 0)) {
		snprintf(err, sizeof(err), "cannot write to the channel");
		goto io;
	}
	if (chan_recv(&c, &m, err, sizeof(err)))
		goto io;
	n = att_enroll_request(&e, &m, cred, sizeof(cred), err, sizeof(err));
	if (n < 0)
		goto io;
	{
		const uint8_t *cert = att_msg_get(&m, "ekcert", &ekcert_len);

		if (cert) {
			ekcert = malloc(ekcert_len ? ekcert_len : 1);
			if (!ekcert) {
				snprintf(err, sizeof(err), "out of memory");
				goto io;
			}
			memcpy(ekcert, cert, ekcert_len);
		}
	}
	att_msg_free(&m);
	/* 2. the credential; the answer must be the secret */
	if (n > 0) {
		const char *k[] = { "cred" };
		const uint8_t *val[] = { cred };
		size_t len[] = { (size_t)n };

		if (chan_send(&c, "CHALLENGE", k, val, len, 1)) {
			snprintf(err, sizeof(err), "cannot write to the channel");
			goto io;
		}
		if (chan_recv(&c, &m, err, sizeof(err)))
			goto io;
		att_enroll_answer(&e, &m);
		att_msg_free(&m);
	}
	if ((ekcert && att_file_write(dirfd, out, "ek-cert.der", ekcert,
				      ekcert_len, werr, sizeof(werr))) ||
	    (e.activated && write_ak(dirfd, out, &e, werr, sizeof(werr)))) {
		snprintf(err, sizeof(err), "%s", werr);
		goto io;
	}
	rc = e.activated ? 0 : 1;
	{
		const char *k[] = { "ok" };
		const uint8_t val[] = { rc == 0 };
		const uint8_t *vp[] = { val };
		size_t len[] = { 1 };

		chan_send(&c, "RESULT", k, vp, len, 1);
	}
	goto record;
io:
	att_reason(&e.rs, "%s", err);
	fprintf(stderr, "ima-attest: enroll: %s\n", err);
	e.activated = false;
	if (e.ak_binding == ATT_PROVEN)
		e.ak_binding = ATT_REFUSED;
	rc = 2;
record:
	att_msg_free(&m);
	for (i = 0; i < (size_t)e.rs.n; i++)
		printf("reason: %s\n", e.rs.r[i]);
	if (write_record(dirfd, out, &e, boot, e.ca_file, ekcert, ekcert_len,
			 werr, sizeof(werr))) {
		fprintf(stderr, "ima-attest: %s\n", werr);
		rc = 2;
	}
	/* the verdict, once, last */
	printf("enrollment: %s\n", rc ? "FAIL" :
	       "PASS (EK certified, AK bound by credential activation)");
	close(dirfd);
	if (c.fd >= 0)
		close(c.fd);
	free(c.buf);
	free(ekcert);
	return rc;
}

/* --- enrolled: the one rule, for the scripts ------------------------------ */
static const char *const proof_text[] = {
	[ATT_NOT_PROVEN] = "not proven",
	[ATT_PROVEN] = "proven",
	[ATT_REFUSED] = "refused",
};

static int cmd_enrolled(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "enrolled", required_argument, NULL, 'e' },
		{ "boot", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *boot = NULL;
	struct att_enrollment rec;
	struct att_reasons rs = { 0 };
	char h[2 * ATT_MAX_NAME + 1];
	int opt, st, i;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'e': dir = optarg; break;
		case 'b': boot = optarg; break;
		default: usage();
		}
	}
	if (!dir || optind != argc)
		usage();
	if (boot && !att_boot_id_ok(boot)) {
		fprintf(stderr, "ima-attest: --boot: 1-64 letters, digits, '-' or '_'\n");
		return 2;
	}
	st = att_enrollment_check(dir, boot, &rec, NULL, &rs);
	if (st != ATT_ENROLL_ABSENT && st != ATT_ENROLL_ERROR) {
		printf("boot: %s\n", rec.boot);
		ima_bin2hex(rec.ekcert_sha256, 32, h);
		printf("tpm-identity: %s%s%s%s\n", proof_text[rec.tpm_identity],
		       rec.have_ekcert ? " (EK certificate sha256 " : "",
		       rec.have_ekcert ? h : "", rec.have_ekcert ? ")" : "");
		ima_bin2hex(rec.ak_name, rec.ak_name_len, h);
		printf("ak-binding: %s%s%s%s\n", proof_text[rec.ak_binding],
		       rec.ak_name_len ? " (AK name " : "",
		       rec.ak_name_len ? h : "", rec.ak_name_len ? ")" : "");
		for (i = 0; i < rec.rs.n; i++)
			printf("recorded reason: %s\n", rec.rs.r[i]);
	}
	for (i = 0; i < rs.n; i++)
		printf("reason: %s\n", rs.r[i]);
	ima_bin2hex(rec.ak_name, rec.ak_name_len, h);
	switch (st) {
	case ATT_ENROLLED:
		printf("enrollment: trusted (boot %s, AK name %s)\n", rec.boot, h);
		return 0;
	case ATT_ENROLL_REFUSED:
		printf("enrollment: refused\n");
		return 1;
	case ATT_ENROLL_ABSENT:
		printf("enrollment: none%s%s in %s\n", boot ? " of boot " : "",
		       boot ? boot : "", dir);
		return 3;
	}
	printf("enrollment: not read\n");
	return 2;
}

/* --- verify ---------------------------------------------------------- */
/*
 * boot_aggregate of the list's first entry: a sha256 d-ng digest, read
 * from the record's data and not its template name (ima_data_view)
 */
static int list_aggregate(const char *path, uint8_t *out, char *err,
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

static int cmd_verify(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "enrolled", required_argument, NULL, 'e' },
		{ "quote", required_argument, NULL, 'q' },
		{ "quote-sig", required_argument, NULL, 's' },
		{ "quote-pcrs", required_argument, NULL, 'p' },
		{ "nonce", required_argument, NULL, 'n' },
		{ "eventlog", required_argument, NULL, 'l' },
		{ "list", required_argument, NULL, 'L' },
		{ "html", required_argument, NULL, 'H' },
		{ "rounds", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *msgf = NULL, *sigf = NULL, *pcrf = NULL;
	const char *noncehex = NULL, *logf = NULL, *listf = NULL;
	const char *html = NULL, *rounds = NULL, *proven[3], *ev_error = NULL;
	bool have_agg = false, have_want = false;
	int nproven = 0;
	uint8_t *msg = NULL, *sig = NULL, *vals = NULL, *log = NULL;
	size_t msg_len, sig_len, vals_len, log_len;
	uint8_t nonce[64], agg[32], want[32];
	struct ima_quote_check qc = { 0 };
	struct att_reasons rs = { 0 }, ers = { 0 };
	struct att_enrollment rec;
	struct ima_pcr_values rv;
	char err[256], hx[65];
	struct att_evlog *ev = NULL;
	int opt, rc = 2, nlen, i, st, def = IMA_BOOT_DEF_NONE;
	bool quote_ok = false;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'e': dir = optarg; break;
		case 'q': msgf = optarg; break;
		case 's': sigf = optarg; break;
		case 'p': pcrf = optarg; break;
		case 'n': noncehex = optarg; break;
		case 'l': logf = optarg; break;
		case 'L': listf = optarg; break;
		case 'H': html = optarg; break;
		case 'R': rounds = optarg; break;
		default: usage();
		}
	}
	if (!dir || !msgf || !sigf || !pcrf || !noncehex || !logf || optind != argc ||
	    (rounds && !html))
		usage();
	nlen = ima_hex2bin(noncehex, strlen(noncehex), nonce, sizeof(nonce));
	if (nlen <= 0 || (size_t)nlen * 2 != strlen(noncehex)) {
		fprintf(stderr, "ima-attest: --nonce is not hex\n");
		return 2;
	}
	msg = slurp(msgf, 1 << 16, &msg_len);
	sig = slurp(sigf, 1 << 16, &sig_len);
	vals = slurp(pcrf, 1 << 16, &vals_len);
	if (!msg || !sig || !vals) {
		fprintf(stderr, "ima-attest: cannot read the quote files: %s\n", strerror(errno));
		goto out;
	}
	/* 1. the AK must be the enrolled one, and the quote its */
	if (att_enrollment_check(dir, NULL, &rec, &qc.ak, &ers) != ATT_ENROLLED) {
		att_reason(&rs, "no AK enrolled in %s (enrollment refused or not run, or its record does not check): no quote can be trusted",
			   dir);
		for (i = 0; i < ers.n; i++)
			att_reason(&rs, "enrollment: %s", ers.r[i]);
	} else {
		qc.msg = msg;
		qc.msg_len = msg_len;
		qc.sig = sig;
		qc.sig_len = sig_len;
		qc.nonce = nonce;
		qc.nonce_len = (size_t)nlen;
		qc.values = vals;
		qc.values_len = vals_len;
		st = ima_quote_verify(&qc);
		if (st == IMA_QUOTE_OK && qc.sig_ok && qc.nonce_ok && qc.pcrs_ok)
			quote_ok = true;
		else if (st == IMA_QUOTE_FAIL)
			for (i = 0; i < qc.nreasons; i++)
				att_reason(&rs, "%s%s",
					   strncmp(qc.reasons[i], "quote", 5) ? "quote: " : "",
					   qc.reasons[i]);
		else
			att_reason(&rs, "quote: %s", qc.error[0] ? qc.error : "not verified");
	}
	printf("quote (enrolled AK, nonce, pcrDigest): %s\n", quote_ok ? "PASS" : "FAIL");
	if (quote_ok)
		proven[nproven++] = "quote (enrolled AK, nonce, pcrDigest): PASS";
	/* 2. the firmware log, replayed, against the quoted PCRs 0-9 */
	ev = calloc(1, sizeof(*ev));
	log = slurp(logf, MAX_FILE, &log_len);
	if (!ev) {
		fprintf(stderr, "ima-attest: out of memory\n");
		goto out;
	}
	if (!log) {
		att_reason(&rs, "firmware event log %s: %s", logf, strerror(errno));
		ev_error = rs.r[rs.n - 1];
	} else if (att_evlog_replay(ev, log, log_len, err, sizeof(err))) {
		ev_error = err;
		att_reason(&rs, "firmware event log does not parse: %s (record at byte %llu)",
			   err, (unsigned long long)ev->err_offset);
	} else {
		printf("firmware event log: %s%u events, banks",
		       ev->sha1_log ? "SHA1 (TCG 1.2) format, only sha1 attested, " : "",
		       ev->events);
		for (i = 0; i < ev->nbanks; i++)
			printf(" %s", att_evlog_bank_name(ev, i, hx, sizeof(hx)));
		printf(", PCRs extended 0x%06x\n", ev->touched);
		if (!quote_ok) {
			att_reason(&rs, "firmware event log not compared: the quote is not trusted");
		} else if (!att_evlog_compare(ev, &qc.pcrs, 0x3ff, &rs)) {
			printf("firmware event log replays to the quoted PCRs 0-9: PASS\n");
			proven[nproven++] = "firmware event log replays to the quoted PCRs 0-9: PASS";
			att_evlog_values(ev, &rv);
			if (ima_boot_aggregate(&rv, IMA_BANK_SHA256, agg)) {
				att_reason(&rs, "no sha256 bank to derive boot_aggregate");
			} else {
				have_agg = true;
				ima_bin2hex(agg, 32, hx);
				printf("boot_aggregate from the replayed PCRs 0-9: sha256:%s\n", hx);
				if (listf && !list_aggregate(listf, want, err, sizeof(err)))
					have_want = true;
				if (have_want)
					def = ima_boot_aggregate_match(&rv, IMA_BANK_SHA256,
								       want, 32);
				if (listf && !have_want)
					att_reason(&rs, "boot_aggregate: %s", err);
				else if (listf && def <= IMA_BOOT_DEF_NONE)
					att_reason(&rs, "boot_aggregate of the list is not the one derived from the firmware log");
				else if (listf)
					printf("boot_aggregate: matches the list's first entry%s\n",
					       def == IMA_BOOT_DEF_PRE_5_8 ?
					       ", by the definition before Linux 5.8 (PCRs 0-7 only: PCRs 8-9 are not in it)" : "");
				if (listf && have_want && def > IMA_BOOT_DEF_NONE)
					proven[nproven++] = def == IMA_BOOT_DEF_PRE_5_8 ?
						"boot_aggregate: matches the list's first entry, by the definition before Linux 5.8 (PCRs 0-7 only)" :
						"boot_aggregate: matches the list's first entry";
			}
		}
	}
	for (i = 0; i < rs.n; i++)
		printf("reason: %s\n", rs.r[i]);
	rc = rs.n ? 1 : 0;
	printf("result: %s\n", rc ? "FAIL" : "PASS");
	if (html) {
		struct att_page_verify pv = {
			.enrolled = dir, .quote_checked = !!qc.ak,
			.quote_ok = quote_ok, .qc = &qc, .ev = ev,
			.ev_error = ev_error, .agg = have_agg ? agg : NULL,
			.list_agg = have_want ? want : NULL, .rs = &rs,
			.proven = proven, .nproven = nproven, .rounds = rounds,
		};

		if (att_page_verify(html, &pv)) {
			fprintf(stderr, "ima-attest: %s: cannot write the page: %s\n",
				html, strerror(errno));
			rc = 2;
		}
	}
out:
	att_pkey_free(qc.ak);
	free(ev);
	free(msg);
	free(sig);
	free(vals);
	free(log);
	return rc;
}

static int cmd_poll(int argc, char **argv)
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
	uint8_t *msg = NULL, *sig = NULL, *vals = NULL, *ent = NULL, nonce[64];
	size_t msg_len, sig_len, vals_len, ent_len;
	struct ima_quote_check qc = { 0 };
	struct att_poll_round r = { 0 };
	struct ima_keyring kr = { 0 };
	struct att_poll_state st;
	struct att_enrollment rec;
	struct att_reasons ers = { 0 };
	char err[ATT_REASON_LEN], *end;
	int opt, rc = 2, nlen, i, ls;
	bool first;

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
		default: usage();
		}
	}
	if (!statef || !dir || !msgf || !sigf || !pcrf || !noncehex || !entf ||
	    !offs || optind != argc)
		usage();

	errno = 0;
	r.offset = strtoull(offs, &end, 10);
	nlen = ima_hex2bin(noncehex, strlen(noncehex), nonce, sizeof(nonce));
	if (errno || *end || nlen <= 0 || (size_t)nlen * 2 != strlen(noncehex)) {
		fprintf(stderr, "ima-attest: bad --offset or --nonce\n");
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
	msg = slurp(msgf, 1 << 16, &msg_len);
	sig = slurp(sigf, 1 << 16, &sig_len);
	vals = slurp(pcrf, 1 << 16, &vals_len);
	ent = slurp(entf, MAX_FILE, &ent_len);
	if (!msg || !sig || !vals || !ent) {
		fprintf(stderr, "ima-attest: cannot read the round's files: %s\n", strerror(errno));
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
	if (att_enrollment_check(dir, NULL, &rec, &qc.ak, &ers) != ATT_ENROLLED) {
		att_reason(&r.rs, "no AK enrolled in %s: no quote can be trusted", dir);
		for (i = 0; i < ers.n; i++)
			att_reason(&r.rs, "enrollment: %s", ers.r[i]);
		goto verdict;
	}
	/* the state is of one enrolled AK: a new enrollment starts anew */
	if (ls == 0 && (st.ak_name_len != rec.ak_name_len ||
			memcmp(st.ak_name, rec.ak_name, rec.ak_name_len))) {
		att_reason(&r.rs, "the state %s is of another enrolled AK: remove it to start from entry 0",
			   statef);
		goto verdict;
	}
	memcpy(st.ak_name, rec.ak_name, rec.ak_name_len);
	st.ak_name_len = rec.ak_name_len;
	qc.msg = msg;
	qc.msg_len = msg_len;
	qc.sig = sig;
	qc.sig_len = sig_len;
	qc.nonce = nonce;
	qc.nonce_len = (size_t)nlen;
	qc.values = vals;
	qc.values_len = vals_len;
	i = ima_quote_verify(&qc);
	if (i != IMA_QUOTE_OK || !qc.sig_ok || !qc.nonce_ok || !qc.pcrs_ok) {
		if (i == IMA_QUOTE_FAIL)
			for (i = 0; i < qc.nreasons; i++)
				att_reason(&r.rs, "%s", qc.reasons[i]);
		else
			att_reason(&r.rs, "quote: %s", qc.error[0] ? qc.error : "not verified");
		goto verdict;
	}
	r.reset_count = qc.quote.reset_count;
	r.restart_count = qc.quote.restart_count;
	r.clock = qc.quote.clock;
	r.quoted = &qc.pcrs;
	r.entries = ent;
	r.entries_len = ent_len;
	r.deny = deny;
	att_poll(&st, &r);
verdict:
	for (i = 0; i < r.rs.n; i++)
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
	ima_verifier_free(r.verifier);
	ima_deny_free(deny);
	ima_keyring_free(&kr);
	att_pkey_free(qc.ak);
	free(msg);
	free(sig);
	free(vals);
	free(ent);
	return rc;
}

/* request: one message to the agent, its reply's fields into files */
static int cmd_request(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "channel", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	const char *channel = NULL, *out = NULL, *keys[ATT_MSG_FIELDS];
	uint8_t *vals[ATT_MSG_FIELDS] = { NULL };
	size_t lens[ATT_MSG_FIELDS];
	struct chan c = { .fd = -1 };
	struct att_msg m = { 0 };
	int timeout = 300, opt, nf = 0, rc = 2, i, dirfd;
	char err[ATT_REASON_LEN];

	while ((opt = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (opt) {
		case 'c': channel = optarg; break;
		case 'o': out = optarg; break;
		case 't': timeout = atoi(optarg); break;
		default: usage();
		}
	}
	if (!channel || !out || optind >= argc || timeout <= 0 ||
	    argc - optind - 1 > ATT_MSG_FIELDS)
		usage();
	for (i = optind + 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq)
			usage();
		*eq = '\0';
		keys[nf] = argv[i];
		lens[nf] = strlen(eq + 1);
		vals[nf] = (uint8_t *)eq + 1;	/* sent as given: bytes of the value */
		nf++;
	}
	dirfd = att_dir_open(out, true, err, sizeof(err));
	if (dirfd < 0) {
		fprintf(stderr, "ima-attest: %s\n", err);
		return 2;
	}
	if (chan_open(&c, channel, timeout) ||
	    chan_send(&c, argv[optind], keys, (const uint8_t **)vals, lens, nf)) {
		fprintf(stderr, "ima-attest: cannot talk on %s: %s\n", channel, strerror(errno));
		goto out;
	}
	if (chan_recv(&c, &m, err, sizeof(err))) {
		fprintf(stderr, "ima-attest: request: %s\n", err);
		goto out;
	}
	/* keys are [a-z0-9_] (att_msg_parse): file names in out */
	if (att_file_write(dirfd, out, "verb", m.verb, strlen(m.verb), err,
			   sizeof(err)))
		goto wfail;
	for (i = 0; i < m.nfields; i++)
		if (att_file_write(dirfd, out, m.key[i], m.val[i], m.len[i],
				   err, sizeof(err)))
			goto wfail;
	printf("%s\n", m.verb);
	rc = 0;
	goto out;
wfail:
	fprintf(stderr, "ima-attest: request: %s\n", err);
out:
	att_msg_free(&m);
	if (c.fd >= 0)
		close(c.fd);
	free(c.buf);
	close(dirfd);
	return rc;
}

/*
 * What the log can attest, on stderr (stdout holds only the values, which
 * scripts compare with tpm2_eventlog's)
 */
static void print_evlog_format(const char *path, const struct att_evlog *ev)
{
	char name[32];
	int j;

	if (ev->sha1_log) {
		fprintf(stderr, "ima-attest: %s: SHA1 (TCG 1.2) format, %u events: only the sha1 bank is attested\n",
			path, ev->events);
		return;
	}
	fprintf(stderr, "ima-attest: %s: crypto agile, %u events, banks", path,
		ev->events);
	for (j = 0; j < ev->nbanks; j++)
		fprintf(stderr, " %s", att_evlog_bank_name(ev, j, name,
							    sizeof(name)));
	fputc('\n', stderr);
}

static int cmd_eventlog(int argc, char **argv)
{
	struct att_evlog *ev = calloc(1, sizeof(*ev));
	char err[256], hx[2 * ATT_MAX_DIGEST + 1];
	uint8_t *log;
	size_t len;
	int j, i, rc = 1;

	if (argc != 2 || !ev)
		usage();
	log = slurp(argv[1], MAX_FILE, &len);
	if (!log) {
		fprintf(stderr, "ima-attest: %s: %s\n", argv[1], strerror(errno));
		free(ev);
		return 2;
	}
	if (att_evlog_replay(ev, log, len, err, sizeof(err))) {
		printf("reason: firmware event log does not parse: %s (record at byte %llu)\n",
		       err, (unsigned long long)ev->err_offset);
		goto out;
	}
	print_evlog_format(argv[1], ev);
	for (j = 0; j < ev->nbanks; j++)
		for (i = 0; i < ATT_EV_PCRS; i++) {
			if (!(ev->touched & (1u << i)) || ev->bank[j] < 0)
				continue;
			ima_bin2hex(ev->pcr[j][i], ev->size[j], hx);
			printf("%s:%d %s\n", ima_bank_name(ev->bank[j]), i, hx);
		}
	rc = 0;
out:
	free(log);
	free(ev);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "enroll"))
		return cmd_enroll(argc - 1, argv + 1);
	if (!strcmp(argv[1], "enrolled"))
		return cmd_enrolled(argc - 1, argv + 1);
	if (!strcmp(argv[1], "verify"))
		return cmd_verify(argc - 1, argv + 1);
	if (!strcmp(argv[1], "request"))
		return cmd_request(argc - 1, argv + 1);
	if (!strcmp(argv[1], "poll"))
		return cmd_poll(argc - 1, argv + 1);
	if (!strcmp(argv[1], "eventlog"))
		return cmd_eventlog(argc - 1, argv + 1);
	usage();
	return 2;
}
