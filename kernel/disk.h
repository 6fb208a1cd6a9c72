/*
 * kernel/disk.h - a node's disk as the kernel sees it, whatever drives it
 * (the virtio-blk driver today), and the disk's kernel-link service.  A
 * driver registers one block device; disk.c serves the KR_DISK_* requests
 * of processes holding a kernel link with LINK_KDISK.  Transfers are whole
 * 512-byte sectors between the device and a kernel buffer of at most
 * DISK_MAX_BYTES; they complete before the call returns.  In virtual time
 * (docs/virtual-time.md §2.7) the requester blocks until the request's
 * modelled completion time instead (process state P_DISK).
 */
#ifndef DPM_DISK_H
#define DPM_DISK_H
#include <stdint.h>

#include "kernel.h"

#define DISK_SECTOR 512u
#define DISK_MAX_BYTES 4096u   /* one page: the largest single transfer */

struct blockdev {
	const char *driver_name;
	uint64_t sectors;          /* capacity in 512-byte sectors            */
	void *driver;
	/* Move `count` sectors starting at `sector` between the device and
	 * `buf` (physically contiguous, count * 512 <= DISK_MAX_BYTES).
	 * 0, or E_DISKIO when the device reports an error or does not answer. */
	int32_t (*transfer)(struct blockdev *b, int write, uint64_t sector, void *buf, uint32_t count);
	/* The same in two halves (virtual time, kernel/disk.c): start hands
	 * the device the request (0, E_INVAL or E_DISKIO), finish waits until
	 * the device has returned the one started last and says how it went. */
	int32_t (*start)(struct blockdev *b, int write, uint64_t sector, void *buf, uint32_t count);
	int32_t (*finish)(struct blockdev *b);
};

/* A driver registers its device once it can transfer; the first one is
 * the node's disk, later ones are ignored. */
void disk_register(struct blockdev *b);

/* The KR_DISK_* requests (kinds KR_DISK_FIRST..KR_DISK_LAST), routed here
 * by kdevice_service(); same contract as kservice(). */
int32_t disk_service(struct proc *p, const struct link *via, uint32_t kind, const uint8_t *req,
		     uint32_t len, const struct link *passed, uint8_t *reply, uint32_t *reply_len,
		     struct link *reply_link);
#endif
