/*
 * analysis/bench/kprof_main.c - dpm-kprof, the command over kprof.c:
 *
 *   dpm-kprof [--thumb] -k KERNEL_NM -u PROGRAM_NM [-x OTHER_NM]... -c CONSOLE
 *             [-r REGION]... [-d NAME=A-B/DIVISOR]... [LOG]
 *
 * KERNEL_NM, PROGRAM_NM, OTHER_NM: `nm -n -S --defined-only` of the kernel,
 * of the program holding the kprof_begin_/kprof_end_ markers and of the
 * other programs that run on the node (their code must end below the
 * markers); CONSOLE: the guest's console with its `kbench profile` lines;
 * LOG: QEMU's `-singlestep -d exec,nochain` log (standard input if absent
 * or "-", so it can be streamed through a pipe and never stored); REGION:
 * profile only these of the program's regions (kprof_select; a cluster
 * node runs one part of kbench).  Writes the profile to standard output.
 *
 *   dpm-kprof --dfilter [--thumb] -k KERNEL_NM -u PROGRAM_NM [-s FUNCTION]...
 *
 * prints the address ranges for QEMU's -dfilter: the kernel's code less the
 * named functions (x86's boot-time PIT busy-wait, 91 million logged
 * instructions otherwise) and the program's code and markers.  Exit 0, 1 when a file cannot be read,
 * 2 on bad usage or input (FILE:LINE:COL on standard error).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bench/kprof.h"

static int usage(void)
{
	fprintf(stderr, "usage: dpm-kprof [--thumb] -k KERNEL_NM -u PROGRAM_NM [-x OTHER_NM]... -c CONSOLE "
		"[-r REGION]... [-d NAME=A-B/DIVISOR]... [LOG]\n"
		"       dpm-kprof --dfilter [--thumb] -k KERNEL_NM -u PROGRAM_NM [-s SKIPPED_FUNCTION]...\n");
	return 2;
}

enum what { SYMBOLS_KERNEL, SYMBOLS_USER, SYMBOLS_OTHER, CONSOLE, LOG };

/* Read one input; 0, 1 (cannot open) or 2 (bad input). */
static int input(struct kprof *p, const char *path, enum what w, int thumb)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		perror(path);
		return 1;
	}
	int r;
	switch (w) {
	case SYMBOLS_KERNEL: r = kprof_read_symbols(p, f, path, KPROF_KERNEL, thumb); break;
	case SYMBOLS_USER: r = kprof_read_symbols(p, f, path, KPROF_USER, thumb); break;
	case SYMBOLS_OTHER: r = kprof_read_other(p, f, path, thumb); break;
	case CONSOLE: r = kprof_read_console(p, f, path); break;
	default: r = kprof_read_log(p, f, path); break;
	}
	if (f != stdin)
		fclose(f);
	if (r < 0) {
		fprintf(stderr, "dpm-kprof: %s\n", p->err);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *kernel = NULL, *user = NULL, *console = NULL, *log = "-";
	const char *others[16], *diffs[16], *skips[16], *regions[16];
	int nothers = 0, ndiffs = 0, nskips = 0, nregions = 0, thumb = 0, dfilter = 0, i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--thumb") || !strcmp(a, "--dfilter")) {
			*(a[2] == 't' ? &thumb : &dfilter) = 1;
			continue;
		}
		if (a[0] != '-' || !a[1] || a[2])
			break;
		if (i + 1 == argc)
			return usage();
		const char *v = argv[++i];
		switch (a[1]) {
		case 'k': kernel = v; break;
		case 'u': user = v; break;
		case 'c': console = v; break;
		case 'x': if (nothers == 16) return usage(); others[nothers++] = v; break;
		case 'd': if (ndiffs == 16) return usage(); diffs[ndiffs++] = v; break;
		case 's': if (nskips == 16) return usage(); skips[nskips++] = v; break;
		case 'r': if (nregions == 16) return usage(); regions[nregions++] = v; break;
		default: return usage();
		}
	}
	if (i < argc)
		log = argv[i++];
	if (i < argc || !kernel || !user || (!console && !dfilter))
		return usage();

	struct kprof p;
	kprof_init(&p);
	int r = 0;
	for (int k = 0; !r && k < nregions; k++)
		if (kprof_select(&p, regions[k]) < 0) {
			fprintf(stderr, "dpm-kprof: %s\n", p.err);
			r = 2;
		}
	if (!r)
		r = input(&p, kernel, SYMBOLS_KERNEL, thumb);
	if (!r)
		r = input(&p, user, SYMBOLS_USER, thumb);
	for (int k = 0; !r && k < nothers; k++)
		r = input(&p, others[k], SYMBOLS_OTHER, thumb);
	if (!r && kprof_symbols_done(&p) < 0) {
		fprintf(stderr, "dpm-kprof: %s\n", p.err);
		r = 2;
	}
	if (!r && !p.nregions) {
		fprintf(stderr, "dpm-kprof: %s has no kprof_begin_NAME marker\n", user);
		r = 2;
	}
	for (int k = 0; !r && k < ndiffs; k++)
		if (kprof_add_diff(&p, diffs[k]) < 0) {
			fprintf(stderr, "dpm-kprof: %s\n", p.err);
			r = 2;
		}
	if (!r && dfilter) {
		char *ranges = kprof_dfilter(&p, skips, nskips);
		if (ranges)
			printf("%s\n", ranges);
		else {
			fprintf(stderr, "dpm-kprof: %s\n", p.err);
			r = 2;
		}
		free(ranges);
		kprof_free(&p);
		return r;
	}
	/* the log first: the console is complete once the log has ended */
	if (!r)
		r = input(&p, log, LOG, thumb);
	if (!r && kprof_log_done(&p) < 0) {
		fprintf(stderr, "dpm-kprof: %s: %s\n", log, p.err);
		r = 2;
	}
	if (!r)
		r = input(&p, console, CONSOLE, thumb);
	if (!r && kprof_report(&p, stdout) < 0)
		r = 2;
	kprof_free(&p);
	return r;
}
