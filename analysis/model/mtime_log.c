/*
 * analysis/model/mtime_log.c - the delivery-time table that belongs to a
 * log (see mtime_log.h).
 */
#include "mtime_log.h"

#include <string.h>
#include <unistd.h>

int mtime_log_path(const char *log, char *out, size_t size)
{
	int n = snprintf(out, size, "%s%s", log, MTIME_LOG_SUFFIX);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

static void placeholder(struct mtime_table *m, const char *log, const char *who,
			const char *option, FILE *warn, char *what, size_t whatlen)
{
	mtime_default(m);
	snprintf(what, whatlen, "the placeholder table (thesis Fig. 5.11 with each ms read as a us; "
		 "docs/mtime.md)");
	if (warn)
		fprintf(warn, "%s: no delivery-time table for %s (no %s, no %s%s beside it): using the "
			"placeholder of docs/mtime.md (thesis Fig. 5.11, each ms read as a us), which "
			"is not this system's\n", who, log ? log : "standard input", option,
			log ? log : "LOG", MTIME_LOG_SUFFIX);
}

void mtime_log_clock(const char *log, const struct mtime_table *used, char *out, size_t size)
{
	char beside[4096];
	out[0] = '\0';
	if (log && strcmp(log, "-") && mtime_log_path(log, beside, sizeof beside) == 0)
		mtime_file_clock(beside, out, size);
	if (!out[0] && used)
		snprintf(out, size, "%s", used->clock);
}

int mtime_for_log(struct mtime_table *m, const char *given, const char *log, const char *who,
		  const char *option, FILE *warn, char *what, size_t whatlen, char *err,
		  size_t errlen)
{
	if (given) {
		if (mtime_load(m, given, err, errlen) < 0)
			return -1;
		snprintf(what, whatlen, "%s", given);
		return MTIME_GIVEN;
	}
	if (log && !strcmp(log, "-"))
		log = NULL;
	char beside[4096];
	if (!log || mtime_log_path(log, beside, sizeof beside) < 0 || access(beside, F_OK) != 0) {
		placeholder(m, log, who, option, warn, what, whatlen);
		return MTIME_PLACEHOLDER;
	}
	if (mtime_load(m, beside, err, errlen) < 0)
		return -1;
	snprintf(what, whatlen, "%s (recorded with the log%s%s)", beside, m->clock[0] ? ", clock=" : "",
		 m->clock);
	return MTIME_BESIDE_LOG;
}
