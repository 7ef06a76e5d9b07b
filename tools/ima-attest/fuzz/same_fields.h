/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the round-trip fuzz targets compare: the fields a pending
 * challenge (struct att_challenge) and an enrollment record (struct
 * att_enrollment) both hold, under the same names. a and b are two
 * structs of one type, parsed from the same text twice.
 */
#ifndef SAME_FIELDS_H
#define SAME_FIELDS_H

#include <string.h>

/* a TPM name (field, field_len), the same length and bytes */
#define SAME_NAME(a, b, field)						\
	((a).field##_len == (b).field##_len &&				\
	 !memcmp((a).field, (b).field, (a).field##_len))

/* the boot, the CA's and EK certificate's digests, the EK's and AK's names */
#define SAME_IDENTITY(a, b)						\
	(!strcmp((a).boot, (b).boot) &&					\
	 !memcmp((a).ca_sha256, (b).ca_sha256, 32) &&			\
	 !memcmp((a).ekcert_sha256, (b).ekcert_sha256, 32) &&		\
	 SAME_NAME(a, b, ek_name) && SAME_NAME(a, b, ak_name))

#endif
