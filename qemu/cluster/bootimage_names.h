/*
 * qemu/cluster/bootimage_names.h - the names of the programs a kernel
 * image carries, read on the host from the kernel's ELF file (the table
 * arch/mkbootimage.sh generates: boot_programs[], boot_program_count), so
 * `dpm record` can refuse a program name before it boots a cluster.
 */
#ifndef DPM_QEMU_BOOTIMAGE_NAMES_H
#define DPM_QEMU_BOOTIMAGE_NAMES_H

#include <stddef.h>

/* Whether the kernel ELF at path carries a program called name: 1 yes,
 * 0 no, with every name it carries written into names (blank-separated);
 * -1 when the file cannot be read as such a kernel (err says why). */
int bootimage_has(const char *path, const char *name, char *names, size_t size, char *err,
		  size_t errlen);

#endif
