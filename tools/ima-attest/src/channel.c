// SPDX-License-Identifier: GPL-2.0-only
/*
 * The channel to the guest's agent: a unix socket (QEMU's end of the
 * guest's virtio-serial port), one message a line (msg.c). The verifier
 * connects, waiting for the socket to appear until the deadline, and every
 * read waits at most until that same deadline.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ima_attest.h"

int att_chan_open(struct att_chan *c, const char *path, int timeout)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	c->fd = -1;
	c->deadline = time(NULL) + timeout;
	c->have = 0;
	c->buf = malloc(ATT_MSG_MAX + 2);
	if (!c->buf)
		return -1;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa.sun_path, path);
	for (;;) {
		c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (c->fd < 0)
			return -1;
		if (!connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)))
			return 0;
		close(c->fd);
		c->fd = -1;
		if ((errno != ENOENT && errno != ECONNREFUSED) ||
		    time(NULL) >= c->deadline)
			return -1;
		usleep(100 * 1000);
	}
}

int att_chan_send(struct att_chan *c, const char *verb, const char **keys,
		  const uint8_t **vals, const size_t *lens, int n)
{
	static const char hx[] = "0123456789abcdef";
	size_t cap = strlen(verb) + 2, off, i;
	char *line;
	int k, ret;

	for (k = 0; k < n; k++)
		cap += strlen(keys[k]) + 2 + 2 * lens[k];
	line = malloc(cap);
	if (!line)
		return -1;
	off = (size_t)sprintf(line, "%s", verb);
	for (k = 0; k < n; k++) {
		off += (size_t)sprintf(line + off, " %s=", keys[k]);
		for (i = 0; i < lens[k]; i++) {
			line[off++] = hx[vals[k][i] >> 4];
			line[off++] = hx[vals[k][i] & 15];
		}
	}
	line[off++] = '\n';
	ret = 0;
	for (i = 0; i < off;) {
		ssize_t w = write(c->fd, line + i, off - i);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = -1;
			break;
		}
		i += (size_t)w;
	}
	free(line);
	return ret;
}

int att_chan_recv(struct att_chan *c, struct att_msg *m, char *err,
		  size_t errlen)
{
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->have);
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		time_t left;
		ssize_t r;

		if (nl) {
			size_t len = (size_t)(nl - c->buf);
			int ret = att_msg_parse(m, c->buf, len, err, errlen);

			memmove(c->buf, nl + 1, c->have - len - 1);
			c->have -= len + 1;
			return ret;
		}
		if (c->have > ATT_MSG_MAX) {
			snprintf(err, errlen, "message longer than %u bytes", ATT_MSG_MAX);
			return -1;
		}
		left = c->deadline - time(NULL);
		if (left <= 0 || poll(&p, 1, (int)left * 1000) == 0) {
			snprintf(err, errlen, "timed out waiting for the guest");
			return -1;
		}
		r = read(c->fd, c->buf + c->have, ATT_MSG_MAX + 1 - c->have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(err, errlen, "the guest closed the channel");
			return -1;
		}
		c->have += (size_t)r;
	}
}

void att_chan_close(struct att_chan *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	free(c->buf);
	c->buf = NULL;
}
