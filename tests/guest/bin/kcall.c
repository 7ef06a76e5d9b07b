// SPDX-License-Identifier: GPL-2.0
/*
 * kcall - issue one system call for a guest test and report its errno.
 *
 * Shell redirections hide which call failed and why; this helper makes the
 * exact errno of a loader path assertable. It prints "OK" or the errno name
 * (EACCES, EBUSY, ...) on stdout and exits 0 on success, 1 on a failed call,
 * 2 on a usage error.
 *
 *   kcall write PATH STRING        open(O_WRONLY) + one write() + close()
 *   kcall write_new PATH STRING    the same with O_CREAT|O_EXCL (mode 0644)
 *   kcall hold PATH SECONDS        open(O_WRONLY), sleep, close (EBUSY tests)
 *   kcall write_repeat PATH STRING N  N times open(O_WRONLY) + write() +
 *                                  close(); prints "NAME COUNT" per outcome
 *                                  (OK: the whole string written), sorted
 *   kcall swap_loop NAME A B SECONDS  for SECONDS, make NAME a hard link to
 *                                  A, then to B, and so on (link(2) to
 *                                  NAME.swap, rename(2) over NAME, so NAME
 *                                  always exists); prints the swap count,
 *                                  or the errno name of a failed call
 *   kcall write_stdin PATH         open(O_WRONLY) + one write() of standard
 *                                  input (at most 64 KiB): prints the count
 *                                  write() returned, or the errno name
 *   kcall watch PATH CMD...        inotify on PATH: prints WATCHING, runs
 *                                  CMD, then one line per open or close of
 *                                  PATH (by anyone) while it ran, then
 *                                  "END <CMD's exit status>"
 *   kcall finit_module PATH [ARGS] finit_module(2)
 *   kcall init_module PATH [ARGS]  init_module(2) from a buffer
 *   kcall delete_module NAME       delete_module(2), O_NONBLOCK
 *   kcall kexec_file_load KERNEL INITRD|- CMDLINE
 *   kcall kexec_file_unload
 *   kcall kexec_load               kexec_load(2) with no segments
 *   kcall add_key TYPE DESC FILE KEYRING  add_key(2): payload from FILE,
 *                                  KEYRING a serial number
 *   kcall read PATH                open(O_RDONLY) + read() of one byte
 *   kcall open_direct PATH         open(O_RDONLY|O_DIRECT) + close(): the
 *                                  open is where IMA's FILE_CHECK decides
 *   kcall exec PATH [ARG...]       execve(2) in a child; OK when execve
 *                                  succeeded (whatever the program's exit)
 *   kcall mmap_exec PATH           open(O_RDONLY) + mmap(PROT_READ|PROT_EXEC)
 *   kcall canary MIB [FILL SCAN]   a canary over memory the kernel may free
 *                                  and hand out again: MIB pipes of 1 MiB
 *                                  (unmovable pages) and MIB MiB of
 *                                  anonymous memory, every page tagged,
 *                                  filled on CPU FILL (the pages a CPU
 *                                  freed last are the first it hands out);
 *                                  prints "armed ADDR PAGES pipes N" once
 *                                  filled, moves to CPU SCAN, then checks
 *                                  the head of every page over and over,
 *                                  forever, and reports each page found
 *                                  changed (its first 32 bytes) on stdout
 *                                  and /dev/kmsg; page 3 of pipe 0 is
 *                                  written wrong, the pipe scan's own test;
 *                                  "pass N done" on /dev/kmsg at most once
 *                                  a second
 *   kcall errname N                the name of errno N (or -N): no call made
 *   kcall poweroff                 reboot(2) with POWER_OFF, after sync
 *   kcall restart                  reboot(2) with RESTART, after sync
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kexec.h>
#include <linux/reboot.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_MODULE_SIZE (64L << 20)
#define MAX_STDIN_WRITE (64L << 10)

static int report(long rc)
{
	if (rc < 0) {
		const char *name = strerrorname_np(errno);

		printf("%s\n", name ? name : "EUNKNOWN");
		return 1;
	}
	printf("OK\n");
	return 0;
}

static int do_write(const char *path, const char *data, int flags)
{
	size_t len = strlen(data);
	ssize_t n;
	int fd, rc = 0;

	fd = open(path, O_WRONLY | flags, 0644);
	if (fd < 0)
		return report(-1);
	n = write(fd, data, len);
	if (n < 0)
		rc = -1;
	else if ((size_t)n != len) {
		errno = EIO;
		rc = -1;
	}
	if (close(fd) < 0 && rc == 0)
		rc = -1;
	return report(rc);
}

/* the outcomes of do_write_repeat(): 0 (OK) or an errno, and how often */
#define MAX_OUTCOMES 16

