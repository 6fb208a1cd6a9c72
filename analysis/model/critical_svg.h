/*
 * analysis/model/critical_svg.h - the critical path of a run drawn as a
 * space-time diagram over its messages, in SVG (critical_svg.c).
 */
#ifndef DPM_ANALYSIS_MODEL_CRITICAL_SVG_H
#define DPM_ANALYSIS_MODEL_CRITICAL_SVG_H

#include <stddef.h>
#include <stdio.h>

#include "critical_sum.h"

/* Write r's path as SVG to f, over its first max_messages messages.
 * 0 ok, -1 out of memory or a write error. */
int critical_svg(FILE *f, const struct critical_result *r, size_t max_messages);

#endif
