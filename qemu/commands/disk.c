/*
 * qemu/commands/disk.c - `dpm disk`: a group of one command so far,
 * `create PATH [--size MIB] [--force]`, over qemu/disk.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "qemu/disk.h"
#include "qemu/dispatch.h"
#include "qemu/dpm_commands.h"
#include "kernel/abi/fs_disk.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: dpm disk create PATH [--size MIB] [--force]\n"
		    "  write a disk image holding an empty file system (docs/fs.md)\n"
		    "  --size MIB   image size, 1 to %d MiB (default %d)\n"
		    "  --force      overwrite PATH if it exists\n", DISK_MAX_MIB, DISK_DEFAULT_MIB);
}

static int disk_create(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long size = DISK_DEFAULT_MIB;
	int force = 0, c;
	char *end;
	optind = 1;
	while ((c = getopt_long(argc, argv, "s:fh", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c == 'f') {
			force = 1;
		} else if (c == 's') {
			size = strtol(optarg, &end, 10);
			if (*end || end == optarg || size < 1 || size > DISK_MAX_MIB) {
				fprintf(stderr, "dpm disk create: --size must be 1 to %d MiB, not '%s'\n",
					DISK_MAX_MIB, optarg);
				return 2;
			}
		} else {
			return usage(stderr), 2;
		}
	}
	if (optind != argc - 1) /* exactly one PATH */
		return usage(stderr), 2;
	char err[512];
	if (disk_format(argv[optind], (uint32_t)size, force, err, sizeof err)) {
		fprintf(stderr, "dpm disk create: %s\n", err);
		return 1;
	}
	struct fs_super s = fs_layout((uint32_t)(((uint64_t)size << 20) / FS_BLOCK));
	printf("%s: %ld MiB, %u blocks of %u bytes, %u inodes, %u data blocks\n", argv[optind], size,
	       s.nblocks, FS_BLOCK, s.ninodes - 1, s.nblocks - s.data_start);
	return 0;
}

static const struct dpm_command commands[] = {
	{ "create", disk_create, "write a disk image holding an empty file system (docs/fs.md)" },
};

static const struct dpm_group disk = {
	.prog = "dpm disk",
	.kind = "disk",
	.args = "COMMAND [OPTIONS]",
	.intro = "Disk images of nodes (a cluster file's disk=).  Commands:\n",
	.epilogue = "\nRun 'dpm disk COMMAND --help' for a command's options.\n",
	.width = 8,
	.commands = commands,
	.count = sizeof commands / sizeof commands[0],
};

int disk_main(int argc, char **argv)
{
	return dpm_dispatch(&disk, argc, argv);
}
