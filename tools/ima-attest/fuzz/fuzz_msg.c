// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer: the channel's message lines. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ima_attest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct att_msg m;
	char err[160];
	size_t n;
	char *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!att_msg_parse(&m, copy, size, err, sizeof(err))) {
		att_msg_get(&m, "ekcert", &n);
		att_msg_free(&m);
	}
	free(copy);
	return 0;
}
