/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ima-attest's failure classes: ima-audit's (ima_verdict.h: the list, the
 * quote, signatures, the deny list), and after them those only a remote
 * verifier meets (the TPM's identity, the AK, the channel, the firmware
 * log, the rounds of a poll). A class names one kind of failure and never
 * changes meaning; it is the "class" of each failure under --json and the
 * key of the text report's count by class.
 */
#ifndef ATT_VERDICT_H
#define ATT_VERDICT_H

#include "ima_verdict.h"

#define ATT_FAIL_CLASSES(X)						\
	X(EK_CERT, "ek-certificate")	/* not chained to the CA, not	\
					 * an EK's certificate */	\
	X(EK_PUBLIC, "ek-public")	/* the EK public area: not an	\
					 * EK template, not the certified \
					 * key */			\
	X(AK_PUBLIC, "ak-public")	/* not a restricted TPM signing	\
					 * key */			\
	X(AK_NAME, "ak-name")		/* not the name of its area */	\
	X(ACTIVATION, "activation")	/* the credential's secret not	\
					 * returned */			\
	X(CHANNEL, "channel")		/* the agent: no answer, not	\
					 * the protocol */		\
	X(ENROLLMENT, "enrollment")	/* no trusted enrollment */	\
	X(QUOTE_MALFORMED, "quote-malformed")				\
	X(EVLOG, "eventlog")		/* the firmware log unread or	\
					 * malformed */			\
	X(EVLOG_PCR, "eventlog-pcr")	/* replays to other values	\
					 * than the quoted */		\
	X(EVLOG_BANK, "eventlog-bank")	/* a bank or PCR of the log	\
					 * not quoted, or not in it */	\
	X(REBOOT, "reboot")		/* another boot than the last	\
					 * round's */			\
	X(CLOCK, "clock")		/* the TPM clock went back */	\
	X(OFFSET, "offset")		/* entries not from where the	\
					 * verifier asked */		\
	X(STATE, "state")		/* the state of another		\
					 * enrollment */		\
	X(IO, "io")			/* the verifier's own files */

enum att_fail_class {
	ATT_FC_BEFORE = IMA_FC_COUNT - 1,
#define ATT_FC_ENUM(id, name) ATT_FC_##id,
	ATT_FAIL_CLASSES(ATT_FC_ENUM)
#undef ATT_FC_ENUM
	ATT_FC_COUNT,
};

/* any class's name (ima-audit's or ours); "failure" for an unknown one */
const char *att_fail_class_name(int cls);

#endif
