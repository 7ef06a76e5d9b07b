/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ima-attest's commands, one file each (cmd/<command>.c), dispatched by
 * cmd/main.c. A command parses its options, calls the library (src/) for
 * the verdict and prints it; it decides nothing itself.
 */
#ifndef ATT_CMD_H
#define ATT_CMD_H

int cmd_enroll(int argc, char **argv);
int cmd_enrolled(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_poll(int argc, char **argv);
int cmd_request(int argc, char **argv);
int cmd_eventlog(int argc, char **argv);

/* the usage of every command on stderr, exit 2 */
void att_usage(void) __attribute__((noreturn));

#endif
