/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The version ima-audit reports (--version, the JSON report's "version"):
 * raised when its output or verdicts change in a way a script reading
 * them must know of.
 */
#ifndef IMA_VERSION_H
#define IMA_VERSION_H

#define IMA_AUDIT_VERSION "1.1.0"

#endif
