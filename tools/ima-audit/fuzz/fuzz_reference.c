// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the reference-file readers -- the JSON reader, a
 * Keylime runtime policy through it, the exclude-pattern translation and
 * matching, and one sha256sum line.
 */
#include <stdio.h>
#include <string.h>

#include "ima_exclude.h"
#include "ima_json.h"
#include "ima_keylime.h"
#include "ima_sumline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct ima_keylime kl = { 0 };
	struct ima_manifest *m = ima_manifest_new();
	struct ima_excludes *x = ima_excludes_new();
	struct ima_json_doc doc;
	struct ima_sumline sl;
	char err[512], out[1 << 16], path[4096];
	size_t which;

	if (!ima_json_parse(&doc, text, size, "f", err, sizeof(err)))
		ima_json_free(&doc);
	if (m && x &&
	    !ima_keylime_parse(&kl, m, x, text, size, "f", err, sizeof(err)) &&
	    size > 4)
		ima_excludes_match(x, text, size - 4, &which);
	ima_keylime_free(&kl);
	ima_manifest_free(m);
	if (x && size <= 400 &&
	    !ima_exclude_translate(text, size, out, sizeof(out), err,
				   sizeof(err)) &&
	    !ima_excludes_add(x, text, size, "f", err, sizeof(err)))
		ima_excludes_match(x, "/usr/bin/a", 10, &which);
	ima_excludes_free(x);
	if (size < sizeof(path))
		ima_sumline_parse(text, size, IMA_SUM_CRLF, &sl, path, err,
				  sizeof(err));
	return 0;
}
