// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer: the firmware event log parser, replay and comparison. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ima_attest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct att_evlog ev;
	static struct ima_pcr_values q;
	struct att_reasons rs = { 0 };
	char err[200];
	uint8_t *copy = malloc(size ? size : 1);	/* exact size: ASan sees overreads */

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!att_evlog_replay(&ev, copy, size, err, sizeof(err))) {
		att_evlog_values(&ev, &q);
		att_evlog_compare(&ev, &q, 0x3ff, &rs);
	}
	att_reasons_free(&rs);
	free(copy);
	return 0;
}
