/*
 * analysis/report/sections.h - the sections of the page, one file each:
 * the summary (summary_section.c), a run's message statistics
 * (stats_section.c), parallelism (parallel_section.c), where the time
 * went (critical_section.c), the timelines (timeline_section.c) and paths of causality (causality_section.c),
 * the predictions across runs
 * (cross_section.c) and the raw data (raw_section.c).  page.c puts them in
 * order; they build on page_parts.h, never on the page.
 */
#ifndef DPM_ANALYSIS_REPORT_SECTIONS_H
#define DPM_ANALYSIS_REPORT_SECTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "page_data.h"

void report_section_summary(FILE *f, const struct report_page_data *d);
void report_section_stats(FILE *f, const struct report_page_data *d, size_t i);
void report_section_parallel(FILE *f, const struct report_page_data *d, size_t i);
void report_section_causality(FILE *f, const struct report_page_data *d, size_t i);
void report_section_critical(FILE *f, const struct report_page_data *d, size_t i);
/* "95.1% external, 2.2% in_flight, ...": the largest states of run r's
 * critical path, for the summary (critical_section.c). */
void report_critical_shares(FILE *f, const struct report_run *r, int top);
/* The same, leaving out the `skip` largest. */
void report_critical_shares_from(FILE *f, const struct report_run *r, int skip, int top);
/* Its colour in the bars and timelines ("#2f9e44"). */
const char *report_state_color(int state);
/* A line of the states' colours and names. */
void report_state_legend(FILE *f);
/* The timelines: the whole run and a zoom on its clock (overview.c), the
 * space-time diagram of the graph's timing (timeline_section.c). */
void report_section_timelines(FILE *f, const struct report_page_data *d, size_t i);
/* A state of the critical path for people: "CPU (running)", "messages in
 * flight", ... (critical_section.c). */
const char *report_state_label(int state);
void report_section_cross(FILE *f, const struct report_page_data *d);
void report_section_raw(FILE *f, const struct report_page_data *d);

#endif
