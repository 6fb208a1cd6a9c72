/*
 * meter/ship.c - where the meter's batches go: a batch for a process (a
 * filter on this or another node) is a message from the kernel (on this
 * node the message takes the batch's page: ship_local; to another node,
 * ipc_kernel_send); a batch for a host service (a meter link naming the
 * kernel, made by meter_host_link in meter.c) is bytes on the node's host
 * link to it.
 *
 * This is the top of the meter: it calls ipc.c, and ipc.c calls only the
 * probes (meter.c), which add to batches (batch.c) without sending.
 * batch.c reaches this file only through the ship function registered by
 * meter_ship_init, so no file below ipc.c calls back into it.
 */
#include "ship.h"
#include "batch.h"
#include "kernel/net/hostlink.h"
#include "kernel/net/net.h"
#include "kernel/vtime.h"

static int host_links[NET_MAX_HOST_SERVICES]; /* + 1: the link, 0: none open */

static void host_link_down(int link, void *arg)
{
	(void)link;
	host_links[(uintptr_t)arg] = 0; /* opened again by the next batch */
}

/* A batch to a filter on the host: bytes on the node's host link to the
 * service (the batch is already the wire format). */
static int32_t ship_to_host(uint32_t service, const void *bytes, uint32_t len)
{
	if (service >= net_config.nhost)
		return E_NODEDOWN;
	if (!host_links[service]) {
		struct hostlink_callbacks cb = { .down = host_link_down, .arg = (void *)(uintptr_t)service };
		int l = hostlink_open(net_config.host[service].name, &cb);
		if (l < 0)
			return E_NODEDOWN;
		host_links[service] = l + 1;
	}
	return hostlink_send(host_links[service] - 1, bytes, len);
}

/* A batch to a filter process on this node: the message is given the
 * batch's page itself (no copy) and the meter a fresh page.  Checked
 * first, as ipc_kernel_send checks a batch, so that a backed-up filter
 * leaves the page with the meter; once handed on it cannot be refused. */
static int32_t ship_local(const struct link *to, uint8_t **page, uint32_t len)
{
	struct proc *dest = proc_by_task(to->task);
	if (!dest)
		return E_DEAD;
	if (dest->queue.len >= QUEUE_MAX)
		return E_QUEUEFULL;
	if (!msgpool_room(&msgpool))
		return E_NOMEM;
	uint8_t *fresh = palloc_unzeroed();
	if (!fresh)
		return E_NOMEM;
	int32_t err;
	struct kmsg *m = msg_new(NULL, TASK_OF(node_id, KERNEL_PID), to->task, NULL, 0, &err);
	if (!m) {
		pfree(fresh);
		return err;
	}
	m->data = *page;
	m->len = len;
	m->code = to->code;
	m->is_meter = 1;
	*page = fresh;
	return ipc_deliver(NULL, m, 0) == 0 ? 0 : E_DEAD; /* the page has gone with it */
}

/* Another node's filter: its bytes are copied into frames anyway, and a
 * refused batch must stay held, so the page stays. */
static int32_t ship_now(const struct link *to, uint8_t **page, uint32_t len)
{
	if (TASK_PID(to->task) == KERNEL_PID)
		return ship_to_host(to->code, *page, len);
	if (TASK_NODE(to->task) == node_id)
		return ship_local(to, page, len);
	return ipc_kernel_send(to, *page, len, 1);
}

/* Virtual time: shipping is the host's business, so it is left out of the
 * node clock, and a backed-up batch is waited for rather than held: the
 * meter's state, and so every later trace, does not depend on the host
 * (docs/virtual-time.md §2.6). */
struct pending {
	const struct link *to;
	uint8_t **page;
	uint32_t len;
	int32_t r;
};

static int went(void *arg)
{
	struct pending *p = arg;
	p->r = ship_now(p->to, p->page, p->len);
	return p->r == 0 || p->r == E_DEAD || p->r == E_NODEDOWN;
}

static int32_t ship(const struct link *to, uint8_t **page, uint32_t len)
{
	if (!vtime_on)
		return ship_now(to, page, len);
	struct pending p = { to, page, len, 0 };
	vtime_exclude_begin();
	if (!went(&p))
		net_wait_until(went, &p);
	vtime_exclude_end();
	return p.r;
}

void meter_ship_init(void)
{
	batch_init(node_id, ship, palloc_unzeroed);
}
