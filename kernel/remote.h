/*
 * kernel/remote.h - links across nodes: how the kernel carries messages,
 * replies, passed links and MOVEDATA to a process on another node, over the
 * peer transport (kernel/net/peer.h).  docs/remote.md has the protocol.
 *
 * The wire format uses only 32-bit little-endian fields, so it is the same
 * bytes on i386 and ARM (whose ABIs align 64-bit fields differently).
 */
#ifndef DPM_REMOTE_H
#define DPM_REMOTE_H
#include "kernel.h"

enum rm_kind {
	RM_MSG = 1,    /* a message for a process on the receiving node          */
	RM_ACK = 2,    /* the answer to a request (req != 0): status, data       */
	RM_READ = 3,   /* MOVEDATA: send back `len` bytes at `addr` of `to`      */
	RM_WRITE = 4,  /* MOVEDATA: write the data at `addr` of `to`             */
	RM_REPLYMOVED = 5, /* the reply link `link` of caller `to` is now held by `from` */
	RM_CREDIT = 6, /* virtual time: only `credit`, credits given back           */
};

#define RM_F_LINK  0x1u  /* a passed link is in `link`                   */
#define RM_F_REPLY 0x2u  /* a CALL's reply link is in `reply`            */
#define RM_F_METER 0x4u  /* a batch of traces (never itself traced)      */
#define RM_F_FORCE 0x8u  /* a kernel notice: admitted past QUEUE_MAX     */
#define RM_F_CREDIT 0x10u /* virtual time: sent on a credit, no answer    */

struct rm_link {
	uint32_t task, code, rights, data, data_len, reply_id, hops;
};

struct rm_frame {
	uint32_t kind;
	uint32_t req;        /* sender node's request number; 0: no answer wanted */
	int32_t status;      /* RM_ACK: the result; RM_MSG: an error reply's status */
	uint32_t from, to;   /* tasks: sender and receiver, or caller and owner */
	uint32_t code, len, reply_id;
	uint32_t id_lo, id_hi;
	uint32_t flags;
	uint32_t addr;       /* RM_READ / RM_WRITE: address in the owner       */
	struct rm_link link, reply;
	uint32_t credit;     /* virtual time: the sender's count of credited
	                        messages from the receiver consumed so far */
};

/* What remote.c passes up to ipc.c (which it does not call by name):
 * deliver a message from another node to a process here (consumes m; the
 * result goes back to the sender), tell the process manager that `node`
 * went down, and send a CALLer the error reply for a request discarded
 * here.  Given once at boot, before the network starts. */
struct remote_upcalls {
	int32_t (*deliver)(struct proc *sender, struct kmsg *m, int force); /* sender: NULL */
	void (*node_down)(uint32_t node);
	void (*reply_error)(const struct link *reply, int32_t status);
};
/* Also gives the peer transport and the network its upcalls (a frame, a
 * node's end, room in a send buffer). */
void remote_init(const struct remote_upcalls *up);

/* Send m (which names a process on another node) and wait until that
 * node's kernel has queued it or refused it; consumes m; the result is the
 * one a local send would give, or E_NODEDOWN.  In virtual time with peers
 * (remote_credit_start) it waits only for a credit and returns once the
 * frame is out: 0, or E_NODEDOWN; the receiving kernel discards what it
 * cannot deliver (docs/remote.md). */
int32_t remote_send_msg(struct proc *sender, struct kmsg *m);
/* The same without waiting, for messages the kernel sends (notices, error
 * replies, meter batches); consumes m. */
int32_t remote_post(struct kmsg *m);
/* MOVEDATA halves with an area on another node; they block the caller. */
int32_t remote_read(struct proc *caller, const struct link *area, uint32_t off, uint8_t *buf, uint32_t n);
int32_t remote_write(struct proc *caller, const struct link *area, uint32_t off, const uint8_t *buf, uint32_t n);
/* Virtual time with peers, after vlink_start and before any process runs:
 * SENDs to other nodes become asynchronous with credits (REMOTE_CREDIT
 * message headers reserved per peer).  Nothing otherwise. */
void remote_credit_start(void);
/* Every clock tick: tell each peer the credits given back since its last
 * frame (the ones below the batch that goes at once). */
void remote_tick(void);
/* Whether `node` is this one or a peer not known to be down. */
int remote_node_alive(uint32_t node);
#endif
