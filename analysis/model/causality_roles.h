/*
 * analysis/model/causality_roles.h - who is a requestor, a server or a system
 * process in a causality analysis, and the names processes are shown by.
 *
 * Roles come from comma-separated node.pid lists and from a names file
 * (lines "node.pid NAME ROLE"); `dpm causality` and `dpm report` take the
 * same forms, so both read them here.  A process named nowhere is a system
 * process if any server was named, else a server when it has events of its
 * own (docs/causality.md, Roles).
 */
#ifndef DPM_ANALYSIS_MODEL_CAUSALITY_ROLES_H
#define DPM_ANALYSIS_MODEL_CAUSALITY_ROLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "causality.h"
#include "events.h"

/* Where the roles come from; any may be NULL.  Lists win over the file.
 * Errors in a list name it as prefix + "requestors" ("--requestors"). */
struct role_sources {
	const char *requestors, *servers, *system;  /* node.pid,node.pid,... */
	const char *names;                          /* names file */
	const char *prefix;
};

struct roles {
	uint8_t *role;      /* enum role of each process */
	char **name;        /* what each process is called */
	int single_chars;   /* every server's name is one character */
};

/* 0 ok; -1 with "file:line: what is wrong" (or "--servers: ...") in err.
 * When names is the file beside the trace (names_beside), its lines for
 * processes the trace does not hold are skipped. */
int roles_assign(struct roles *r, const struct trace *t, const struct role_sources *src,
		 char *err, size_t errlen);
void roles_free(struct roles *r, size_t nproc);

/* The names file beside a trace (TRACE.names, which `dpm record` writes):
 * its path into out and 1 if there is one, else 0. */
int names_beside(const char *trace, char *out, size_t size);

/* Show each process the names file at path lists (and the trace holds)
 * by its NAME everywhere (process_name).  0, or -1 with
 * "path:line:col: what is wrong" in err. */
int trace_names_load(struct trace *t, const char *path, char *err, size_t errlen);

/* The name of process p, or "requestors" for REQUESTORS. */
const char *roles_who(const struct roles *r, uint32_t p);

/* A counted sequence as text: names joined, or with '-' between them
 * unless every server's name is one character. */
void roles_print_seq(FILE *out, const struct causality *c, const struct roles *r,
		     const struct seq *s);

#endif
