/*
 * analysis/model/cli.c - command-line plumbing shared by stats, parallel and
 * causality (see cli.h).
 */
#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "causality_roles.h"
#include "trace_load.h"

int cli_load(const char *cmd, const char *path, struct trace *t)
{
	char err[512];
	(void)cmd;
	trace_init(t, path);
	char names[4096];
	if (trace_load(t, path, err, sizeof err) < 0 ||
	    (names_beside(path, names, sizeof names) && trace_names_load(t, names, err, sizeof err) < 0)) {
		fprintf(stderr, "%s\n", err);
		return EXIT_BADINPUT;
	}
	if (t->nev == 0) {
		fprintf(stderr, "%s: the trace has no events\n", path);
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "dpm %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'dpm %s --help')\n", cmd);
	return EXIT_BADINPUT;
}

const char *fmt_ns(double ns, char *buf, size_t len)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.3g us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.3f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.3f s", ns / 1e9);
	return buf;
}

void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

int cli_parse_count(const char *s, size_t *out)
{
	char *end;
	if (!s || *s < '0' || *s > '9')
		return -1;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end)
		return -1;
	*out = (size_t)v;
	return 0;
}
