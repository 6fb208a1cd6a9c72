/*
 * tests/fuzz/fuzz_analyses.h - the analyses run on a trace file, for the
 * harnesses whose input becomes a trace (fuzz_analyses.c).
 */
#ifndef DPM_TESTS_FUZZ_ANALYSES_H
#define DPM_TESTS_FUZZ_ANALYSES_H

/* Load the log or CSV at path as the commands do and, if it loads and has
 * events, run every analysis on it: the computation graph, P for the
 * thesis's five configurations with the default delivery times, message
 * statistics, roles and causality strings. */
void fuzz_analyse(const char *path);

#endif
