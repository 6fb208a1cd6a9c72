/*
 * kernel/disk.c - the node's disk behind kernel links.  In DEMOS the Disk
 * Interface process reaches the disk through a link to its kernel; here a
 * kernel link carrying LINK_KDISK admits the KR_DISK_* requests.  Only the
 * process manager (LINK_KCTL) can have such a link made (KR_DISKLINK); it
 * hands it on to whoever asks it (PM_DISKLINK, docs/fs.md).  Requests are
 * served synchronously: the data goes through one kernel page, and a read's
 * reply carries it.  A node without a disk answers E_BADREQ, as a kernel
 * built without this file would.
 */
#include "kernel.h"
#include "disk.h"

#define READ_MAX_SECTORS (DISK_MAX_BYTES / DISK_SECTOR)
#define WRITE_MAX_SECTORS ((MSG_MAX - KR_DISK_HEADER) / DISK_SECTOR)

static struct blockdev *the_disk;
static uint8_t transfer_page[DISK_MAX_BYTES] __attribute__((aligned(4096)));

void disk_register(struct blockdev *b)
{
	if (the_disk) {
		kprintf("disk: %s: the node already has a disk; ignored\n", b->driver_name);
		return;
	}
	the_disk = b;
	kprintf("disk: %s, %u sectors (%u KiB)\n", b->driver_name, (unsigned)b->sectors,
		(unsigned)(b->sectors / 2));
}

static uint32_t word(const uint8_t *req, int i)
{
	uint32_t v;
	memcpy(&v, req + 4 * i, 4);
	return v;
}

/* Check a read or write's header: sector range on the disk, count in 1..max. */
static int32_t check_range(const uint8_t *req, uint32_t len, uint32_t max, uint64_t *sector, uint32_t *count)
{
	if (len < KR_DISK_HEADER)
		return E_BADREQ;
	*sector = (uint64_t)word(req, 1) | (uint64_t)word(req, 2) << 32;
	*count = word(req, 3);
	if (*count == 0 || *count > max)
		return E_INVAL;
	if (*sector >= the_disk->sectors || *count > the_disk->sectors - *sector)
		return E_BOUNDS;
	return 0;
}

/* One transfer by the device.  The driver waits for the device with the
 * processor held (docs/fs.md); that wait is the disk's time, not the
 * requesting process's, so, like interrupt work, it is kept out of the
 * process's CPU time (PROCTIME): a Disk Interface's PROCTIME is its own
 * work, and the disk's time shows in the traces as the elapsed time of its
 * request to the kernel. */
static int32_t disk_transfer(int write, uint64_t sector, uint32_t count)
{
	uint64_t began = proc_interrupt_begin();
	int32_t r = the_disk->transfer(the_disk, write, sector, transfer_page, count);
	proc_interrupt_end(began);
	return r;
}

static int32_t disk_read(const uint8_t *req, uint32_t len, uint8_t *reply, uint32_t *reply_len)
{
	uint64_t sector;
	uint32_t count;
	int32_t r = check_range(req, len, READ_MAX_SECTORS, &sector, &count);
	if (r == 0)
		r = disk_transfer(0, sector, count);
	if (r == 0) {
		memcpy(reply, transfer_page, count * DISK_SECTOR);
		*reply_len = count * DISK_SECTOR;
	}
	return r;
}

static int32_t disk_write(const uint8_t *req, uint32_t len)
{
	uint64_t sector;
	uint32_t count;
	int32_t r = check_range(req, len, WRITE_MAX_SECTORS, &sector, &count);
	if (r < 0)
		return r;
	if (len != KR_DISK_HEADER + count * DISK_SECTOR)
		return E_BADREQ;
	memcpy(transfer_page, req + KR_DISK_HEADER, count * DISK_SECTOR);
	return disk_transfer(1, sector, count);
}

int32_t disk_service(struct proc *p, const struct link *via, uint32_t kind, const uint8_t *req,
		     uint32_t len, const struct link *passed, uint8_t *reply, uint32_t *reply_len,
		     struct link *reply_link)
{
	(void)p; (void)passed;
	if (!the_disk)
		return E_BADREQ;
	if (kind == KR_DISKLINK) {
		if (!(via->rights & LINK_KCTL))
			return E_RIGHTS;
		*reply_link = (struct link){ .in_use = 1, .task = TASK_OF(node_id, KERNEL_PID), .rights = LINK_KDISK };
		return 0;
	}
	if (!(via->rights & LINK_KDISK))
		return E_RIGHTS;
	switch (kind) {
	case KR_DISK_INFO:
		memcpy(reply, &the_disk->sectors, 8);
		*reply_len = 8;
		return 0;
	case KR_DISK_READ:
		return disk_read(req, len, reply, reply_len);
	case KR_DISK_WRITE:
		return disk_write(req, len);
	}
	return E_BADREQ;
}
