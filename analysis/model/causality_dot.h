/*
 * analysis/model/causality_dot.h - the request state diagram of thesis
 * Fig. 5.19 as Graphviz dot (causality_dot.c), drawn with the processes'
 * names, hence on top of causality_roles.h.
 */
#ifndef DPM_ANALYSIS_MODEL_CAUSALITY_DOT_H
#define DPM_ANALYSIS_MODEL_CAUSALITY_DOT_H

#include <stdio.h>

#include "causality_roles.h"

/* The request state diagram (thesis Fig. 5.19) as Graphviz dot.
 * 0 ok, -1 out of memory or a write error. */
int causality_write_dot(const struct causality *c, const struct roles *r, FILE *f);

#endif
