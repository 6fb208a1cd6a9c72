/*
 * analysis/report/spec.h - a RUN argument of `dpm report`,
 * NAME=LOG[,key=value...] (spec.c): where the run's trace is and what
 * names its processes have, and the keys a part above the report adds
 * (the studies: what the run is in one), which the report only parses and
 * keeps, by the table it is given.
 */
#ifndef DPM_ANALYSIS_REPORT_SPEC_H
#define DPM_ANALYSIS_REPORT_SPEC_H

#include <stddef.h>

#define REPORT_KEYS 8           /* added keys at most */
#define REPORT_TEXT 16          /* a label's length, with its '\0' */
#define REPORT_UNSET (-1L)      /* an added number not given */

/* A key added to RUN: a label (letters and digits) or a whole number. */
struct report_key {
	const char *name;
	int label;              /* else a number from lo to hi */
	long lo, hi;
};

struct report_spec {
	char name[48];          /* [A-Za-z0-9_.-], not starting with '.': used in file names */
	char *log;              /* filter log or trace CSV */
	char *requestors;       /* node.pid,node.pid,... (given with '+'), or NULL */
	char *servers;
	char *system;
	char *names;            /* names file: "node.pid NAME ROLE" lines, or NULL */
	char *mtime;            /* delivery-time table, or NULL for the default */
	/* The added keys, by their index in the table parsed with: all optional. */
	char text[REPORT_KEYS][REPORT_TEXT];   /* a label's value; "" if not given */
	long num[REPORT_KEYS];                 /* a number's value; REPORT_UNSET if not given */
};

/* 0 ok; -1 with what is wrong in err ("run 'A': ...").  keys: the nkeys
 * (at most REPORT_KEYS) added keys RUN may have besides the report's own. */
int report_spec_parse(const char *arg, const struct report_key *keys, size_t nkeys,
		      struct report_spec *s, char *err, size_t errlen);
void report_spec_free(struct report_spec *s);

#endif
