/*
 * qemu/commands/version.c - `dpm version`: the version of dpm and of the
 * trace format it reads and writes.
 */
#include <stdio.h>
#include <string.h>

#include "qemu/dpm_commands.h"
#include "hostfilter/tracelog/logformat.h"
#include "kernel/abi/trace.h"

int version_main(int argc, char **argv)
{
	if (argc > 1) {
		int help = !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h");
		fprintf(help ? stdout : stderr, "usage: dpm version   (or: dpm --version)\n\n"
			"Print the version of dpm, of the meter batches it receives and of the\n"
			"log format it writes and reads (docs/filter.md).\n");
		return help ? 0 : 2;
	}
	printf("dpm version 0.1 (meter batches %u, log format %d)\n", METER_BATCH_VERSION,
	       LOG_VERSION);
	return 0;
}
