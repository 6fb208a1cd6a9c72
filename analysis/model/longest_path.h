/*
 * analysis/model/longest_path.h - t_max without CPU sharing: timing the
 * labelled computation graph by its longest path (longest_path.c).
 */
#ifndef DPM_ANALYSIS_MODEL_LONGEST_PATH_H
#define DPM_ANALYSIS_MODEL_LONGEST_PATH_H

#include <stddef.h>

#include "ptiming.h"

/* Fill w->when and w->via.  0 ok; -1 with the place of a cycle in err. */
int longest_path(const struct cgraph *g, const struct pconfig *c, struct pwork *w,
		 char *err, size_t errlen);

#endif
