/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ima-attest: what a remote verifier must prove before it trusts a quote.
 *
 *  - the TPM's identity: an EK certificate that chains to the manufacturer
 *    CA, and an EK public area (TPMT_PUBLIC) whose key is the certified one;
 *  - the AK: a TPMT_PUBLIC with the attributes of a restricted TPM signing
 *    key, whose name is recomputed here, bound to the EK by credential
 *    activation (MakeCredential is done here, in OpenSSL);
 *  - the firmware: a TCG PC Client crypto-agile event log replayed in every
 *    bank it carries and compared with the quoted PCRs 0-9.
 *
 * TPM structures are big-endian, the event log little-endian; every length
 * is checked against the bytes present and a maximum for its type.
 */
#ifndef IMA_ATTEST_H
#define IMA_ATTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "att_verdict.h"
#include "ima_deny.h"
#include "ima_pcr.h"
#include "ima_quote.h"

#define ATT_ALG_RSA		0x0001
#define ATT_ALG_SHA1		0x0004
#define ATT_ALG_AES		0x0006
#define ATT_ALG_SHA256		0x000b
#define ATT_ALG_SHA384		0x000c
#define ATT_ALG_SHA512		0x000d
#define ATT_ALG_NULL		0x0010
#define ATT_ALG_RSASSA		0x0014
#define ATT_ALG_RSAES		0x0015
#define ATT_ALG_RSAPSS		0x0016
#define ATT_ALG_ECDAA		0x001a
#define ATT_ALG_ECC		0x0023
#define ATT_ALG_CFB		0x0043

/* TPMA_OBJECT bits */
/* TPMI_ECC_CURVE */
#define ATT_ECC_NIST_P256	0x0003
#define ATT_ECC_NIST_P384	0x0004
#define ATT_ECC_NIST_P521	0x0005

#define ATT_FIXED_TPM		(1u << 1)
#define ATT_FIXED_PARENT	(1u << 4)
#define ATT_SENSITIVE_ORIGIN	(1u << 5)
#define ATT_USER_WITH_AUTH	(1u << 6)
#define ATT_ADMIN_WITH_POLICY	(1u << 7)
#define ATT_RESTRICTED		(1u << 16)
#define ATT_DECRYPT		(1u << 17)
#define ATT_SIGN		(1u << 18)

#define ATT_MAX_PUBLIC		1024	/* sizeof(TPMT_PUBLIC) bound */
#define ATT_MAX_RSA		512	/* TPM2B_PUBLIC_KEY_RSA */
#define ATT_MAX_ECC		66	/* TPM2B_ECC_PARAMETER (P-521) */
#define ATT_MAX_DIGEST		64
#define ATT_MAX_NAME		(2 + ATT_MAX_DIGEST)
#define ATT_REASON_LEN		400	/* one reason, escaped, with the NUL */

/*
 * Every failure a verdict found (reasons.c): r[i], escaped (printable,
 * one line), of class cls[i] (att_verdict.h). There is no limit on their
 * number; n > 0 means the verdict failed. Without memory for one more,
 * the first still takes a place of its own (n stays > 0) and later ones
 * are counted in lost. { 0 } is an empty list; att_reasons_free it.
 */
struct att_reasons {
	int n, cap;
	char **r;
	int *cls;
	unsigned long lost;
	bool oom;
};