static int do_write_repeat(const char *path, const char *data, const char *num)
{
	int err[MAX_OUTCOMES], count[MAX_OUTCOMES], n = 0, i, j;
	size_t len = strlen(data);
	char *end;
	long times = strtol(num, &end, 10), k;

	if (*end || times <= 0)
		return 2;
	for (k = 0; k < times; k++) {
		int e = 0, fd = open(path, O_WRONLY);

		if (fd < 0) {
			e = errno;
		} else {
			ssize_t w = write(fd, data, len);

			if (w < 0)
				e = errno;
			else if ((size_t)w != len)
				e = EIO;
			close(fd);
		}
		for (i = 0; i < n && err[i] != e; i++)
			;
		if (i == n) {
			if (n == MAX_OUTCOMES)
				return 2;
			err[n] = e;
			count[n++] = 0;
		}
		count[i]++;
	}
	/* sorted by outcome, so that the output is one string to compare */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && err[j - 1] > err[j]; j--) {
			int te = err[j], tc = count[j];

			err[j] = err[j - 1];
			count[j] = count[j - 1];
			err[j - 1] = te;
			count[j - 1] = tc;
		}
	for (i = 0; i < n; i++) {
		const char *name = err[i] ? strerrorname_np(err[i]) : "OK";

		printf("%s %d\n", name ? name : "EUNKNOWN", count[i]);
	}
	return 0;
}

static int do_swap_loop(const char *name, const char *a, const char *b,
			const char *secs)
{
	char tmp[PATH_MAX];
	unsigned long n = 0;
	time_t end;
	char *e;
	long s = strtol(secs, &e, 10);

	if (*e || s <= 0)
		return 2;
	if (snprintf(tmp, sizeof(tmp), "%s.swap", name) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return report(-1);
	}
	end = time(NULL) + s;
	while (time(NULL) < end) {
		/* a rename onto a link of the same file leaves tmp behind */
		if ((unlink(tmp) < 0 && errno != ENOENT) ||
		    link(n & 1 ? b : a, tmp) < 0 || rename(tmp, name) < 0)
			return report(-1);
		n++;
	}
	printf("%lu\n", n);
	return 0;
}

static int do_write_stdin(const char *path)
{
	static char buf[MAX_STDIN_WRITE];
	size_t len = 0;
	ssize_t n;
	int fd;

	while (len < sizeof(buf)) {
		n = read(0, buf + len, sizeof(buf) - len);
		if (n < 0)
			return report(-1);
		if (n == 0)
			break;
		len += n;
	}
	if (len == sizeof(buf) && read(0, buf, 1) > 0) {
		errno = EFBIG;
		return report(-1);
	}
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return report(-1);
	n = write(fd, buf, len);
	if (n < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return report(-1);
	}
	close(fd);
	printf("%zd\n", n);
	return 0;
}

/*
 * Print one line per open or close of the watched inode that the queue
 * holds, waiting at most @ms for the first batch.
 */
static void watch_drain(int fd, int ms)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	while (poll(&pfd, 1, ms) > 0) {
		ssize_t n = read(fd, buf, sizeof(buf)), off;

		for (off = 0; n > 0 && off < n;) {
			const struct inotify_event *ev = (void *)(buf + off);

			if (ev->mask & IN_OPEN)
				printf("OPEN\n");
			if (ev->mask & (IN_CLOSE_WRITE | IN_CLOSE_NOWRITE))
				printf("CLOSE\n");
			off += sizeof(*ev) + ev->len;
		}
		if (n <= 0)
			break;
		ms = 0;
	}
}

