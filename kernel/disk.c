/*
 * kernel/disk.c - the node's disk behind kernel links.  In DEMOS the Disk
 * Interface process reaches the disk through a link to its kernel; here a
 * kernel link carrying LINK_KDISK admits the KR_DISK_* requests.  Only the
 * process manager (LINK_KCTL) can have such a link made (KR_DISKLINK); it
 * hands it on to whoever asks it (PM_DISKLINK, docs/fs.md).  Requests are
 * served synchronously: the data goes through one kernel page, and a read's
 * reply carries it.  A node without a disk answers E_BADREQ, as a kernel
 * built without this file would.
 *
 * In virtual time (docs/virtual-time.md §2.7) how long the device takes is
 * the host's business, so a request's time is the model's (vdisk.h): the
 * requester blocks (P_DISK) and other processes run; the device gets the
 * request at once (or when the one before it is done: one at a time); at
 * the modelled completion, a next-event source of vtime.c, the node waits
 * with its clock standing still until the device has finished, then wakes
 * the requester, which takes its page and replies.  Each request has a
 * page of its own (the kernel's request and reply buffers serve other
 * processes meanwhile); a requester that ended meanwhile gets nothing, its
 * page is freed.
 */
#include "kernel.h"
#include "disk.h"
#include "vdisk.h"
#include "vtime.h"
#include "vtime_config.h"

#define READ_MAX_SECTORS (DISK_MAX_BYTES / DISK_SECTOR)
#define WRITE_MAX_SECTORS ((MSG_MAX - KR_DISK_HEADER) / DISK_SECTOR)

static struct blockdev *the_disk;
static uint8_t transfer_page[DISK_MAX_BYTES] __attribute__((aligned(4096)));

/* Virtual time: the model and the requests in issue order; the head's is
 * with the device. */
static struct vdisk vdisk;
_Static_assert(VDISK_QUEUE >= NPROC, "one request per process must always fit");

static uint64_t vdisk_source_next(uint64_t now)
{
	(void)now;
	return vdisk_next(&vdisk);
}

static void vdisk_source_due(uint64_t now);

void disk_register(struct blockdev *b)
{
	if (the_disk) {
		kprintf("disk: %s: the node already has a disk; ignored\n", b->driver_name);
		return;
	}
	if (vtime_on && (!b->start || !b->finish)) {
		kprintf("disk: %s cannot start a request without waiting for it; no disk in virtual time\n",
			b->driver_name);
		return;
	}
	if (vtime_on) {
		vdisk_init(&vdisk, vtime_config.disk_latency_ns, vtime_config.disk_sector_ns);
		if (vtime_add_source(vdisk_source_next, vdisk_source_due) < 0) {
			kprintf("disk: no room for the disk among virtual time's event sources; no disk\n");
			return;
		}
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

/* Virtual time: hand r to the device (its page is the buffer); refused,
 * it fails at its modelled time all the same. */
static void vdisk_start(struct vdisk_req *r)
{
	r->refused = the_disk->start(the_disk, r->write, r->sector, r->page, r->count);
}

/* Virtual time, at a deadline: every request whose modelled completion
 * has come.  The device's end of it is waited for with the clock standing
 * still (the host's time, not the node's), the next request handed to the
 * device, and the requester, if it is still the one that asked, woken
 * with the page; else the page goes. */
static void vdisk_source_due(uint64_t now)
{
	struct vdisk_req *r;
	while ((r = vdisk_head(&vdisk)) && r->done_at <= now) {
		vtime_exclude_begin();
		int32_t result = r->refused ? r->refused : the_disk->finish(the_disk);
		struct vdisk_req *next = vdisk_second(&vdisk);
		if (next)
			vdisk_start(next);
		vtime_exclude_end();
		struct proc *p = r->who;
		if (p->task == r->task && p->state == P_DISK) {
			p->disk_buf = r->page;
			p->wake_result = result;
			proc_set_state(p, P_RUNNABLE);
		} else {
			pfree(r->page);
		}
		vdisk_pop(&vdisk);
	}
}

/* Virtual time: queue p's request, block until its modelled completion,
 * then take the page: a read's data goes to `reply`. */
static int32_t vdisk_request(struct proc *p, int write, uint64_t sector, uint32_t count,
			     const uint8_t *data, uint8_t *reply, uint32_t *reply_len)
{
	uint8_t *page = palloc_unzeroed();
	if (!page)
		return E_NOMEM;
	if (write)
		memcpy(page, data, count * DISK_SECTOR);
	struct vdisk_req r = { .who = p, .task = p->task, .write = write, .sector = sector,
			       .count = count, .page = page };
	if (vdisk_issue(&vdisk, vtime_now(), &r) < 0) {
		pfree(page);
		return E_NOMEM;
	}
	/* the device is idle when this is the only request; the deadline is
	 * armed again at the exclusion's end, the new completion included */
	vtime_exclude_begin();
	if (vdisk.len == 1)
		vdisk_start(vdisk_head(&vdisk));
	vtime_exclude_end();
	proc_set_state(p, P_DISK);
	proc_block();
	int32_t result = p->wake_result;
	page = p->disk_buf;
	p->disk_buf = NULL;
	if (result == 0 && !write) {
		memcpy(reply, page, count * DISK_SECTOR);
		*reply_len = count * DISK_SECTOR;
	}
	pfree(page);
	return result;
}

static int32_t disk_read(struct proc *p, const uint8_t *req, uint32_t len, uint8_t *reply, uint32_t *reply_len)
{
	uint64_t sector;
	uint32_t count;
	int32_t r = check_range(req, len, READ_MAX_SECTORS, &sector, &count);
	if (r == 0 && vtime_on)
		return vdisk_request(p, 0, sector, count, NULL, reply, reply_len);
	if (r == 0)
		r = disk_transfer(0, sector, count);
	if (r == 0) {
		memcpy(reply, transfer_page, count * DISK_SECTOR);
		*reply_len = count * DISK_SECTOR;
	}
	return r;
}

static int32_t disk_write(struct proc *p, const uint8_t *req, uint32_t len)
{
	uint64_t sector;
	uint32_t count;
	int32_t r = check_range(req, len, WRITE_MAX_SECTORS, &sector, &count);
	if (r < 0)
		return r;
	if (len != KR_DISK_HEADER + count * DISK_SECTOR)
		return E_BADREQ;
	if (vtime_on)
		return vdisk_request(p, 1, sector, count, req + KR_DISK_HEADER, NULL, NULL);
	memcpy(transfer_page, req + KR_DISK_HEADER, count * DISK_SECTOR);
	return disk_transfer(1, sector, count);
}

int32_t disk_service(struct proc *p, const struct link *via, uint32_t kind, const uint8_t *req,
		     uint32_t len, const struct link *passed, uint8_t *reply, uint32_t *reply_len,
		     struct link *reply_link)
{
	(void)passed;
	if (!the_disk)
		return E_BADREQ;
	if (kind == KR_DISKLINK) {
		if (!(via->rights & LINK_KCTL))
			return E_RIGHTS;
		if (!reply_link)
			return E_NOSPACE;  /* the caller has no free slot for it */
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
		return disk_read(p, req, len, reply, reply_len);
	case KR_DISK_WRITE:
		return disk_write(p, req, len);
	}
	return E_BADREQ;
}
