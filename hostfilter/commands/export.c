/*
 * hostfilter/commands/export.c - `dpm export --format ctf|otf2|chrome -o OUT
 * LOG`: a filter log for babeltrace2 and Trace Compass (CTF), Vampir and
 * Scalasca (OTF2), Perfetto and chrome://tracing (Chrome JSON).  The work is
 * hostfilter/export/'s; this is the command line.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "qemu/dpm_commands.h"
#include "hostfilter/export/export.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: dpm export --format ctf|otf2|chrome -o OUT LOG\n\n"
		     "Write a filter log (LOG '-' reads standard input) in another tool's format:\n"
		     "  --format ctf     CTF 1.8 trace directory OUT (babeltrace2, Trace Compass)\n"
		     "  --format otf2    OTF2 archive OUT/trace.otf2 (Vampir, Scalasca, otf2-print)\n"
		     "  --format chrome  Chrome trace JSON file OUT ('-': stdout; Perfetto)\n"
		     "  -o, --output OUT where to write (a directory for ctf and otf2: it must\n"
		     "                   not exist yet, or be empty)\n"
		     "See docs/formats.md.  Exit status: 0 written, 1 the log cannot be read\n"
		     "or OUT cannot be written, 2 bad usage.\n");
}

int export_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = NULL, *out = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		if (c == 'f') {
			format = optarg;
		} else if (c == 'o') {
			out = optarg;
		} else if (c == 'h') {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (!format || !out || optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	const struct export_sink *sink = export_sink_named(format);
	if (!sink) {
		fprintf(stderr, "dpm export: unknown format '%s' (ctf, otf2 or chrome)\n", format);
		return 2;
	}
	if (sink->writes_dir && !strcmp(out, "-")) {
		fprintf(stderr, "dpm export: --format %s writes a directory: -o needs its name\n", format);
		return 2;
	}
	char err[512];
	struct export_counts n;
	int r = export_log(sink, argv[optind], out, &n, err, sizeof err);
	if (r) {
		fprintf(stderr, "dpm export: %s\n", err);
		return r == -2 ? 2 : 1; /* a log that cannot be read is bad input */
	}
	if (n.truncated)
		fprintf(stderr, "dpm export: %s: ignored an incomplete last record (%zu bytes); "
				"was the filter killed?\n", argv[optind], n.truncated);
	fprintf(stderr, "dpm export: %s: %llu records (%llu notes), %llu nodes, %llu processes\n",
		out, (unsigned long long)n.records, (unsigned long long)n.notes,
		(unsigned long long)n.nodes, (unsigned long long)n.procs);
	return 0;
}
