// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the text inputs (PCR value files, manifests, deny
 * lists in every form) and the digest-field splitter.
 */
#include <stdio.h>
#include <string.h>

#include "ima_deny.h"
#include "ima_log.h"
#include "ima_manifest.h"
#include "ima_pcr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ima_pcr_values v;
	struct ima_manifest *m = ima_manifest_new();
	const char *algo;
	const uint8_t *d;
	size_t alen;
	uint32_t dlen;
	char err[256];

	memset(&v, 0, sizeof(v));
	ima_pcr_parse_text(&v, (const char *)data, size, "f", err, sizeof(err));
	if (m) {
		ima_manifest_parse(m, (const char *)data, size, "m", err,
				   sizeof(err));
		if (size > 20)
			ima_manifest_check(m, (const char *)data + 20,
					   size - 20,
					   ima_hash_by_name("sha1", 4), data,
					   20);
		ima_manifest_free(m);
	}
	ima_split_digest_field(data, (uint32_t)size, NULL, &algo, &alen, &d,
			       &dlen);
	{
		struct ima_denylist *dl = ima_deny_new();

		if (dl && !ima_deny_parse(dl, (const char *)data, size, "d",
					  err, sizeof(err)) && size >= 32)
			ima_deny_find(dl, ima_hash_by_name("sha256", 6), data,
				      32);
		ima_deny_free(dl);
	}
	return 0;
}
