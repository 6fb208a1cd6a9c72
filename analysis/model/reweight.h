/*
 * analysis/model/reweight.h - t_max with CPU sharing: the thesis's
 * Appendix A reweighting as a processor-sharing simulation (reweight.c).
 */
#ifndef DPM_ANALYSIS_MODEL_REWEIGHT_H
#define DPM_ANALYSIS_MODEL_REWEIGHT_H

#include <stddef.h>

#include "ptiming.h"

/* Fill w->when and w->via.  0 ok; -1 with the place of a cycle in err. */
int reweight_simulate(const struct cgraph *g, const struct pconfig *c, struct pwork *w,
		      char *err, size_t errlen);

#endif
