/*
 * qemu/commands/version.c - `dpm version`: the version of dpm and of the
 * trace format it reads and writes.
 */
#include <stdio.h>
#include <string.h>

#include "qemu/dpm_commands.h"

int version_main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		printf("usage: dpm version\n");
		return strcmp(argv[1], "--help") ? 2 : 0;
	}
	printf("dpm 0.1 (trace format 1)\n");
	return 0;
}