void att_reason(struct att_reasons *rs, int cls, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* text as it is: escaped already (a record's reason, read back) */
void att_reason_text(struct att_reasons *rs, int cls, const char *text);
/* from's reasons after to's, each with prefix; the number added */
int att_reasons_append(struct att_reasons *to, const struct att_reasons *from,
		       const char *prefix);
void att_reasons_free(struct att_reasons *rs);

/*
 * TPMT_PUBLIC of an RSA or an ECC key (the types an EK or AK may have;
 * AKs must be RSA, att_ak_check).
 */
struct att_public {
	uint16_t type;
	uint16_t name_alg;
	uint32_t attrs;
	uint16_t policy_len;
	uint8_t policy[ATT_MAX_DIGEST];
	uint16_t sym_alg, sym_bits, sym_mode;	/* TPMT_SYM_DEF_OBJECT */
	uint16_t scheme, scheme_hash;		/* TPMT_RSA/ECC_SCHEME */
	/* RSA: TPMS_RSA_PARMS, TPM2B_PUBLIC_KEY_RSA */
	uint16_t key_bits;
	uint32_t exponent;			/* 0 means 65537 */
	uint16_t mod_len;
	uint8_t modulus[ATT_MAX_RSA];
	/* ECC: TPMS_ECC_PARMS, TPMS_ECC_POINT */
	uint16_t curve;				/* ATT_ECC_* */
	uint16_t kdf, kdf_hash;			/* TPMT_KDF_SCHEME */
	uint16_t x_len, y_len;
	uint8_t x[ATT_MAX_ECC], y[ATT_MAX_ECC];
	size_t area_len;			/* the TPMT_PUBLIC bytes */
	uint8_t area[ATT_MAX_PUBLIC];
};

/*
 * Parse a TPM2B_PUBLIC (tpm2_createak -u, tss format) when tpm2b, else a
 * bare TPMT_PUBLIC, of an RSA or ECC key; every byte must be consumed.
 * An ECC point is not checked to be on its curve here (att_public_pkey
 * does). 0, or -1 with err.
 */
int att_public_parse(struct att_public *pub, const uint8_t *buf, size_t len,
		     bool tpm2b, char *err, size_t errlen);
/*
 * The OpenSSL digest (const EVP_MD *) of a TPM hash algorithm (sha1,
 * sha256, sha384, sha512), or NULL.
 */
const void *att_md(uint16_t alg);
/* nameAlg || H_nameAlg(TPMT_PUBLIC); returns the length or -1. */
int att_public_name(const struct att_public *pub, uint8_t *name,
		    size_t namemax);
/*
 * The key as an EVP_PKEY * (void * keeps OpenSSL out of the header): RSA,
 * or ECC on NIST P-256, P-384 or P-521 with the point on its curve.
 */
/* OpenSSL's name of a TPM curve ("P-256") and its field bytes, or NULL */
const char *att_curve(uint16_t curve, size_t *bytes);
void *att_public_pkey(const struct att_public *pub, char *err, size_t errlen);
void att_pkey_free(void *pkey);
/* The key as PEM (SubjectPublicKeyInfo) in path; 0 or -1. */
int att_pkey_write_pem(void *pkey, const char *path);

/*
 * The AK checks: an RSA (not ECC) restricted signing key that never left the TPM
 * (fixedTPM, fixedParent, sensitiveDataOrigin, restricted, sign, not
 * decrypt, a signing scheme with a hash), and name = the name recomputed
 * from the public area. Each failed check adds a reason; returns the
 * number of reasons added.
 */
int att_ak_check(const struct att_public *ak, const uint8_t *name,
		 size_t name_len, struct att_reasons *rs);

/*
 * The EK checks: the certificate (DER) chains to a CA in ca_file, through
 * the certificates in chain_file (may be NULL), and certifies an EK
 * (extended key usage tcg-kp-EKCertificate, not a CA, key usage if any
 * with keyEncipherment for RSA, keyAgreement for ECC); the EK public area
 * is a restricted decryption key with the template MakeCredential needs:
 * RSA with AES-128-CFB and a sha256 name, or ECC with the TCG default EK
 * template of its curve (NIST P-256: the low range's; NIST P-384: the
 * high range's), each field of it; its key is the certificate's. Returns
 * the number of reasons added.
 */
int att_ek_check(const uint8_t *cert, size_t cert_len, const char *ca_file,
		 const char *chain_file, const struct att_public *ek,
		 struct att_reasons *rs);

/*
 * A certificate as DER: in itself, or the first of a PEM file's ("-----BEGIN
 * CERTIFICATE-----"), as a manufacturer may publish it. *der malloc()ed;
 * 0, or -1 with err.
 */
int att_cert_der(const uint8_t *in, size_t len, uint8_t **der, size_t *der_len,
		 char *err, size_t errlen);

/*
 * The manufacturer CA file and the chain file (may be NULL) as att_ek_check
 * loads them: each readable, each with at least one PEM certificate. For a
 * command to refuse its inputs before it waits for a guest. 0, or -1 with
 * err naming the file.
 */
int att_ca_check(const char *ca_file, const char *chain_file, char *err,
		 size_t errlen);

/*
 * TPM2_MakeCredential for ek over (secret, name), the seed protected by
 * RSA-OAEP (an RSA EK) or by ECDH with an ephemeral key on the EK's curve
 * (an ECC EK; encryptedSecret the ephemeral point); the symmetric key,
 * HMAC and seed size of the EK's nameAlg and symmetric. Writes the credential
 * in tpm2-tools' file format (tpm2_activatecredential -i): magic
 * 0xBADCC0DE, version 1, TPM2B_ID_OBJECT, TPM2B_ENCRYPTED_SECRET.
 * Returns the bytes written into out, or -1 with err.
 */
long att_make_credential(const struct att_public *ek, const uint8_t *secret,
			 size_t secret_len, const uint8_t *name,
			 size_t name_len, uint8_t *out, size_t outmax,
			 char *err, size_t errlen);
/*
 * KDFa (TPM 2.0 part 1, 11.4.10.2) with HMAC-hash and KDFe (11.4.10.3,
 * SP800-56A's one-step KDF with hash; u and v the parties' x coordinates)
 * for sha256, sha384 and sha512; 0 or -1.
 */
int att_kdfe(uint16_t hash, const uint8_t *z, size_t z_len,
	     const char *label, const uint8_t *u, size_t u_len,
	     const uint8_t *v, size_t v_len, uint8_t *out, size_t bits);
int att_kdfa(uint16_t hash, const uint8_t *key, size_t key_len,
	     const char *label, const uint8_t *u, size_t u_len,
	     const uint8_t *v, size_t v_len, uint8_t *out, size_t bits);

/* --- the firmware's event log (TCG PC Client, crypto-agile) ----------- */
#define ATT_EV_NO_ACTION	0x00000003u
#define ATT_EV_EFI_HCRTM_EVENT	0x80000010u
#define ATT_EV_MAX_BANKS	8
#define ATT_EV_MAX_EVENTS	100000u
#define ATT_EV_MAX_EVENT_SIZE	(1u << 20)
#define ATT_EV_PCRS		24

struct att_evlog {
	bool sha1_log;				/* the SHA1 (TCG 1.2) format */
	int nbanks;
	uint16_t alg[ATT_EV_MAX_BANKS];		/* Spec ID Event03 order */
	uint16_t size[ATT_EV_MAX_BANKS];
	int bank[ATT_EV_MAX_BANKS];		/* enum ima_bank; -1: an
						 * algorithm framed, not
						 * replayed (sm3_256, ...) */
	uint32_t events;			/* TCG_PCR_EVENT2 records */
	uint32_t touched;			/* bit n: PCR n extended */
	uint8_t locality;			/* StartupLocality, 0 if none;
						 * 4 after an H-CRTM */
	bool hcrtm;				/* EV_EFI_HCRTM_EVENT first in
						 * PCR 0 */
	uint8_t pcr[ATT_EV_MAX_BANKS][ATT_EV_PCRS][ATT_MAX_DIGEST];
	uint64_t err_offset;
};

/*
 * Parse and replay a whole log: crypto agile (the first record a
 * TCG_PCClientPCREvent carrying the Spec ID Event03, the rest
 * TCG_PCR_EVENT2 with a digest for each algorithm the Spec ID names), or
 * the SHA1 format (TCG_PCClientPCREvent records only: ev->sha1_log, one
 * sha1 bank). EV_NO_ACTION records are not extended, whatever PCR index
 * they carry (a StartupLocality event sets PCR 0's initial value, and so
 * does an EV_EFI_HCRTM_EVENT first in PCR 0: to 4). 0, or -1 with err and
 * err_offset.
 */
int att_evlog_replay(struct att_evlog *ev, const uint8_t *buf, size_t len,
		     char *err, size_t errlen);
/* Bank j's name: "sha256", or "0x0012 (not replayed)" in buf. */
const char *att_evlog_bank_name(const struct att_evlog *ev, int j,
				char *buf, size_t len);
/* The replayed values in ima_pcr terms (every PCR 0-23 of every bank). */
void att_evlog_values(const struct att_evlog *ev, struct ima_pcr_values *v);

/*
 * The replayed PCRs in pcr_mask against the quoted values: every bank the
 * quote has for those PCRs must be in the log and equal, and every bank
 * the log carries must be quoted for all of them (a bank the quote leaves
 * out is the log's word only). Returns the number of reasons added.
 */
int att_evlog_compare(const struct att_evlog *ev,
		      const struct ima_pcr_values *quoted, uint32_t pcr_mask,
		      struct att_reasons *rs);

/* --- the channel: one message a line, "VERB key=base64 ..." ----------- */
#define ATT_MSG_MAX		(256u << 10)
#define ATT_MSG_FIELDS		8

struct att_msg {
	char verb[32];
	int nfields;
	char key[ATT_MSG_FIELDS][32];
	uint8_t *val[ATT_MSG_FIELDS];	/* decoded, malloc()ed */
	size_t len[ATT_MSG_FIELDS];
};

/* Parse one line (no newline); 0, or -1 with err. */
int att_msg_parse(struct att_msg *m, const char *line, size_t len, char *err,
		  size_t errlen);
/* The value of key, or NULL. */
const uint8_t *att_msg_get(const struct att_msg *m, const char *key,
			   size_t *len);
void att_msg_free(struct att_msg *m);
/* A field added (a copy of val); 0, or -1 (full, twice, no memory). */
int att_msg_set(struct att_msg *m, const char *key, const uint8_t *val,
		size_t len);

/*
 * The channel itself (channel.c): a unix socket, QEMU's end of the guest's
 * virtio-serial port. att_chan_open connects, retrying while the socket
 * is not there yet, until timeout seconds have passed; every receive waits
 * at most until that same deadline. 0, or -1 with errno.
 */
struct att_chan {
	int fd;
	time_t deadline;
	char *buf;
	size_t have;
};

int att_chan_open(struct att_chan *c, const char *path, int timeout);
/* VERB key=HEX(value) ... as one line; 0, or -1 */
int att_chan_send(struct att_chan *c, const char *verb, const char **keys,
		  const uint8_t **vals, const size_t *lens, int n);
/* The next line into m (att_msg_parse); 0, or -1 with err */
int att_chan_recv(struct att_chan *c, struct att_msg *m, char *err,
		  size_t errlen);
void att_chan_close(struct att_chan *c);

/* --- inputs (input.c) -------------------------------------------------- */
#define ATT_QUOTE_FILE_MAX	(1u << 16)
#define ATT_NONCE_MAX		64

/* The whole file, at most max bytes (EFBIG beyond); NULL with errno. */
uint8_t *att_slurp(const char *path, size_t max, size_t *len);
/* A nonce in hex: 1 to max bytes, every digit a pair; 0, or -1. */
int att_nonce_parse(const char *hex, uint8_t *out, size_t max, size_t *len);

/* The quote a verifier is handed and the nonce it chose. */
struct att_quote_files {
	uint8_t *msg, *sig, *vals;	/* tpm2_quote -m, -s, -o -F values */
	size_t msg_len, sig_len, vals_len;
	uint8_t nonce[ATT_NONCE_MAX];
	size_t nonce_len;
};

/*
 * The nonce (hex) and the three files, read whole (ATT_QUOTE_FILE_MAX
 * each); 0, or -1 with err naming what could not be read.
 */
int att_quote_files_load(struct att_quote_files *f, const char *msg,
			 const char *sig, const char *pcrs,
			 const char *nonce_hex, char *err, size_t errlen);
void att_quote_files_free(struct att_quote_files *f);

struct att_enrollment;

/*
 * The quote checked with the AK of the enrollment in dir, when it is
 * trusted (att_enrollment_check, the one rule): signature by that AK,
 * extraData the nonce, pcrDigest the quoted values. qc is filled (qc->ak
 * the AK when enrolled: att_pkey_free it; qc->pcrs the quoted values when
 * true), rec as read; each failure a reason in rs. True when the quote is
 * proven.
 */
bool att_quote_check(struct ima_quote_check *qc,
		     const struct att_quote_files *f, const char *dir,
		     struct att_enrollment *rec, struct att_reasons *rs);

/*
 * The sha256 boot_aggregate of a binary list's first entry, read from the
 * record's data (ima_data_view) and not its template name; 0, or -1 with
 * err.
 */
int att_list_aggregate(const char *path, uint8_t *out, char *err,
		       size_t errlen);

/* --- files the verifier writes and later trusts (store.c) ------------- */

/*
 * Open dir (made 0700 first when create) without following a link; it
 * must be owned by this user or root and writable by no one else. The
 * fd, or -1 with err (errno EPERM: a directory others can write).
 */
int att_dir_open(const char *dir, bool create, char *err, size_t errlen);
/*
 * Write name in dirfd whole: a new file beside it (O_EXCL, O_NOFOLLOW,
 * mode 0600), fsync, renamed over name, the directory fsync()ed. 0, or
 * -1 with err.
 */
int att_file_write(int dirfd, const char *dir, const char *name,
		   const void *data, size_t len, char *err, size_t errlen);
/*
 * Read name in dirfd: a regular file, not a link, owned by this user or
 * root, writable by no one else, at most max bytes; NUL-terminated. NULL
 * with err and errno (ENOENT: none; EPERM: not one to trust).
 */
uint8_t *att_file_read(int dirfd, const char *dir, const char *name,
		       size_t max, size_t *len, char *err, size_t errlen);
/* Remove name in dirfd if it is there; 0, or -1 with err. */
int att_file_remove(int dirfd, const char *dir, const char *name, char *err,
		    size_t errlen);
/*
 * data appended to the file at path, the same way: its directory the
 * verifier's own, the old content read as a file to trust (none yet is
 * fine), the whole written beside it and renamed over it; at most max
 * bytes in all. With data NULL, only whether it could be. 0, or -1 with
 * err.
 */
int att_file_append(const char *path, const void *data, size_t len,
		    size_t max, char *err, size_t errlen);
#define ATT_ROUNDS_MAX		(16u << 20)	/* poll --record */
/* path's directory ("." without one) and file name; -1 if none. */
int att_path_split(const char *path, char *dir, size_t dirlen,
		   const char **name);
/* The same, the directory opened by att_dir_open (not made); its fd, or
 * -1 with err. */
int att_path_open(const char *path, char *dir, size_t dirlen,
		  const char **name, char *err, size_t errlen);

/* --- enrollment: the verdict over one guest's answers ----------------- */
enum att_proof {
	ATT_NOT_PROVEN,		/* not reached */
	ATT_PROVEN,
	ATT_REFUSED,
};

struct att_enroll {
	/* inputs */
	const char *ca_file, *chain_file;
	/* state */
	struct att_public ek, ak;
	uint8_t ak_name[ATT_MAX_NAME];
	size_t ak_name_len;
	uint8_t secret[32];
	bool challenged;
	/* outputs */
	bool ek_ok, ak_ok, activated;
	int tpm_identity, ak_binding;	/* enum att_proof */
	struct att_reasons rs;
};

/*
 * Step 1, the guest's ENROLL message: checks EK certificate, EK public area,
 * AK public area and name; on success makes a credential over a fresh
 * random secret into cred. Returns the credential length, 0 when refused
 * (reasons in e->rs), -1 on an internal error (err).
 */
long att_enroll_request(struct att_enroll *e, const struct att_msg *m,
			uint8_t *cred, size_t credmax, char *err,
			size_t errlen);
/*
 * Step 2, the guest's answer: ACTIVATED secret=... must equal the secret of
 * this challenge (constant time). Returns true when the AK is trusted.
 */
bool att_enroll_answer(struct att_enroll *e, const struct att_msg *m);

/*
 * The enrollment record (DIR/verdict): what one enrollment proved, field
 * by field, as text:
 *
 *	ima-attest enrollment 1
 *	boot: ID				(or -: none named)
 *	manufacturer-ca-sha256: HEX		(the CA the EK certificate
 *						 chains to, or -)
 *	ek-certificate-sha256: HEX		(DIR/ek-cert.der, or -)
 *	ek-name: HEX				(the EK's TPM name, or -)
 *	ak-name: HEX				(the AK's TPM name, or -)
 *	tpm-identity: proven|refused|not-proven
 *	ak-binding: proven|refused|not-proven
 *	result: trusted|refused
 *	reason: TEXT				(any number, escaped)
 *
 * The EK fields are given exactly when tpm-identity is proven, ak-name
 * exactly when ak-binding is; trusted exactly when both are.
 */
#define ATT_RECORD		"verdict"
#define ATT_RECORD_MAX		(16u << 10)

struct att_enrollment {
	char boot[65];				/* "-": none named */
	bool have_ca, have_ekcert;
	uint8_t ca_sha256[32], ekcert_sha256[32];
	uint8_t ek_name[ATT_MAX_NAME], ak_name[ATT_MAX_NAME];
	size_t ek_name_len, ak_name_len;	/* 0: - */
	int tpm_identity, ak_binding;		/* enum att_proof */
	bool trusted;
	struct att_reasons rs;
};

/* A boot's name: 1-64 letters, digits, '-' or '_'. */
bool att_boot_id_ok(const char *id);
/* The record as text into out; its length, 0 if it does not fit. */
size_t att_enrollment_format(const struct att_enrollment *rec, char *out,
			     size_t outlen);
/*
 * Read a record, every line as above in that order; 0, or -1 with err.
 * Its reasons are kept in rec->rs: att_enrollment_free.
 */
int att_enrollment_parse(struct att_enrollment *rec, const char *text,
			 size_t len, char *err, size_t errlen);
void att_enrollment_free(struct att_enrollment *rec);

enum att_enrolled {
	ATT_ENROLLED,		/* trusted, and every file checks */
	ATT_ENROLL_REFUSED,	/* refused, or a field does not check */
	ATT_ENROLL_ABSENT,	/* no record (of this boot) */
	ATT_ENROLL_ERROR,	/* cannot be read (I/O) */
};

/*
 * "Is this enrollment trusted": the one rule, for ima-attest's verify and
 * poll and for the scripts (ima-attest enrolled). DIR must be the
 * verifier's own (att_dir_open), its record (att_file_read) parse, be
 * boot's (when boot is not NULL) and say trusted; then the files it
 * names must be what it proved: DIR/ak.pub the AK whose TPM name is
 * ak-name, with the attributes of a restricted TPM signing key
 * (att_ak_check), DIR/ak.pem that same key, DIR/ek-cert.der of digest
 * ek-certificate-sha256. Never a line's prefix. Returns enum
 * att_enrolled, *rec as read (att_enrollment_free), and why in rs; when
 * ATT_ENROLLED and ak is not NULL, *ak the AK (EVP_PKEY *, from ak.pub;
 * att_pkey_free).
 */
int att_enrollment_check(const char *dir, const char *boot,
			 struct att_enrollment *rec, void **ak,
			 struct att_reasons *rs);

/*
 * What an enrollment writes into the directory (dirfd, opened with
 * att_dir_open): the AK's files once it is trusted (ak.pem for ima-audit
 * --ak-pub and tpm2-tools, ak.pub its TPMT_PUBLIC, ak.name), and, last,
 * the record. att_enrollment_of makes the record of what e proved (boot:
 * ID or NULL; the EK certificate's bytes, named by digest when the TPM
 * identity is proven; e's reasons copied: att_enrollment_free).
 * 0, or -1 with err.
 */
int att_ak_save(int dirfd, const char *dir, const struct att_enroll *e,
		char *err, size_t errlen);
int att_enrollment_of(struct att_enrollment *rec, const struct att_enroll *e,
		      const char *boot, const uint8_t *ekcert,
		      size_t ekcert_len, char *err, size_t errlen);
int att_enrollment_write(int dirfd, const char *dir,
			 const struct att_enrollment *rec, char *err,
			 size_t errlen);

/*
 * Enrolling a machine that is not our guest, in two steps with files
 * between them (challenge.c). Step 1 (ima-attest challenge) checks the
 * EK certificate, EK and AK public areas as att_enroll_request does and
 * makes the credential; what it proved and the digest of the secret stay
 * in DIR/challenge until step 2 (ima-attest activate) compares the secret
 * the machine's TPM released, once: the file is removed first.
 *
 *	ima-attest challenge 1
 *	boot: ID|-
 *	manufacturer-ca-sha256: HEX
 *	ek-certificate-sha256: HEX
 *	ek-name: HEX
 *	ak-public: HEX			(the AK's TPMT_PUBLIC)
 *	ak-name: HEX			(its name, recomputed when read)
 *	secret-sha256: HEX		(never the secret itself)
 */
#define ATT_CHALLENGE		"challenge"
#define ATT_CHALLENGE_MAX	(8u << 10)

struct att_challenge {
	char boot[65];
	uint8_t ca_sha256[32], ekcert_sha256[32], secret_sha256[32];
	uint8_t ek_name[ATT_MAX_NAME], ak_name[ATT_MAX_NAME];
	size_t ek_name_len, ak_name_len;
	struct att_public ak;
};

/* From an enrollment challenged (att_enroll_request > 0) and its record. */
int att_challenge_of(struct att_challenge *c, const struct att_enroll *e,
		     const struct att_enrollment *rec);
/* As text; its length, 0 if it does not fit. */
size_t att_challenge_format(const struct att_challenge *c, char *out,
			    size_t outlen);
/* Every line as above, in order; the AK's name recomputed. 0, or -1. */
int att_challenge_parse(struct att_challenge *c, const char *text,
			size_t len, char *err, size_t errlen);
/* The secret the machine returned is this challenge's (constant time). */
bool att_challenge_answer(const struct att_challenge *c,
			  const uint8_t *secret, size_t len);
/*
 * The enrollment the answer decides: e (tpm_identity proven; the AK, and
 * ak_binding proven and activated when ok, else refused with a reason)
 * and its record (att_enrollment_free).
 */
void att_challenge_decide(const struct att_challenge *c, bool ok,
			  struct att_enroll *e, struct att_enrollment *rec);

/* --- verify: one quote, the firmware log, boot_aggregate (verify.c) -- */

struct att_verify {
	/* inputs */
	const char *enrolled;		/* the enrollment directory */
	const struct att_quote_files *q;
	const char *eventlog;		/* the firmware's event log */
	const char *list;		/* a binary list, or NULL */
	/* outputs */
	struct ima_quote_check qc;	/* qc.ak: the enrolled AK, if any */
	struct att_enrollment rec;
	bool quote_ok;			/* the enrolled AK's, nonce, digest */
	struct att_evlog *ev;
	bool ev_read;			/* the log parses and replays */
	char ev_error[256];		/* why not */
	bool ev_ok;			/* and equals the quoted PCRs 0-9 */
	bool have_agg, have_want;	/* boot_aggregate derived; the list's */
	uint8_t agg[32], want[32];
	int def;			/* IMA_BOOT_DEF_* the list's matched */
	const char *proven[3];		/* each step proven, as said */
	int nproven;
	struct att_reasons rs;
};

/*
 * Every step of verify (the quote with the enrolled AK, the firmware log
 * against the quoted PCRs 0-9, boot_aggregate against the list's first
 * entry); each failure a reason. 0 proven, 1 refused, -1 out of memory.
 * att_verify_free after either.
 */
int att_verify(struct att_verify *v);
void att_verify_free(struct att_verify *v);

/* --- polling: the list verified incrementally, round by round --------- */
#define ATT_POLL_PCR		10

/*
 * What the verifier keeps between rounds (a text file, att_poll_load/save):
 * the enrolled AK it is of (its TPM name), the boot it is verifying
 * (resetCount, restartCount of the last quote and its clock), the next
 * entry it expects (index and byte offset in the binary list), and PCR 10
 * replayed up to there in the sha1 and sha256 banks. A new state starts
 * at entry 0, offset 0, PCR 10 zero, no boot.
 */
struct att_poll_state {
	uint8_t ak_name[ATT_MAX_NAME];		/* the enrolled AK it is of */
	size_t ak_name_len;
	bool have_boot;
	uint32_t reset_count, restart_count;
	uint64_t clock;
	uint64_t next_index, next_offset;
	uint8_t pcr[2][ATT_MAX_DIGEST];		/* sha1, sha256 */
	uint64_t rounds;
};

/*
 * The state file at path, in a directory only its owner can write
 * (att_dir_open, att_file_read; written by att_file_write): 1 when there
 * is none yet (a new state), 0 when read, -1 with err.
 */
int att_poll_load(struct att_poll_state *st, const char *path, char *err,
		  size_t errlen);
int att_poll_save(const struct att_poll_state *st, const char *path,
		  char *err, size_t errlen);

struct att_poll_round {
	/* inputs: a quote already verified (signature with the enrolled AK,
	 * nonce, pcrDigest) and the entries the guest sent */
	uint32_t reset_count, restart_count;
	uint64_t clock;
	const struct ima_pcr_values *quoted;
	const uint8_t *entries;
	size_t entries_len;
	uint64_t offset;		/* where the guest says they start */
	void *verifier;			/* struct ima_verifier *, or NULL */
	/* --deny: an entry whose digest is listed fails, or NULL */
	const struct ima_denylist *deny;
	/* outputs */
	uint64_t verified;		/* new entries covered by the quote */
	uint64_t uncovered;		/* entries after the quote: next round */
	struct att_reasons rs;
};

/*
 * One round: the boot is the same (resetCount, restartCount) and the clock
 * did not go backwards; the entries start where the state ends; replayed
 * from the saved PCR 10 they reach the quoted PCR 10 in both banks at some
 * prefix (entries after it are left for the next round); until entry 0 is
 * verified the quote must cover it (boot_aggregate, which IMA extends
 * before any process runs) and it is the one of the quoted PCRs 0-9; with
 * a verifier,
 * every new file entry carries a signature that verifies; after a
 * kexec_execute record the next is the next kernel's boot_aggregate, a
 * later boot_aggregate follows a kexec_execute, and the covered prefix
 * does not end at kexec_execute (the kernel handed over to measures
 * nothing). On success the
 * state moves to the end of the covered prefix and the quote's boot and
 * clock; on failure it is not changed. Returns the number of reasons.
 */
int att_poll(struct att_poll_state *st, struct att_poll_round *r);

#endif
