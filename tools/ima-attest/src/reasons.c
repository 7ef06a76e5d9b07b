// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reasons: every failure a verdict found, each with its class, kept in
 * full (no count limit: every reason is printed). A reason quotes what
 * the guest or a file said, so it is escaped when it is made (one line,
 * printable). Without memory for one more, the verdict still fails: a
 * first reason has a place of its own, and later ones are counted.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "att_verdict.h"
#include "ima_attest.h"
#include "ima_audit.h"

static const char *const att_names[] = {
#define ATT_FC_NAME(id, name) [ATT_FC_##id - IMA_FC_COUNT] = name,
	ATT_FAIL_CLASSES(ATT_FC_NAME)
#undef ATT_FC_NAME
};

const char *att_fail_class_name(int cls)
{
	if (cls >= IMA_FC_COUNT && cls < ATT_FC_COUNT)
		return att_names[cls - IMA_FC_COUNT];
	return ima_fail_class_name(cls);
}

/* the first reason, when there is no memory for it */
static char oom_text[] = "out of memory: a failure could not be recorded";
static char *oom_r[1] = { oom_text };
static int oom_cls[1] = { IMA_FC_GENERIC };

static bool grow(struct att_reasons *rs)
{
	int cap = rs->cap ? 2 * rs->cap : 8;
	char **r;
	int *cls;

	if (rs->oom || cap < rs->cap)
		return false;
	r = realloc(rs->r, (size_t)cap * sizeof(*r));
	if (!r)
		return false;
	rs->r = r;
	cls = realloc(rs->cls, (size_t)cap * sizeof(*cls));
	if (!cls)
		return false;
	rs->cls = cls;
	rs->cap = cap;
	return true;
}

/* keep text, already escaped */
static void keep(struct att_reasons *rs, int cls, const char *text)
{
	char *copy = NULL;

	if ((rs->n < rs->cap || grow(rs)) && (copy = strdup(text))) {
		rs->r[rs->n] = copy;
		rs->cls[rs->n++] = cls;
		return;
	}
	if (rs->n) {
		rs->lost++;
		return;
	}
	/* nothing kept yet: the verdict must fail all the same */
	free(rs->r);
	free(rs->cls);
	rs->r = oom_r;
	rs->cls = oom_cls;
	rs->n = rs->cap = 1;
	rs->oom = true;
}

void att_reason_text(struct att_reasons *rs, int cls, const char *text)
{
	keep(rs, cls, text);
}

void att_reason(struct att_reasons *rs, int cls, const char *fmt, ...)
{
	char raw[ATT_REASON_LEN], esc[ATT_REASON_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	ima_escape(esc, sizeof(esc), raw, strlen(raw));
	keep(rs, cls, esc);
}

void att_reasons_free(struct att_reasons *rs)
{
	int i;

	if (!rs->oom) {
		for (i = 0; i < rs->n; i++)
			free(rs->r[i]);
		free(rs->r);
		free(rs->cls);
	}
	memset(rs, 0, sizeof(*rs));
}

int att_reasons_append(struct att_reasons *to, const struct att_reasons *from,
		       const char *prefix)
{
	char text[ATT_REASON_LEN + 64];
	int i, before = to->n;

	/* from's reasons are escaped already, prefix is ours */
	for (i = 0; i < from->n; i++) {
		snprintf(text, sizeof(text), "%s%s", prefix, from->r[i]);
		keep(to, from->cls[i], text);
	}
	if (from->lost)
		att_reason(to, IMA_FC_GENERIC, "%s%lu more failures not recorded (out of memory)",
			   prefix, from->lost);
	return to->n - before;
}