/*
 * watch PATH CMD...: run CMD (its output to /dev/null) under an inotify
 * watch on PATH and print every open and close of PATH while it ran.
 * fsnotify queues an event before the open or close returns, and a close
 * the kernel defers (the last fput of a file it opened for the caller)
 * runs before the caller returns to user space, so the queue is complete
 * once CMD has exited; the 300 ms grace only covers a close left to a
 * kernel worker.
 */
static int do_watch(const char *path, char **cmd)
{
	int fd, status;
	pid_t pid;

	fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (fd < 0)
		return report(-1);
	if (inotify_add_watch(fd, path, IN_OPEN | IN_CLOSE_WRITE |
			      IN_CLOSE_NOWRITE) < 0)
		return report(-1);
	printf("WATCHING\n");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return report(-1);
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(126);
		execvp(cmd[0], cmd);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return report(-1);
	watch_drain(fd, 300);
	printf("END %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128);
	close(fd);
	return 0;
}

static int do_read(const char *path)
{
	char c;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return report(-1);
	if (read(fd, &c, 1) < 0) {
		close(fd);
		return report(-1);
	}
	close(fd);
	return report(0);
}

/*
 * The child reports execve()'s errno through a close-on-exec pipe: nothing
 * arrives when execve() succeeded.
 */
static int do_exec(char **argv)
{
	int p[2], err = 0, status;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return report(-1);
	pid = fork();
	if (pid < 0)
		return report(-1);
	if (pid == 0) {
		close(p[0]);
		execv(argv[0], argv);
		err = errno;
		if (write(p[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(p[1]);
	if (read(p[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	close(p[0]);
	waitpid(pid, &status, 0);
	errno = err;
	return report(err ? -1 : 0);
}

static int do_mmap_exec(const char *path)
{
	void *m;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return report(-1);
	m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return report(-1);
	munmap(m, 4096);
	return report(0);
}

static int do_hold(const char *path, const char *secs)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return report(-1);
	printf("HOLDING\n");
	fflush(stdout);
	sleep(atoi(secs));
	close(fd);
	return 0;
}

static int do_init_module(const char *path, const char *args)
{
	struct stat st;
	char *buf = NULL;
	ssize_t got = 0;
	long rc = -1;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return report(-1);
	if (fstat(fd, &st) < 0)
		goto out;
	if (st.st_size <= 0 || st.st_size > MAX_MODULE_SIZE) {
		errno = EFBIG;
		goto out;
	}
	buf = malloc(st.st_size);
	if (!buf)
		goto out;
	while (got < st.st_size) {
		ssize_t n = read(fd, buf + got, st.st_size - got);

		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			goto out;
		}
		got += n;
	}
	rc = syscall(SYS_init_module, buf, (unsigned long)st.st_size, args);
out:
	free(buf);
	close(fd);
	return report(rc);
}

static int do_finit_module(const char *path, const char *args)
{
	int fd = open(path, O_RDONLY);
	long rc;

	if (fd < 0)
		return report(-1);
	rc = syscall(SYS_finit_module, fd, args, 0);
	close(fd);
	return report(rc);
}

static int do_kexec_file_load(const char *kernel, const char *initrd,
			      const char *cmdline)
{
	unsigned long flags = 0;
	int kfd, ifd = -1;
	long rc;

	kfd = open(kernel, O_RDONLY);
	if (kfd < 0)
		return report(-1);
	if (strcmp(initrd, "-") == 0) {
		flags |= KEXEC_FILE_NO_INITRAMFS;
	} else {
		ifd = open(initrd, O_RDONLY);
		if (ifd < 0) {
			close(kfd);
			return report(-1);
		}
	}
	/* the command line length includes its NUL */
	rc = syscall(SYS_kexec_file_load, kfd, ifd, strlen(cmdline) + 1,
		     cmdline, flags);
	close(kfd);
	if (ifd >= 0)
		close(ifd);
	return report(rc);
}

static int do_add_key(const char *type, const char *desc, const char *path,
		      const char *ring)
{
	char buf[16384];
	ssize_t len;
	long rc;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return report(-1);
	len = read(fd, buf, sizeof(buf));
	close(fd);
	if (len < 0)
		return report(-1);
	rc = syscall(SYS_add_key, type, *desc ? desc : NULL, buf, (size_t)len,
		     (int)strtol(ring, NULL, 0));
	return report(rc);
}

static int do_open_direct(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECT);

	if (fd < 0)
		return report(-1);
	return report(close(fd));
}

/*
 * One line to /dev/kmsg, in one write(2). Not dprintf(): glibc's attaches
 * a stream to the descriptor with lseek(SEEK_CUR), which /dev/kmsg refuses
 * (EINVAL), and then writes nothing.
 */
static void kmsg_line(int fd, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	if (fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		(void)!write(fd, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

/* the head of every canary page: what do_canary() checks */
#define CANARY_HEAD 64

static void canary_tag(unsigned char *page, unsigned long n)
{
	memset(page, 0xa5, CANARY_HEAD);
	snprintf((char *)page, CANARY_HEAD, "ima-stack canary page %08lx", n);
}

/* pin the calling thread to CPU @cpu (a decimal string) */
static int pin_to(const char *cpu)
{
	cpu_set_t set;
	char *end;
	long n = strtol(cpu, &end, 10);

	if (*end || n < 0 || n >= CPU_SETSIZE) {
		errno = EINVAL;
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(n, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* the canary's pipes: one MiB each, 4 KiB writes, one page per buffer */
#define CANARY_PIPE_SIZE (1 << 20)
#define CANARY_PIPE_PAGES (CANARY_PIPE_SIZE / 4096)

static void canary_pipe_head(unsigned char *head, int pipe, int n)
{
	memset(head, 0xa5, CANARY_HEAD);
	snprintf((char *)head, CANARY_HEAD, "ima-stack canary pipe %03d page %03d",
		 pipe, n);
}

static void canary_report(int kmsg, const char *what, unsigned long pass,
			  const unsigned char *p)
{
	char hex[2 * 32 + 1];
	int i;

	for (i = 0; i < 32; i++)
		sprintf(hex + 2 * i, "%02x", p[i]);
	printf("changed %s pass %lu: %s\n", what, pass, hex);
	fflush(stdout);
	kmsg_line(kmsg, "ima-stack-canary: CHANGED %s pass %lu: %s\n", what,
		  pass, hex);
}

/*
 * Pipe buffers are pages the kernel allocates as unmovable, from the same
 * free lists as most kernel allocations (a kexec image's pages among them);
 * anonymous memory comes from the movable ones. Both are watched, pipes
 * first: through tee(2) into a scratch pipe, which reads their pages
 * without consuming them.
 */
static int do_canary(const char *mib, const char *fill, const char *scan)
{
	static unsigned char page[4096], pbuf[CANARY_PIPE_SIZE];
	unsigned long pages, n, pass;
	long psz = sysconf(_SC_PAGESIZE);
	int (*pipes)[2], tmp[2], kmsg, i, k;
	unsigned char *seen, *heads, *mheads;
	unsigned char *mem;
	struct timespec now, last = { 0 };
	char *end;
	long m = strtol(mib, &end, 10);

	if (*end || m <= 0 || m > 512 || psz != 4096)
		return 2;
	pages = ((unsigned long)m << 20) / psz;
	pipes = calloc(m, sizeof(*pipes));
	seen = calloc(m, CANARY_PIPE_PAGES);
	/* every page's expected head, made once: a pass only compares */
	heads = calloc(m * CANARY_PIPE_PAGES, CANARY_HEAD);
	mheads = calloc(pages, CANARY_HEAD);
	if (!pipes || !seen || !heads || !mheads)
		return report(-1);
	for (i = 0; i < m; i++)
		for (k = 0; k < CANARY_PIPE_PAGES; k++)
			canary_pipe_head(heads + (i * CANARY_PIPE_PAGES + k) * CANARY_HEAD,
					 i, k);
	for (n = 0; n < pages; n++)
		canary_tag(mheads + n * CANARY_HEAD, n);
	if (fill && pin_to(fill) < 0)
		return report(-1);
	/* the pipes first: they take the pages this CPU freed last */
	for (i = 0; i < m; i++) {
		if (pipe(pipes[i]) < 0 ||
		    fcntl(pipes[i][1], F_SETPIPE_SZ, CANARY_PIPE_SIZE) < CANARY_PIPE_SIZE)
			return report(-1);
		for (k = 0; k < CANARY_PIPE_PAGES; k++) {
			/* the pipe scan's own test: page 3 of pipe 0 is wrong */
			memset(page, 0xa5, sizeof(page));
			canary_pipe_head(page, i, i == 0 && k == 3 ? 999 : k);
			if (write(pipes[i][1], page, sizeof(page)) != sizeof(page))
				return report(-1);
		}
	}
	if (pipe(tmp) < 0 ||
	    fcntl(tmp[1], F_SETPIPE_SZ, CANARY_PIPE_SIZE) < CANARY_PIPE_SIZE)
		return report(-1);
	mem = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (mem == MAP_FAILED)
		return report(-1);
	memset(mem, 0x5a, pages * psz);
	for (n = 0; n < pages; n++)
		canary_tag(mem + n * psz, n);
	if (scan && pin_to(scan) < 0)
		return report(-1);
	kmsg = open("/dev/kmsg", O_WRONLY);
	printf("armed %p %lu pipes %ld\n", (void *)mem, pages, m);
	fflush(stdout);
	kmsg_line(kmsg, "ima-stack-canary: armed, %lu pages at %p, %ld pipes of %d pages\n",
		  pages, (void *)mem, m, CANARY_PIPE_PAGES);
	for (pass = 0;; pass++) {
		for (i = 0; i < m; i++) {
			ssize_t got = 0, r;

			if (tee(pipes[i][0], tmp[1], CANARY_PIPE_SIZE, 0) != CANARY_PIPE_SIZE)
				return report(-1);
			/* one copy of the whole pipe: faster than a call a page */
			while (got < CANARY_PIPE_SIZE) {
				r = read(tmp[0], pbuf + got, CANARY_PIPE_SIZE - got);
				if (r <= 0)
					return report(-1);
				got += r;
			}
			for (k = 0; k < CANARY_PIPE_PAGES; k++) {
				unsigned char *h = pbuf + k * 4096;
				char what[32];

				if (!memcmp(h, heads + (i * CANARY_PIPE_PAGES + k) *
					    CANARY_HEAD, CANARY_HEAD) ||
				    seen[i * CANARY_PIPE_PAGES + k])
					continue;
				seen[i * CANARY_PIPE_PAGES + k] = 1;
				snprintf(what, sizeof(what), "pipe %d page %d", i, k);
				canary_report(kmsg, what, pass, h);
			}
		}
		for (n = 0; n < pages; n++) {
			unsigned char *p = mem + n * psz;
			char what[32];

			if (!memcmp(p, mheads + n * CANARY_HEAD, CANARY_HEAD))
				continue;
			snprintf(what, sizeof(what), "page %lu", n);
			canary_report(kmsg, what, pass, p);
			canary_tag(p, n);
		}
		/* how far it got, at most once a second: the console then
		 * shows which passes ended in a window of interest */
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec != last.tv_sec) {
			last = now;
			kmsg_line(kmsg, "ima-stack-canary: pass %lu done\n", pass);
		}
	}
	return 0;
}

static int do_errname(const char *num)
{
	char *end;
	long n = strtol(num, &end, 10);
	const char *name;

	if (*end || n == 0) {
		printf("%s\n", n == 0 && !*end ? "OK" : "EUNKNOWN");
		return *end ? 2 : 0;
	}
	name = strerrorname_np(n < 0 ? -n : n);
	printf("%s\n", name ? name : "EUNKNOWN");
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: kcall write PATH STRING | write_new PATH STRING |\n"
		"       write_repeat PATH STRING N | swap_loop NAME A B SECONDS |\n"
		"       hold PATH SECONDS | write_stdin PATH | watch PATH CMD... |\n"
		"       finit_module PATH [ARGS] | init_module PATH [ARGS] |\n"
		"       delete_module NAME | kexec_file_load KERNEL INITRD|- CMDLINE |\n"
		"       kexec_file_unload | kexec_load |\n"
		"       add_key TYPE DESC FILE KEYRING | read PATH | open_direct PATH |\n"
		"       exec PATH [ARG...] | mmap_exec PATH | canary MIB [FILL SCAN] |\n"
		"       errname N |\n"
		"       poweroff | restart\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "write") && argc == 4)
		return do_write(argv[2], argv[3], 0);
	if (!strcmp(cmd, "write_new") && argc == 4)
		return do_write(argv[2], argv[3], O_CREAT | O_EXCL);
	if (!strcmp(cmd, "write_repeat") && argc == 5)
		return do_write_repeat(argv[2], argv[3], argv[4]);
	if (!strcmp(cmd, "swap_loop") && argc == 6)
		return do_swap_loop(argv[2], argv[3], argv[4], argv[5]);
	if (!strcmp(cmd, "write_stdin") && argc == 3)
		return do_write_stdin(argv[2]);
	if (!strcmp(cmd, "watch") && argc >= 4)
		return do_watch(argv[2], argv + 3);
	if (!strcmp(cmd, "hold") && argc == 4)
		return do_hold(argv[2], argv[3]);
	if (!strcmp(cmd, "finit_module") && (argc == 3 || argc == 4))
		return do_finit_module(argv[2], argc == 4 ? argv[3] : "");
	if (!strcmp(cmd, "init_module") && (argc == 3 || argc == 4))
		return do_init_module(argv[2], argc == 4 ? argv[3] : "");
	if (!strcmp(cmd, "delete_module") && argc == 3)
		return report(syscall(SYS_delete_module, argv[2], O_NONBLOCK));
	if (!strcmp(cmd, "kexec_file_load") && argc == 5)
		return do_kexec_file_load(argv[2], argv[3], argv[4]);
	if (!strcmp(cmd, "kexec_file_unload") && argc == 2)
		return report(syscall(SYS_kexec_file_load, -1, -1, 0UL, NULL,
				      KEXEC_FILE_UNLOAD));
	if (!strcmp(cmd, "kexec_load") && argc == 2)
		return report(syscall(SYS_kexec_load, 0UL, 0UL, NULL,
				      KEXEC_ARCH_DEFAULT));
	if (!strcmp(cmd, "add_key") && argc == 6)
		return do_add_key(argv[2], argv[3], argv[4], argv[5]);
	if (!strcmp(cmd, "read") && argc == 3)
		return do_read(argv[2]);
	if (!strcmp(cmd, "open_direct") && argc == 3)
		return do_open_direct(argv[2]);
	if (!strcmp(cmd, "exec") && argc >= 3)
		return do_exec(argv + 2);
	if (!strcmp(cmd, "mmap_exec") && argc == 3)
		return do_mmap_exec(argv[2]);
	if (!strcmp(cmd, "canary") && (argc == 3 || argc == 5))
		return do_canary(argv[2], argc == 5 ? argv[3] : NULL,
				 argc == 5 ? argv[4] : NULL);
	if (!strcmp(cmd, "errname") && argc == 3)
		return do_errname(argv[2]);
	if (!strcmp(cmd, "poweroff") && argc == 2) {
		sync();
		return report(syscall(SYS_reboot, LINUX_REBOOT_MAGIC1,
				      LINUX_REBOOT_MAGIC2,
				      LINUX_REBOOT_CMD_POWER_OFF, NULL));
	}
	if (!strcmp(cmd, "restart") && argc == 2) {
		sync();
		return report(syscall(SYS_reboot, LINUX_REBOOT_MAGIC1,
				      LINUX_REBOOT_MAGIC2,
				      LINUX_REBOOT_CMD_RESTART, NULL));
	}
	return usage();
}
