/*
 * qemu/disk.h - node disk images for `dpm disk` (qemu/disk.c).
 */
#ifndef DPM_QEMU_DISK_H
#define DPM_QEMU_DISK_H
#include <stddef.h>
#include <stdint.h>

#define DISK_DEFAULT_MIB 8
#define DISK_MAX_MIB 2048

/* Write an image of size_mib MiB holding an empty file system at path
 * (an existing file only with force).  0, or -1 with a message in err. */
int disk_format(const char *path, uint32_t size_mib, int force, char *err, size_t errlen);
#endif
