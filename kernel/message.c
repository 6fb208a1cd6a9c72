/*
 * kernel/message.c - the node's messages as objects: the one pool of
 * message headers (NMSG, capacities.h), each message's data page, and
 * message identities unique in the cluster.  Below both ipc.c (which
 * queues and hands over messages) and remote.c (which carries them to
 * other nodes), so neither needs the other to make or release one.
 */
#include "kernel.h"
#include "vtime.h"

struct msg_pool msgpool;
uint64_t next_msg_id = 1; /* msg_skip_id, inline (kernel.h), steps it too */

uint64_t msg_new_id(void)
{
	return ((uint64_t)node_id << 48) | next_msg_id++;
}

/* Fill header m (just taken) with a copy of src; NULL and m given back
 * when that fails.  Inlined: every send makes a message. */
static inline __attribute__((always_inline)) struct kmsg *fill(struct kmsg *m, struct proc *from, uint32_t from_task, uint32_t to_task,
			 const void *src, uint32_t len, int32_t *err)
{
	if (!m) {
		*err = E_NOMEM;
		return NULL;
	}
	if (len) {
		m->data = palloc_unzeroed();
		if (!m->data) {
			msgpool_put(&msgpool, m);
			*err = E_NOMEM;
			return NULL;
		}
		if (from) {
			if (copy_from_user(from, m->data, (uint32_t)(uintptr_t)src, len) < 0) {
				msg_release(m);
				*err = E_BADADDR;
				return NULL;
			}
			vtime_spin(vtime_copy_ns(len)); /* the sender's own call */
		} else {
			memcpy(m->data, src, len);
		}
	}
	m->from = from_task;
	m->to = to_task;
	m->len = len;
	m->id = msg_new_id();
	return m;
}

struct kmsg *msg_new(struct proc *from, uint32_t from_task, uint32_t to_task,
		     const void *src, uint32_t len, int32_t *err)
{
	return fill(msgpool_get(&msgpool), from, from_task, to_task, src, len, err);
}

struct kmsg *msg_make(uint32_t from, uint32_t to, const void *data, uint32_t len, int32_t *err)
{
	return msg_new(NULL, from, to, data, len, err);
}

struct kmsg *msg_make_credited(uint32_t node, uint32_t from, uint32_t to, const void *data,
			       uint32_t len, int32_t *err)
{
	return fill(msgpool_get_reserved(&msgpool, node), NULL, from, to, data, len, err);
}
