/*
 * analysis/model/tool.h - running an external drawing program (Graphviz's dot,
 * gnuplot) from an analysis command.
 *
 * The program is looked up on PATH first, so "not installed" is told apart
 * from "ran and failed": a report is still written without its figures in
 * the first case, and says which tool to install.
 */
#ifndef DPM_ANALYSIS_MODEL_TOOL_H
#define DPM_ANALYSIS_MODEL_TOOL_H

#include <stddef.h>
#include <stdio.h>

enum tool_result { TOOL_OK = 0, TOOL_MISSING = -1, TOOL_FAILED = -2 };

/* Whether name is an executable file on PATH; its path into buf. */
int tool_find(const char *name, char *buf, size_t len);

/* Run argv (argv[0] looked up on PATH) with dir as its working directory
 * (NULL: ours) and its output appended to the file log (NULL: ours; a
 * relative log is inside dir).  TOOL_OK, or TOOL_MISSING / TOOL_FAILED
 * with the reason for people in why. */
int tool_run(const char *dir, const char *log, char *const argv[], char *why, size_t whylen);

/* s as a double-quoted string of the tools' input languages (dot and
 * gnuplot both escape '"' and '\' with a backslash). */
void tool_quoted(FILE *f, const char *s);

#endif
