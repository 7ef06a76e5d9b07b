// SPDX-License-Identifier: GPL-2.0-only
/*
 * Files the verifier writes and later trusts: the poll state, the
 * enrollment record and the enrolled AK. Whoever can plant a file or a
 * link where one of them goes can make it say what they like, so:
 *
 *  - the directory must be one only its owner (this user, or root) can
 *    write, opened without following a link, and every file is reached
 *    through that open directory (openat, renameat), never by its path
 *    again;
 *  - a file is written whole to a new name beside it (O_CREAT | O_EXCL |
 *    O_NOFOLLOW: never through a planted link or into a planted file),
 *    fsync()ed, renamed over the old one (which replaces a link, never
 *    follows it) and the directory fsync()ed;
 *  - a file is read only if it is a regular file (not a link), owned by
 *    this user or root and writable by no one else.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "ima_attest.h"

/* st is owned by this user or root and writable by them only */
static const char *not_private(const struct stat *st)
{
	if (st->st_uid != geteuid() && st->st_uid != 0)
		return "owned by another user";
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return "writable by others";
	return NULL;
}

int att_dir_open(const char *dir, bool create, char *err, size_t errlen)
{
	struct stat st;
	const char *why;
	int fd;

	if (create && mkdir(dir, 0700) && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int saved = errno;

		snprintf(err, errlen, "%s: %s", dir,
			 saved == ELOOP || saved == ENOTDIR ?
			 "not a directory (a symbolic link is refused)" :
			 strerror(saved));
		errno = saved == ELOOP || saved == ENOTDIR ? EPERM : saved;
		return -1;
	}
	if (fstat(fd, &st)) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		close(fd);
		return -1;
	}
	why = not_private(&st);
	if (why) {
		snprintf(err, errlen,
			 "%s is %s (mode %04o): a file planted there could become the record; make it the verifier's own (chmod go-w)",
			 dir, why, (unsigned int)(st.st_mode & 07777));
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

int att_file_write(int dirfd, const char *dir, const char *name,
		   const void *data, size_t len, char *err, size_t errlen)
{
	char tmp[300];
	uint8_t rnd[6];
	const uint8_t *p = data;
	int fd = -1, i, saved;
	size_t off = 0;

	if (strlen(name) > 200 || strchr(name, '/')) {
		snprintf(err, errlen, "%s: not a file name", name);
		return -1;
	}
	for (i = 0; i < 100 && fd < 0; i++) {
		if (RAND_bytes(rnd, sizeof(rnd)) != 1) {
			snprintf(err, errlen, "no random bytes for a file name");
			return -1;
		}
		snprintf(tmp, sizeof(tmp), ".%s.%02x%02x%02x%02x%02x%02x", name,
			 rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5]);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		snprintf(err, errlen, "%s/%s: %s", dir, tmp, strerror(errno));
		return -1;
	}
	while (off < len) {
		ssize_t w = write(fd, p + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto fail;
		off += (size_t)w;
	}
	if (fsync(fd))
		goto fail;
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (renameat(dirfd, tmp, dirfd, name) || fsync(dirfd))
		goto fail;
	return 0;
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	unlinkat(dirfd, tmp, 0);
	snprintf(err, errlen, "cannot write %s/%s: %s", dir, name,
		 strerror(saved));
	errno = saved;
	return -1;
}

uint8_t *att_file_read(int dirfd, const char *dir, const char *name,
		       size_t max, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	const char *why;
	uint8_t *buf = NULL;
	size_t n = 0;
	int fd, saved;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		saved = errno;
		snprintf(err, errlen, "%s/%s: %s", dir, name,
			 saved == ELOOP ? "a symbolic link (refused)" :
			 strerror(saved));
		errno = saved == ELOOP ? EPERM : saved;	/* not one to trust */
		return NULL;
	}
	if (fstat(fd, &st))
		goto io;
	why = !S_ISREG(st.st_mode) ? "not a regular file" : not_private(&st);
	if (why) {
		snprintf(err, errlen, "%s/%s is %s: not read", dir, name, why);
		close(fd);
		errno = EPERM;
		return NULL;
	}
	if ((uintmax_t)st.st_size > max) {
		snprintf(err, errlen, "%s/%s: larger than %zu bytes", dir, name,
			 max);
		close(fd);
		errno = EFBIG;
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		goto io;
	while (n <= (size_t)st.st_size) {
		ssize_t r = read(fd, buf + n, (size_t)st.st_size + 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto io;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n != (size_t)st.st_size) {
		errno = EIO;	/* changed while read: not this file */
		goto io;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
io:
	saved = errno;
	snprintf(err, errlen, "%s/%s: %s", dir, name, strerror(saved));
	free(buf);
	close(fd);
	errno = saved;
	return NULL;
}

int att_file_remove(int dirfd, const char *dir, const char *name, char *err,
		    size_t errlen)
{
	if (unlinkat(dirfd, name, 0) && errno != ENOENT) {
		snprintf(err, errlen, "%s/%s: %s", dir, name, strerror(errno));
		return -1;
	}
	return 0;
}

int att_path_split(const char *path, char *dir, size_t dirlen,
		   const char **name)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		snprintf(dir, dirlen, ".");
		*name = path;
	} else if ((size_t)(slash - path) >= dirlen) {
		return -1;
	} else {
		if (slash == path)
			snprintf(dir, dirlen, "/");
		else
			snprintf(dir, dirlen, "%.*s", (int)(slash - path), path);
		*name = slash + 1;
	}
	return **name ? 0 : -1;
}

int att_file_append(const char *path, const void *data, size_t len,
		    size_t max, char *err, size_t errlen)
{
	char dir[4096], rerr[ATT_REASON_LEN];
	const char *name;
	uint8_t *old, *all = NULL;
	size_t olen = 0;
	int fd, rc = -1;

	fd = att_path_open(path, dir, sizeof(dir), &name, err, errlen);
	if (fd < 0)
		return -1;
	old = att_file_read(fd, dir, name, max, &olen, rerr, sizeof(rerr));
	if (!old && errno != ENOENT) {
		snprintf(err, errlen, "%s", rerr);
		goto out;
	}
	if (!data) {
		rc = 0;		/* it can be appended to */
		goto out;
	}
	if (len > max - olen) {
		snprintf(err, errlen, "%s/%s: full (%zu bytes at most): start another",
			 dir, name, max);
		goto out;
	}
	all = malloc(olen + len + 1);
	if (!all) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (olen)
		memcpy(all, old, olen);
	memcpy(all + olen, data, len);
	rc = att_file_write(fd, dir, name, all, olen + len, err, errlen);
out:
	free(all);
	free(old);
	close(fd);
	return rc;
}

int att_path_open(const char *path, char *dir, size_t dirlen,
		  const char **name, char *err, size_t errlen)
{
	if (att_path_split(path, dir, dirlen, name)) {
		snprintf(err, errlen, "%s: not a file name", path);
		return -1;
	}
	return att_dir_open(dir, false, err, errlen);
}
