/*
 * analysis/model/mtime_log.h - which delivery-time table an analysis of a
 * log uses (docs/mtime.md): the one given on its command line, else the one
 * `dpm record` wrote beside the log (LOG.mtime: the table of the cluster the
 * log was recorded on), else the placeholder of mtime_default() - and then
 * it says so on stderr, since predictions with a placeholder are only as
 * good as its resemblance to the traced system.
 */
#ifndef DPM_ANALYSIS_MODEL_MTIME_LOG_H
#define DPM_ANALYSIS_MODEL_MTIME_LOG_H

#include <stddef.h>
#include <stdio.h>

#include "mtime.h"

#define MTIME_LOG_SUFFIX ".mtime"

enum mtime_source { MTIME_GIVEN, MTIME_BESIDE_LOG, MTIME_PLACEHOLDER };

/* LOG.mtime; -1 when it does not fit. */
int mtime_log_path(const char *log, char *out, size_t size);

/* The table for an analysis of `log` (NULL or "-": standard input, which
 * has nothing beside it): `given` when not NULL, else LOG.mtime when it
 * exists, else the placeholder, with a line on `warn` naming `who` (the
 * command) and `option` (how to give one).  `what` says which, for the
 * analysis's output.  Returns the source, or -1 with err when a table
 * cannot be read. */
int mtime_for_log(struct mtime_table *m, const char *given, const char *log, const char *who,
		  const char *option, FILE *warn, char *what, size_t whatlen, char *err,
		  size_t errlen);

/* The clock the log was recorded in: the `# clock=` of LOG.mtime, else of
 * the table used (`used`), else "" (unknown). */
void mtime_log_clock(const char *log, const struct mtime_table *used, char *out, size_t size);

#endif
