// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: a .ima record's buffer offered as a key from the list
 * (ima_listkeys_add: one DER certificate, chained to a CA made at start),
 * then the rest of the input checked as an evmctl v2 signature and as a
 * PKCS#7 with the keys accepted so far.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "ima_listkeys.h"

static char ca_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	X509 *c = X509_new();
	X509_NAME *n;
	FILE *f;

	(void)argc;
	(void)argv;
	X509_set_version(c, 2);
	X509_gmtime_adj(X509_getm_notBefore(c), 0);
	X509_gmtime_adj(X509_getm_notAfter(c), 3600);
	n = X509_get_subject_name(c);
	X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC,
				   (const unsigned char *)"fuzz CA", -1, -1, 0);
	X509_set_issuer_name(c, n);
	X509_set_pubkey(c, k);
	X509_sign(c, k, EVP_sha256());
	snprintf(ca_path, sizeof(ca_path), "/tmp/fuzz-listkeys-%d.pem",
		 (int)getpid());
	f = fopen(ca_path, "w");
	if (!f)
		return -1;
	PEM_write_X509(f, c);
	fclose(f);
	X509_free(c);
	EVP_PKEY_free(k);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ima_hash_algo *sha256 = ima_hash_by_name("sha256", 6);
	struct ima_listkeys lk = { 0 };
	struct ima_sig_hdr h;
	uint8_t d[32] = { 0 };
	size_t split = size ? data[0] : 0;
	char why[256];

	if (ima_listkeys_load_ca(&lk, ca_path, why, sizeof(why)))
		return 0;
	if (split > size - (size ? 1 : 0))
		split = size ? size - 1 : 0;
	ima_listkeys_add(&lk, data + (size ? 1 : 0), split, 1, 1, 10, why,
			 sizeof(why));
	if (ima_sig_parse(data + (size ? 1 : 0) + split,
			  (uint32_t)(size - (size ? 1 : 0) - split), &h) ==
	    IMA_SIG_OK)
		ima_listkeys_verify(&lk, false, sha256, IMA_DT_NONE, d, 32,
				    &h, NULL, 0, 2, 2, "/f", 2);
	ima_listkeys_verify(&lk, true, sha256, IMA_DT_NONE, d, 32, NULL,
			    data + (size ? 1 : 0) + split,
			    size - (size ? 1 : 0) - split, 3, 3, "/g", 2);
	ima_listkeys_free(&lk);
	return 0;
}
