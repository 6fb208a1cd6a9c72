/*
 * analysis/report/page.h - DIR/index.html of `dpm report` (page.c): the
 * sections in their order, with the extensions' panels between them.
 */
#ifndef DPM_ANALYSIS_REPORT_PAGE_H
#define DPM_ANALYSIS_REPORT_PAGE_H

#include <stddef.h>

#include "page_data.h"

/* Write DIR/index.html.  0 ok; -1 with why. */
int report_page(const struct report_page_data *d, char *why, size_t whylen);

#endif
