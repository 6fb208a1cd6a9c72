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
	                       each) of the nodes whose agents are connected */
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

#endif
