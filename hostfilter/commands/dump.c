/*
 * hostfilter/commands/dump.c - `dpm dump`: a filter log as text or as CSV
 * (the printing itself is the trace-log library's, tracelog/print.c).
 */
#include <getopt.h>
#include <stdio.h>

#include "qemu/dpm_commands.h"
#include "hostfilter/tracelog/print.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: dpm dump [--csv] LOG\n\n"
		     "Print the records of a filter log (LOG '-' reads standard input).\n"
		     "  --csv   write the trace CSV interchange format (docs/trace-csv.md)\n"
		     "Text output: one record a line, TYPE name=value ...; see docs/dump.md.\n");
}

static int dump_log(const char *path, int csv)
{
	char err[512];
	size_t truncated;
	int r = dump_records(path, csv, stdout, err, sizeof err, &truncated);
	(void)truncated; /* a log read to its end has no incomplete block */
	if (r < 0)
		fprintf(stderr, "dpm dump: %s\n", err);
	if (fflush(stdout)) {
		perror("dpm dump: stdout");
		return 1;
	}
	return r < 0 ? 2 : 0; /* a log that cannot be read is bad input */
}

int dump_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int csv = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'c') {
			csv = 1;
		} else if (c == 'h') {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	return dump_log(argv[optind], csv);
}
