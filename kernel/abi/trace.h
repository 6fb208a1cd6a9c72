/*
 * kernel/abi/trace.h - the meter trace record: the one record format shared by
 * the kernel's probes, the wire to the host, the filter and its log.
 *
 * Layout rules (why it is shaped so):
 *  - Every field is little-endian and naturally aligned at a fixed offset,
 *    so the record is the same bytes on i386 and ARM and the trace
 *    description file (kernel/abi/trace.desc, the thesis's Fig. 3.3 language)
 *    can name each field by offset and length.  A unit test checks the
 *    description against offsetof() field by field.
 *  - Header field names are the thesis's (machine, traceType, time,
 *    procTime) so its example selection rules work as written.
 *  - A task (process) address is cluster-wide: (node << 16) | pid, shown in
 *    base 16, so "20003" reads "node 2, process 3" as in the thesis.
 *  - A message identity (msgId) is (sender node << 48) | per-node counter;
 *    it appears on the SEND, QUEUED and RECEIVE traces of one message.
 */
#ifndef DPM_METER_TRACE_H
#define DPM_METER_TRACE_H

#include <stdint.h>

/* Trace types (traceType).  Numbers are part of the wire format. */
enum trace_type {
	TRACE_SEND = 1,          /* SENDMESSAGE (and the send half of CALL)    */
	TRACE_RECEIVECALL = 2,   /* a process asks to receive                   */
	TRACE_RECEIVE = 3,       /* a message is handed to the process          */
	TRACE_QUEUED = 4,        /* a message is put on the receiver's queue    */
	TRACE_CREATELINK = 5,
	TRACE_DESTROYLINK = 6,
	TRACE_MOVEDATA = 7,
	TRACE_CREATEPROCESS = 8,
	TRACE_TERMPROCESS = 9,
	TRACE_STARTPROCESS = 10,
	TRACE_STOPPROCESS = 11,
	TRACE_DROPPED = 12,      /* kernel had to drop traces; body says how many */
	TRACE_MARK = 13,         /* a synchronisation point the controller asked
	                            for (KR_METERMARK); not an event, no flag   */
	TRACE_TYPE_MAX = 13
};

/* Selection (meter) flags: bit (1 << traceType) per event type. */
#define METER_FLAG(type) (1u << (type))
#define METER_FLAGS_ALL  0x1ffeu /* types 1..12 */

#ifndef TASK_NODE
#define TASK_NODE(task) ((uint32_t)(task) >> 16)
#define TASK_PID(task)  ((uint32_t)(task) & 0xffffu)
#endif
#define TASK_MAKE(node, pid) (((uint32_t)(node) << 16) | ((uint32_t)(pid) & 0xffffu))

#define NO_LINK 0xffffffffu /* passLink when no link was passed */

/* Header: 40 bytes, common to every trace. */
struct trace_header {
	uint32_t machine;   /*  0 node id the trace came from               */
	uint32_t traceType; /*  4 enum trace_type                            */
	uint64_t time;      /*  8 node's local clock, ns since boot          */
	uint64_t procTime;  /* 16 CPU time of `task` so far, ns              */
	uint32_t seq;       /* 24 per-node trace sequence number             */
	uint32_t load;      /* 28 runnable processes on the node             */
	uint32_t task;      /* 32 the process the event happened to          */
	uint32_t size;      /* 36 bytes in the whole record, header included */
};

/* SEND: task == fromTask. */
struct trace_send {
	uint32_t fromTask;  /* 40 */
	uint32_t toTask;    /* 44 */
	uint32_t channel;   /* 48 channel of the link used                   */
	uint32_t code;      /* 52 the link's code (set by its creator)       */
	uint32_t sendLink;  /* 56 index of the link in the sender's table    */
	uint32_t passLink;  /* 60 index of the passed link, or NO_LINK       */
	uint64_t msgId;     /* 64 */
	uint32_t length;    /* 72 message bytes                              */
	uint32_t passTask;  /* 76 task the passed link names, or 0           */
};

