/*
 * analysis/report/spec.h - a RUN argument of `dpm report`,
 * NAME=LOG[,key=value...] (spec.c): where the run's trace is, what names
 * its processes have, and what the run is in a study.
 */
#ifndef DPM_ANALYSIS_REPORT_SPEC_H
#define DPM_ANALYSIS_REPORT_SPEC_H

#include <stddef.h>

struct report_spec {
	char name[48];          /* [A-Za-z0-9_.-], not starting with '.': used in file names */
	char *log;              /* filter log or trace CSV */
	char *requestors;       /* node.pid,node.pid,... (given with '+'), or NULL */
	char *servers;
	char *system;
	char *names;            /* names file: "node.pid NAME ROLE" lines, or NULL */
	char *mtime;            /* delivery-time table, or NULL for the default */
	/* What the run is in a study (--study): all optional. */
	char config[16];        /* config=X, letters and digits; "" if not given */
	long users;             /* users=K: concurrent file-system test users */
	long n, p, version;     /* TSP matrix size, servers, program version 1..3 */
	long rep;               /* repetition: runs differing only in rep repeat one measurement */
};

#define REPORT_UNSET (-1L)      /* a study key not given */

/* 0 ok; -1 with what is wrong in err ("run 'A': ..."). */
int report_spec_parse(const char *arg, struct report_spec *s, char *err, size_t errlen);
void report_spec_free(struct report_spec *s);

#endif
