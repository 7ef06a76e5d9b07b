/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ASCII measurement list (ascii_runtime_measurements[_ALG]) read back
 * into the binary records it renders, so that one parser, one set of checks
 * and one set of verdicts serve both forms.
 *
 * The kernel writes each record as one line (ima_ascii_measurements_show):
 *
 *	"%2d " PCR, the template digest in hex, ' ' template name, then for
 *	every field of the template ' ' and the field shown as ASCII
 *	(nothing for an empty field), then '\n'.
 *
 * Fields are shown (ima_template_lib.c) as hex (d, sig, buf, modsig,
 * evmsig, xattrlengths, xattrvalues), as "prefix:" + hex of the digest
 * (d-ng, d-ngv2, d-modsig: the field holds "prefix:\0" + digest), as a
 * string (n, n-ng: held with a trailing NUL, spaces already replaced by
 * '_' when the field was made; xattrnames: held without one), or as a
 * decimal number (iuid, igid: 4 bytes; imode: 2 bytes). The line gives
 * neither the byte order of the lengths the kernel hashed (the caller's
 * ima_byte_order: little unless told) nor a way to carry a '\n' in a
 * file name (such a line fails to parse or to hash: never a pass).
 */
#ifndef IMA_ASCII_H
#define IMA_ASCII_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ima_log.h"

struct ima_ascii;

/*
 * A converter reading fd (or mem, mem_len when fd < 0), starting with the
 * pre_len bytes at pre already read from it (eof: the source has nothing
 * more). digest_len: the template digest's bytes, 0 to take it from the
 * first line (40, 64, 96 or 128 hex digits). NULL when out of memory.
 */
struct ima_ascii *ima_ascii_new(int fd, const uint8_t *mem, size_t mem_len,
				const uint8_t *pre, size_t pre_len, bool eof,
				enum ima_byte_order order,
				unsigned int digest_len, uint32_t max_entry);
void ima_ascii_free(struct ima_ascii *a);

/*
 * Up to len bytes of the binary list; 0 at the end of the input, -1 for
 * a line that cannot be read back (malformed), -2 for a read error or
 * out of memory. On error ima_ascii_error() tells what, and where.
 */
ssize_t ima_ascii_read(struct ima_ascii *a, uint8_t *buf, size_t len);
/* Converts the first line: its digest length is then known. 0 or -1/-2. */
int ima_ascii_prime(struct ima_ascii *a);
unsigned int ima_ascii_digest_len(const struct ima_ascii *a);
const char *ima_ascii_error(const struct ima_ascii *a, uint64_t *offset);
uint64_t ima_ascii_bytes(const struct ima_ascii *a);
uint64_t ima_ascii_lines(const struct ima_ascii *a);

/*
 * One line (without its '\n') into the binary record it renders, in out
 * (outmax bytes). *digest_len: 0 to take it from this line (then set).
 * Returns the record's length, or -1 with err set (no line number).
 */
long ima_ascii_line(const char *line, size_t len, enum ima_byte_order order,
		    unsigned int *digest_len, uint32_t max_entry,
		    uint8_t *out, size_t outmax, char *err, size_t errlen);
/* The binary record of a line of len bytes fits in this many bytes. */
size_t ima_ascii_record_max(size_t len);

#endif
