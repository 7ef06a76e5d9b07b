// SPDX-License-Identifier: GPL-2.0
/*
 * kexec-busy - execute the loaded kexec image while another process keeps
 * IMA measuring, as a busy system would.
 *
 *   kexec-busy DIR UID
 *
 * Forks a worker, pinned to CPU 1, that makes files DIR/b-NNNNNN (each its
 * own line of text, owned by UID) and opens each one for reading: one IMA
 * measurement per file under a policy rule for such files. After the
 * first file and every tenth it writes "ima-stack-busy: N opened" to
 * /dev/kmsg (N counts the files opened), so that the console shows how far
 * it got (a line a file would outrun the serial console, and the lines it
 * had not printed when the CPUs stopped, the kernel's last among them,
 * would be lost). The parent,
 * pinned to CPU 0, waits until the worker has opened its first file, then
 * calls reboot(2) with LINUX_REBOOT_CMD_KEXEC, what `kexec -e` does, while
 * the worker runs on: it keeps measuring through the reboot notifiers and
 * the device shutdown until the CPUs are stopped for the jump.
 *
 * Returns only when something fails: prints what and exits 1 (2: usage).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/reboot.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* the worker stops on its own after this many files (a bound, never reached
 * in a kexec that works: the jump stops it long before) */
#define MAX_FILES 200000

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void worker(const char *dir, uid_t uid, volatile int *opened)
{
	char path[4096], line[64], msg[64];
	int kmsg, fd, i, n;

	kmsg = open("/dev/kmsg", O_WRONLY);
	for (i = 1; i <= MAX_FILES; i++) {
		if (snprintf(path, sizeof(path), "%s/b-%06d", dir, i) >= (int)sizeof(path))
			_exit(1);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			_exit(1);
		n = snprintf(line, sizeof(line), "kexec-busy file %d\n", i);
		if (write(fd, line, n) != n || fchown(fd, uid, uid) || close(fd))
			_exit(1);
		/* the measurement: root opens the file for reading */
		fd = open(path, O_RDONLY);
		if (fd < 0)
			_exit(1);
		close(fd);
		*opened = i;
		if (kmsg >= 0 && (i == 1 || i % 10 == 0)) {
			n = snprintf(msg, sizeof(msg), "ima-stack-busy: %d opened\n", i);
			/* a failed write ends the progress lines, not the worker */
			if (write(kmsg, msg, n) != n) {
				close(kmsg);
				kmsg = -1;
			}
		}
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	volatile int *opened;
	pid_t pid;
	char *end;
	long uid;

	if (argc != 3) {
		fprintf(stderr, "usage: kexec-busy DIR UID\n");
		return 2;
	}
	uid = strtol(argv[2], &end, 10);
	if (*argv[2] == '\0' || *end != '\0' || uid < 0 || uid > 65535) {
		fprintf(stderr, "kexec-busy: UID must be a number 0-65535, not '%s'\n", argv[2]);
		return 2;
	}
	opened = mmap(NULL, sizeof(*opened), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (opened == MAP_FAILED) {
		perror("kexec-busy: mmap");
		return 1;
	}
	*opened = 0;
	pid = fork();
	if (pid < 0) {
		perror("kexec-busy: fork");
		return 1;
	}
	if (pid == 0) {
		if (pin(1))
			_exit(1);
		worker(argv[1], (uid_t)uid, opened);
	}
	if (pin(0)) {
		perror("kexec-busy: sched_setaffinity");
		kill(pid, SIGKILL);
		return 1;
	}
	/* the worker measures: the reboot starts while it does */
	while (*opened == 0) {
		if (waitpid(pid, NULL, WNOHANG) == pid) {
			fprintf(stderr, "kexec-busy: the worker stopped before its first file (see %s)\n", argv[1]);
			return 1;
		}
		usleep(1000);
	}
	sync();
	syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
		LINUX_REBOOT_CMD_KEXEC, NULL);
	fprintf(stderr, "kexec-busy: reboot(LINUX_REBOOT_CMD_KEXEC): %s\n", strerror(errno));
	kill(pid, SIGKILL);
	return 1;
}
