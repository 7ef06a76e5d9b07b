// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the whole audit (parser, field checks, replay,
 * binding and coverage, signature parsing and verification, manifest,
 * policy, JSON and text output) over an arbitrary measurement list, with
 * --jobs 2: the worker pool and verify-once cache (with a key) or the
 * hash queue thread (without), chosen by the first input byte.
 *
 * Per-run setup (keys, manifest, PCR values) is made once; per input the
 * audit allocates only a 256-slot cache (the command's is 65536) and
 * 4 KiB replay queue buffers (the command's are 256 KiB); the signature
 * workers and the hash-queue thread are kept across inputs
 * (ima_audit_pool_new, ima_audit_hashq_new), as a daemon would.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "ima_audit.h"

static struct ima_audit_opts keyed, plain;
static FILE *devnull;

static void setup_opts(struct ima_audit_opts *o, EVP_PKEY *pkey)
{
	static const char pcrs[] =
		"sha1:10 0000000000000000000000000000000000000000\n"
		"sha256:10 0000000000000000000000000000000000000000000000000000000000000000\n"
		"sha256:11 1111111111111111111111111111111111111111111111111111111111111111\n";
	static const char mf[] =
		"sha256:0000000000000000000000000000000000000000000000000000000000000000 /bin/sh\n";
	char err[256];

	o->pcr_mask = 1u << 10 | 1u << 11 | 1u << 12;	/* reported PCRs */
	o->banks = 3;
	ima_pcr_parse_text(&o->pcrs, pcrs, sizeof(pcrs) - 1, "f", err,
			   sizeof(err));
	o->manifest = ima_manifest_new();
	ima_manifest_parse(o->manifest, mf, sizeof(mf) - 1, "m", err,
			   sizeof(err));
	if (pkey) {
		o->keys.keys = calloc(1, sizeof(*o->keys.keys));
		o->keys.keys[0].pkey = pkey;
		o->keys.keys[0].keyid = 0;	/* matches a zero key id */
		o->keys.n = 1;
	}
	o->expect_policy = (const uint8_t *)"measure func=FILE_CHECK\n";
	o->expect_policy_len = 24;
	o->expect_policy_name = "policy";
	o->require_signatures = true;
	o->ignore_pcrs = 1u << 12;
	o->jobs = 2;
	o->cache_slots = 256;
	o->hashq_bufsz = 4096;	/* records over 4 KiB take the drain path */
	o->reader.max_entry = 1 << 16;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setup_opts(&keyed, EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256"));
	setup_opts(&plain, NULL);
	keyed.pool = ima_audit_pool_new(&keyed);	/* kept across inputs */
	plain.hashq = ima_audit_hashq_new(&plain);
	devnull = fopen("/dev/null", "w");
	return keyed.keys.n && devnull ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ima_audit_opts *o = size && data[0] & 1 ? &plain : &keyed;
	struct ima_reader r;
	struct ima_audit a;
	int i;

	ima_reader_init_mem(&r, data, size, &o->reader);
	if (!ima_audit_init(&a, o)) {
		o->allow_uncovered = size && data[0] & 2;
		ima_audit_run(&a, &r);
		ima_report_json(&a, devnull);
		ima_report_text(&a, devnull);
		ima_audit_free(&a);
	}
	ima_reader_free(&r);
	/* init added the given banks to the replayed ones: keep them */
	for (i = 0; i < 2; i++)
		(i ? &plain : &keyed)->banks = 3;
	return 0;
}
