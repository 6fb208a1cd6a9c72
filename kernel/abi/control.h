/*
 * kernel/abi/control.h - the control protocol (docs/control.md): what
 * the controllers on the host (`dpm control`, `dpm record`), the cluster's
 * control hub (`dpm cluster hub`) and the agent on each node (ctld) say to
 * each other.  Shared verbatim by every end, so it holds only fixed-width
 * types; every word is little-endian on the wire (both machines and the
 * host are).
 *
 * A connection is a stream of frames: struct ctl_frame, then `len` bytes
 * of payload.  Requests carry an `id` chosen by the sender and are
 * answered by one CTL_REPLY with the same id; reports (CTL_END,
 * CTL_OUTPUT) come when they happen.
 *
 *   controller -> hub:  CTL_AUTH first (payload: the cluster's secret, as
 *                       the 64 hex digits of DIR/secret), then requests
 *                       with `node` set; the hub forwards them.
 *   hub -> controller:  CTL_REPLY to every request, CTL_END and CTL_OUTPUT
 *                       of the processes this controller created or
 *                       acquired.
 *   node -> hub:        CTL_HELLO first (node = its id), then replies and
 *                       reports.
 *   hub -> node:        the controllers' requests, ids renumbered.
 */
#ifndef DPM_CTL_PROTO_H
#define DPM_CTL_PROTO_H
#include <stdint.h>

#define CTL_MAGIC 0x4c544344u /* "DCTL" */
#define CTL_PAYLOAD_MAX 2048u
#define CTL_SECRET_HEX 64u    /* hex digits of the secret */
#define CTL_NAME_MAX 12u      /* a host service (filter) name, as in host= */

enum ctl_type {
	/* connection set-up */
	CTL_HELLO = 1,      /* node:  node = its id, a = the agent's task     */
	CTL_AUTH = 2,       /* controller: payload = the secret             */
	/* requests (answered by CTL_REPLY) */
	CTL_CREATE = 10,    /* node; a = meter flags; payload: filter\0prog\0arg\0...
	                       (filter "" = not metered).  Reply: task.  The
	                       process is left suspended, metered, with its
	                       standard I/O linked to the agent (input open) */
	CTL_SETMETER = 11,  /* node, task, a = flags; payload: filter ("" =
	                       metering off)                                  */
	CTL_START = 12,     /* node, task                                     */
	CTL_STOP = 13,      /* node, task                                     */
	CTL_KILL = 14,      /* node, task                                     */
	CTL_ACQUIRE = 15,   /* node, a = pid: a running process to meter.
	                       Reply: task                                     */
	CTL_INPUT = 16,     /* node, task; payload: bytes for its standard
	                       input (E_NOMEM: held input full, send later)   */
	CTL_INPUT_END = 17, /* node, task: its standard input ends            */
	CTL_MARK = 18,      /* node, a = token; payload: filter.  The node's
	                       traces for that filter are sent, then a MARK
	                       trace with the token                           */
	CTL_NODES = 19,     /* to the hub: reply payload = the ids (one byte
	                       each) of the nodes whose agents are connected,
	                       in increasing order */
	CTL_IDLE = 20,      /* controller -> hub, no reply: a = how many frames
	                       it has received; it has reacted to all of them
	                       and waits (virtual time, see below)            */
	CTL_NAME = 21,      /* node, task: reply payload = the name of the
	                       program the node's process manager created task
	                       from (also after it ended; E_DEAD: unknown)    */
	/* answers and reports */
	CTL_REPLY = 30,     /* id; a = status (0 or an E_* code), task        */
	CTL_END = 31,       /* task; a = enum exit_reason, b = exit status    */
	CTL_OUTPUT = 32,    /* task; payload: what the process wrote          */
};

struct ctl_frame {
	uint32_t magic;    /* CTL_MAGIC                                       */
	uint32_t type;     /* enum ctl_type                                   */
	uint32_t id;       /* request id (echoed by CTL_REPLY)                */
	uint32_t node;     /* the node a request is for / a HELLO is from     */
	uint32_t task;     /* (node << 16) | pid                              */
	uint32_t a;
	uint32_t b;
	uint32_t len;      /* payload bytes that follow, <= CTL_PAYLOAD_MAX   */
};

#define CTL_FRAME_SIZE 32u

/* CTL_AUTH's `a`: the controller is scripted (dpm record, dpm control -f):
 * it reacts only to what it receives and says CTL_IDLE whenever it has
 * reacted and waits, so on a cluster in virtual time its commands get
 * virtual times that depend only on what it received. */
#define CTL_AUTH_SCRIPTED 1u

/*
 * Virtual time (docs/virtual-time.md §2.6).  On a cluster in virtual time
 * with peers, the agent's gate to the hub carries envelopes, each a
 * struct ctl_envelope and `len` bytes, instead of bare bytes:
 *
 *   node -> hub:  CTL_ENV_DATA   time = the node clock when sent
 *                 CTL_ENV_PROMISE time = the node sends nothing before it
 *   hub -> node:  CTL_ENV_DATA   time = the node clock at which the node
 *                                takes the bytes (never below a grant)
 *                 CTL_ENV_GRANT  time = the hub sends nothing due before
 *                                it: the node may run up to it
 *
 * The kernel's host gate writes and reads them (kernel/hostin.c); the
 * agent sees bare bytes as before.  CTL_VT_LOOKAHEAD_NS is the hub's
 * lookahead: a command reacting to something a node sent at t is taken at
 * t + CTL_VT_LOOKAHEAD_NS, a node's tick (a scripted controller's
 * reaction time in node time).  It is also how far the hub's grant moves
 * a round trip while the cluster waits (docs/virtual-time.md §2.10): at
 * 1 ms an fs-study run's 4 ms disk waits cost four rounds through the hub
 * each, and the run 1.6x the host time.
 */
#define CTL_ENV_MAGIC 0x45544344u /* "DCTE" */
#define CTL_ENV_SIZE 24u
#define CTL_VT_LOOKAHEAD_NS 10000000ull

enum ctl_env_kind {
	CTL_ENV_DATA = 1,
	CTL_ENV_PROMISE = 2,
	CTL_ENV_GRANT = 3,
};

struct ctl_envelope {
	uint32_t magic;   /* CTL_ENV_MAGIC */
	uint32_t kind;    /* enum ctl_env_kind */
	uint32_t len;     /* bytes that follow (DATA only) */
	uint32_t zero;
	uint64_t time;    /* node clock, ns */
};

#endif
