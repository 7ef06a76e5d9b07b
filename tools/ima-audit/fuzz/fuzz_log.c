// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the whole audit (parser, field checks, replay,
 * signature parsing and verification, manifest, policy, JSON output)
 * over an arbitrary measurement list.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "ima_audit.h"

static struct ima_audit_opts opts;
static FILE *devnull;

static void setup(void)
{
	static const char pcrs[] =
		"sha1:10 0000000000000000000000000000000000000000\n"
		"sha256:10 0000000000000000000000000000000000000000000000000000000000000000\n";
	static const char mf[] =
		"sha256:0000000000000000000000000000000000000000000000000000000000000000 /bin/sh\n";
	char err[256];
	EVP_PKEY *pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");

	opts.pcr_mask = 0xffffff;
	opts.banks = 3;
	ima_pcr_parse_text(&opts.pcrs, pcrs, sizeof(pcrs) - 1, "f", err,
			   sizeof(err));
	opts.manifest = ima_manifest_new();
	ima_manifest_parse(opts.manifest, mf, sizeof(mf) - 1, "m", err,
			   sizeof(err));
	opts.keys.keys = calloc(1, sizeof(*opts.keys.keys));
	opts.keys.keys[0].pkey = pkey;
	opts.keys.keys[0].keyid = 0;	/* matches a zero key id */
	opts.keys.n = 1;
	opts.expect_policy = (const uint8_t *)"measure func=FILE_CHECK\n";
	opts.expect_policy_len = 24;
	opts.expect_policy_name = "policy";
	opts.require_signatures = true;
	opts.jobs = 0;
	devnull = fopen("/dev/null", "w");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int done;
	struct ima_reader r;
	struct ima_audit a;

	if (!done++)
		setup();
	opts.reader.max_entry = 1 << 16;
	ima_reader_init_mem(&r, data, size, &opts.reader);
	if (!ima_audit_init(&a, &opts)) {
		ima_audit_run(&a, &r);
		ima_report_json(&a, devnull);
		ima_report_text(&a, devnull);
	}
	ima_audit_free(&a);
	ima_reader_free(&r);
	return 0;
}
