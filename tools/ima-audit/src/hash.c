// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hash algorithm table in kernel enum hash_algo order
 * (include/uapi/linux/hash_info.h, crypto/hash_info.c).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>

#include "ima_hash.h"

static const struct ima_hash_algo algos[] = {
	{ "md4", 0, 16, NULL },
	{ "md5", 1, 16, "MD5" },
	{ "sha1", 2, 20, "SHA1" },
	{ "rmd160", 3, 20, NULL },
	{ "sha256", 4, 32, "SHA256" },
	{ "sha384", 5, 48, "SHA384" },
	{ "sha512", 6, 64, "SHA512" },
	{ "sha224", 7, 28, "SHA224" },
	{ "rmd128", 8, 16, NULL },
	{ "rmd256", 9, 32, NULL },
	{ "rmd320", 10, 40, NULL },
	{ "wp256", 11, 32, NULL },
	{ "wp384", 12, 48, NULL },
	{ "wp512", 13, 64, NULL },
	{ "tgr128", 14, 16, NULL },
	{ "tgr160", 15, 20, NULL },
	{ "tgr192", 16, 24, NULL },
	{ "sm3", 17, 32, "SM3" },
	{ "streebog256", 18, 32, NULL },
	{ "streebog512", 19, 64, NULL },
};

#define NALGOS (sizeof(algos) / sizeof(algos[0]))

static EVP_MD *mds[NALGOS];
static pthread_once_t mds_once = PTHREAD_ONCE_INIT;
static pthread_key_t ctx_key;	/* one EVP_MD_CTX per thread, reused */

static void free_ctx(void *ctx)
{
	EVP_MD_CTX_free(ctx);
}

static void fetch_mds(void)
{
	size_t i;

	for (i = 0; i < NALGOS; i++)
		if (algos[i].evp)
			mds[i] = EVP_MD_fetch(NULL, algos[i].evp, NULL);
	pthread_key_create(&ctx_key, free_ctx);
}

const struct ima_hash_algo *ima_hash_by_id(int id)
{
	if (id < 0 || (size_t)id >= NALGOS)
		return NULL;
	return &algos[id];
}

const struct ima_hash_algo *ima_hash_by_name(const char *name, size_t len)
{
	size_t i;

	if (len == (size_t)-1)
		len = strlen(name);
	if (!len)
		return NULL;
	for (i = 0; i < NALGOS; i++)
		if ((name[0] | 0x20) == algos[i].name[0] &&
		    strlen(algos[i].name) == len &&
		    !strncasecmp(algos[i].name, name, len))
			return &algos[i];
	return NULL;
}

bool ima_hash_collision_prone(const struct ima_hash_algo *alg)
{
	return alg->id == 0 || alg->id == 1;	/* md4, md5 */
}

const struct ima_hash_algo *ima_hash_by_size(unsigned int size)
{
	switch (size) {
	case 20:
		return &algos[2];
	case 28:
		return &algos[7];
	case 32:
		return &algos[4];
	case 48:
		return &algos[5];
	case 64:
		return &algos[6];
	}
	return NULL;
}

int ima_digest(const struct ima_hash_algo *alg, const void *data, size_t len,
	       uint8_t *out)
{
	EVP_MD_CTX *ctx;
	EVP_MD *md;

	pthread_once(&mds_once, fetch_mds);
	md = mds[alg->id];
	if (!md)
		return -1;
	ctx = pthread_getspecific(ctx_key);
	if (!ctx) {
		ctx = EVP_MD_CTX_new();
		if (!ctx || pthread_setspecific(ctx_key, ctx)) {
			EVP_MD_CTX_free(ctx);
			return -1;
		}
	}
	if (!EVP_DigestInit_ex2(ctx, md, NULL) ||
	    !EVP_DigestUpdate(ctx, data, len) ||
	    !EVP_DigestFinal_ex(ctx, out, NULL))
		return -1;
	return 0;
}

/* Hex digit value + 1; 0 for anything else. */
static const uint8_t hexv[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15,
	['F'] = 16,
};

int ima_hex2bin(const char *hex, size_t hexlen, uint8_t *out, size_t outmax)
{
	unsigned int bad = 0;
	size_t i;

	if (hexlen % 2 || hexlen / 2 > outmax)
		return -1;
	for (i = 0; i < hexlen / 2; i++) {
		unsigned int hi = hexv[(unsigned char)hex[2 * i]];
		unsigned int lo = hexv[(unsigned char)hex[2 * i + 1]];

		bad |= (hi - 1) | (lo - 1);	/* wraps to > 15 for 0 */
		out[i] = (uint8_t)((hi - 1) << 4 | ((lo - 1) & 15));
	}
	return bad > 15 ? -1 : (int)(hexlen / 2);
}

void ima_bin2hex(const uint8_t *bin, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[bin[i] >> 4];
		out[2 * i + 1] = digits[bin[i] & 15];
	}
	out[2 * len] = '\0';
}

void *ima_reserve(void *arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *na;

	if (n < *cap)
		return arr;
	ncap = *cap ? 2 * *cap : 16;
	if (ncap > SIZE_MAX / size)
		return NULL;
	na = realloc(arr, ncap * size);
	if (na)
		*cap = ncap;
	return na;
}
