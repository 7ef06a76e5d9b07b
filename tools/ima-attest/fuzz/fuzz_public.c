// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer: TPM2B_PUBLIC / TPMT_PUBLIC parsing (RSA and ECC), names, the
 * key made of the area (an ECC point checked on its curve) and the AK
 * checks.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ima_attest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct att_public p;
	uint8_t name[ATT_MAX_NAME];
	char err[160];
	int pass, n;
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	for (pass = 0; pass < 2; pass++) {
		struct att_reasons rs = { 0 };

		if (att_public_parse(&p, copy, size, pass == 0, err, sizeof(err)))
			continue;
		att_pkey_free(att_public_pkey(&p, err, sizeof(err)));
		n = att_public_name(&p, name, sizeof(name));
		att_ak_check(&p, name, n < 0 ? 0 : (size_t)n, &rs);
		att_reasons_free(&rs);
	}
	free(copy);
	return 0;
}