/* QUEUED: on the receiver's node; task == toTask. */
struct trace_queued {
	uint32_t fromTask;  /* 40 */
	uint32_t toTask;    /* 44 */
	uint64_t msgId;     /* 48 */
	uint32_t length;    /* 56 */
	uint32_t queueLen;  /* 60 receiver's queue length after queueing     */
	uint32_t channel;   /* 64 channel of the link it was sent over        */
	uint32_t code;      /* 68 that link's code                            */
};

/* RECEIVECALL: task == toTask (the receiver). */
struct trace_receivecall {
	uint32_t toTask;    /* 40 */
	uint32_t queueLen;  /* 44 messages waiting when the call was made    */
	uint32_t blocking;  /* 48 1 RECEIVEMESSAGE/CALL, 0 ARECEIVEMESSAGE     */
	uint32_t pad;       /* 52 */
};

/* RECEIVE: task == toTask. */
struct trace_receive {
	uint32_t fromTask;  /* 40 */
	uint32_t toTask;    /* 44 */
	uint32_t channel;   /* 48 */
	uint32_t code;      /* 52 code of the link the message came over     */
	uint64_t msgId;     /* 56 */
	uint32_t length;    /* 64 */
	uint32_t passLink;  /* 68 index the passed link got here, or NO_LINK  */
	uint32_t queueLen;  /* 72 messages still waiting after this one      */
	uint32_t pad;       /* 76 */
};

/* CREATELINK / DESTROYLINK: task == the process whose table changed. */
struct trace_link {
	uint32_t link;      /* 40 index in task's link table                 */
	uint32_t toTask;    /* 44 task the link names                        */
	uint32_t code;      /* 48 */
	uint32_t channel;   /* 52 */
	uint32_t dataLen;   /* 56 bytes of data area, 0 if none               */
	uint32_t rights;    /* 60 LINK_READ | LINK_WRITE | ...               */
};

/* MOVEDATA: task == the process that made the call. */
struct trace_movedata {
	uint32_t fromTask;  /* 40 owner of the source data area              */
	uint32_t toTask;    /* 44 owner of the destination data area         */
	uint32_t fromLink;  /* 48 */
	uint32_t toLink;    /* 52 */
	uint32_t length;    /* 56 bytes moved                                */
	uint32_t status;    /* 60 0 or the (negative) error code             */
};

/* CREATEPROCESS / TERMPROCESS / STARTPROCESS / STOPPROCESS. */
struct trace_process {
	uint32_t parentTask; /* 40 creator (CREATE), or the agent (START/STOP) */
	uint32_t childTask;  /* 44 the process created/ended/started/stopped   */
	uint32_t reason;     /* 48 TERM: enum exit_reason; otherwise 0         */
	uint32_t status;     /* 52 TERM: exit status; otherwise 0              */
};

/* DROPPED: the kernel dropped `count` traces of this node since the last
 * DROPPED trace because the meter path was backed up. */
struct trace_dropped {
	uint32_t count;     /* 40 */
	uint32_t pad;       /* 44 */
};

/* MARK: task == the controller's agent that asked for it. */
struct trace_mark {
	uint32_t token;     /* 40 chosen by the controller                    */
	uint32_t pad;       /* 44 */
};

#define TRACE_HEADER_SIZE 40u
#define TRACE_MAX_SIZE    80u

/*
 * Meter batch on the wire (node -> filter, one TCP stream per node):
 *   struct meter_batch_header, then `count` records back to back, each
 *   starting with its trace_header (whose `size` gives its length).
 */
#define METER_BATCH_DEFAULT 32 /* traces per batch unless set */
#define METER_BATCH_MAX 48      /* 48 records of at most 80 bytes fit a message */
#define METER_BATCH_MAGIC 0x424d5044u /* "DPMB" little-endian */
#define METER_BATCH_VERSION 1u

struct meter_batch_header {
	uint32_t magic;     /* METER_BATCH_MAGIC */
	uint16_t version;   /* METER_BATCH_VERSION */
	uint16_t count;     /* records in this batch */
	uint32_t machine;   /* sending node */
	uint32_t bytes;     /* bytes of records following this header */
};

#endif
