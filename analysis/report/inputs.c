/*
 * analysis/report/inputs.c - the raw data of a report.  By default each
 * run's input is linked from the page where it lies (a path relative to
 * DIR), not copied: the logs of a real run are tens of megabytes and the
 * page needs none of them.  With --copy-raw the input is copied into
 * DIR/raw/ (so the directory stays whole when the originals move) and,
 * for a filter log, its CSV written there by the same code as
 * `dpm dump --csv`.
 */
#include "inputs.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostfilter/tracelog/print.h"

/* Whether two paths name one file (a report made from an earlier one's
 * raw/ copies must not truncate its own input). */
static int same_file(const char *a, const char *b)
{
	struct stat x, y;
	return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

static int copy_file(const char *from, const char *to, char *why, size_t whylen)
{
	if (same_file(from, to))
		return 0;
	int in = open(from, O_RDONLY);
	if (in < 0) {
		snprintf(why, whylen, "%s: %s", from, strerror(errno));
		return -1;
	}
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		snprintf(why, whylen, "%s: %s", to, strerror(errno));
		close(in);
		return -1;
	}
	static char buf[1 << 20];
	ssize_t n;
	int rc = 0;
	while (rc == 0 && (n = read(in, buf, sizeof buf)) != 0) {
		if (n < 0 || write(out, buf, (size_t)n) != n) {
			snprintf(why, whylen, "copying %s to %s: %s", from, to, strerror(errno));
			rc = -1;
		}
	}
	close(in);
	if (close(out) < 0 && rc == 0) {
		snprintf(why, whylen, "%s: %s", to, strerror(errno));
		rc = -1;
	}
	return rc;
}

static int write_csv(const char *log, const char *to, char *why, size_t whylen)
{
	FILE *f = fopen(to, "w");
	if (!f) {
		snprintf(why, whylen, "%s: %s", to, strerror(errno));
		return -1;
	}
	size_t truncated;
	int rc = dump_records(log, 1, f, why, whylen, &truncated);
	if (fclose(f) != 0 && rc == 0) {
		snprintf(why, whylen, "%s: %s", to, strerror(errno));
		rc = -1;
	}
	return rc;
}

int report_relative_path(const char *dir, const char *file, char *out, size_t outlen)
{
	char d[PATH_MAX + 1], f[PATH_MAX];
	if (!realpath(dir, d) || !realpath(file, f))
		return -1;
	if (strcmp(d, "/"))
		strcat(d, "/");
	/* past the last '/' the two have in common; then one ../ a folder of dir left */
	size_t common = 0;
	for (size_t i = 0; d[i] && d[i] == f[i]; i++)
		if (d[i] == '/')
			common = i + 1;
	size_t used = 0;
	for (const char *c = d + common; *c; c++)
		if (*c == '/') {
			if (used + 4 > outlen)
				return -1;
			memcpy(out + used, "../", 4);
			used += 3;
		}
	if (used + strlen(f + common) + 1 > outlen)
		return -1;
	memcpy(out + used, f + common, strlen(f + common) + 1);
	return 0;
}

int report_keep_inputs(struct report_run *r, const char *dir, int copy, char *why, size_t whylen)
{
	char raw[4096], path[4096];
	if (!copy) {
		r->csv_file[0] = '\0';
		if (report_relative_path(dir, r->spec->log, r->raw_file, sizeof r->raw_file) < 0)
			snprintf(r->raw_file, sizeof r->raw_file, "%s", r->spec->log);
		return 0;
	}
	snprintf(raw, sizeof raw, "%s/raw", dir);
	if (mkdir(raw, 0755) < 0 && errno != EEXIST) {
		snprintf(why, whylen, "%s: %s", raw, strerror(errno));
		return -1;
	}
	const char *name = r->spec->name;
	snprintf(r->raw_file, sizeof r->raw_file, "raw/%s.%s", name, r->raw_is_log ? "log" : "csv");
	snprintf(r->csv_file, sizeof r->csv_file, "raw/%s.csv", name);
	snprintf(path, sizeof path, "%s/%s", dir, r->raw_file);
	if (copy_file(r->spec->log, path, why, whylen) < 0)
		return -1;
	if (!r->raw_is_log)
		return 0;
	snprintf(path, sizeof path, "%s/%s", dir, r->csv_file);
	return same_file(r->spec->log, path) ? 0 : write_csv(r->spec->log, path, why, whylen);
}
