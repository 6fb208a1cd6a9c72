/*
 * analysis/report/cross.h - each run's P predicted from the other runs'
 * traces (thesis Fig. 5.17; cross.c), and predicting P of an assignment
 * on a run's trace, which the studies use too.
 */
#ifndef DPM_ANALYSIS_REPORT_CROSS_H
#define DPM_ANALYSIS_REPORT_CROSS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/model/parallelism.h"
#include "run.h"

/* P of row run X's measured assignment, predicted from column run Y's
 * trace: processes of Y that X also traced (same name) are put on the
 * machines X ran them on, the rest stay where Y ran them. */
struct report_cross {
	size_t n;
	struct report_run **run; /* the runs of the matrix, in its order */
	double *p[2];            /* [0] measured, [1] with contention; n*n, row X, column Y */
	size_t *shared;          /* n*n: processes X and Y both traced */
	int any;                 /* some pair of different runs shares a process */
};

/* The matrix of the runs pick[0..n-1] (indices into runs), or of all n
 * runs in their order when pick is NULL. */
int report_cross_compute(struct report_cross *x, struct report_run *runs, const size_t *pick,
			 size_t n, char *err, size_t errlen);
void report_cross_free(struct report_cross *x);
/* The runs that trace a process (by name) some other run traces too, into
 * pick (room for n); how many.  Only they can predict each other: the
 * demo's TSP run beside its two file systems has no place in their
 * matrix. */
size_t report_cross_related(const struct report_run *runs, size_t n, size_t *pick);
/* Percent difference of the prediction from X's own measured P. */
double report_cross_diff(const struct report_cross *x, int mode, size_t row, size_t col);

/* P of the assignment `spec` (as --assign takes it) on run y's trace,
 * with or without CPU contention; w is scratch for y's graph. */
int report_predict(const struct report_run *y, const char *spec, int contention,
		   struct pwork *w, double *p, char *err, size_t errlen);
/* Append "node.pid=MACHINE" for y's process q to the growing spec *s
 * (length *len, capacity *cap).  -1 out of memory. */
int report_assign_add(char **s, size_t *len, size_t *cap, const struct report_run *y,
		      uint32_t q, const char *machine);

#endif
