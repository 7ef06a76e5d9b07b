// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the ASCII list reader (src/ascii.c) through the list
 * reader, over 64-byte buffers so that lines and records cross every
 * refill, with the digest length taken from the first line or given;
 * and one line converted alone with the input's first byte choosing the
 * byte order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ima_ascii.h"
#include "ima_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ima_reader_opts o = {
		.format = IMA_FMT_ASCII, .chunk = 64, .max_entry = 1 << 16,
	};
	static uint8_t out[1 << 18];
	struct ima_record rec;
	struct ima_reader r;
	unsigned int dlen = 0;
	char err[200];
	int i;

	for (i = 0; i < 2; i++) {
		o.digest_alg = i ? ima_hash_by_name("sha256", 6) : NULL;
		ima_reader_init_mem(&r, data, size, &o);
		while (ima_reader_next(&r, &rec) == IMA_READ_RECORD)
			;
		ima_reader_free(&r);
	}
	if (size < sizeof(out) / 2)
		ima_ascii_line((const char *)data, size,
			       size && data[0] & 1 ? IMA_BO_BIG : IMA_BO_LITTLE,
			       &dlen, 1 << 16, out, sizeof(out), err,
			       sizeof(err));
	return 0;
}
