/*
 * kernel/abi/calls.h - the kernel-call interface as a process sees it: call
 * numbers, argument structures, error codes, link rights, and the requests
 * a kernel link accepts.  Shared verbatim by the kernel and user programs;
 * docs/kernel-calls.md gives the exact semantics of each call.
 *
 * Every call returns a 32-bit signed result: >= 0 success, < 0 one of the
 * E_* codes below.  No call ever crashes the kernel on bad arguments.
 */
#ifndef DPM_KERNEL_ABI_H
#define DPM_KERNEL_ABI_H
#include <stdint.h>

/* Kernel calls.  x86: int $0x80, call number in eax, arguments in ebx ecx
 * edx esi edi ebp, result in eax; ARM: svc, number in r7, arguments in
 * r0-r5, result in r0.  The receives (RECEIVEMESSAGE, ARECEIVEMESSAGE,
 * CALL, REPLYRECEIVE) take their buffer in registers and give back what
 * they received in registers too (struct kcall_received, below): no
 * struct message passes between a process and the kernel.  Every other
 * call leaves every register but the result as it was. */
enum kcall {
	K_CREATELINK = 1,      /* (struct createlink_args *)             -> link  */
	K_DESTROYLINK = 2,     /* (link)                                  -> 0     */
	K_SENDMESSAGE = 3,     /* (link, buf, len, passlink)              -> 0     */
	K_RECEIVEMESSAGE = 4,  /* (buf, buf_len)                -> len, received */
	K_ARECEIVEMESSAGE = 5, /* (buf, buf_len)                -> len, received */
	K_CALL = 6,            /* (link, buf, len, passlink, rbuf, rbuf_len) -> len, received */
	K_MOVEDATA = 7,        /* (struct movedata_args *)                -> bytes */
	K_STOPTASK = 8,        /* (status)                                never returns */
	K_NULL = 9,            /* ()  does nothing; measures the bare call cost -> 0 */
	K_REPLYRECEIVE = 10,   /* (link, buf, len, passlink, rbuf, rbuf_len) SENDMESSAGE,
	                          then (only if it sent) RECEIVEMESSAGE -> len, received */
	K_NCALLS
};

/* What a receive gives back beside its result, in the registers after the
 * result's: x86 ebx ecx edx esi edi, ARM r1-r5, in this order.  Written
 * when the result is >= 0 or E_TRUNC; after any other result these
 * registers hold nothing of meaning.  servers/lib's wrappers copy them
 * into the caller's struct message. */
struct kcall_received {
	uint32_t len;       /* bytes of data in the message                    */
	uint32_t code;      /* code of the link it was sent over               */
	int32_t passed;     /* index of the passed link, or -1                 */
	int32_t reply;      /* index of the one-time reply link, or -1         */
	uint32_t from;      /* task of the sender (node << 16 | pid)           */
};
#define KCALL_WORDS 6     /* argument registers; also result + received    */

/* Error codes. */
enum kerror {
	E_OK = 0,
	E_BADCALL = -1,     /* no such kernel call                             */
	E_BADADDR = -2,     /* a pointer or buffer is not in the caller's memory */
	E_BADLINK = -3,     /* link index out of range or not in use           */
	E_RIGHTS = -4,      /* the link does not carry the needed right        */
	E_TOOBIG = -5,      /* message longer than MSG_MAX                     */
	E_NOSPACE = -6,     /* link table full                                 */
	E_QUEUEFULL = -7,   /* receiver's queue at QUEUE_MAX; message not sent  */
	E_NOMEM = -8,       /* kernel message pool or memory exhausted         */
	E_DEAD = -9,        /* the process the link names has ended            */
	E_WOULDBLOCK = -10, /* ARECEIVEMESSAGE: no message waiting             */
	E_BOUNDS = -11,     /* MOVEDATA outside a link's data area             */
	E_INVAL = -12,      /* an argument is out of its documented range      */
	E_NOPROG = -13,     /* no program of that name in the boot image       */
	E_NODEDOWN = -14,   /* the node the link names cannot be reached       */
	E_BADREQ = -15,     /* a kernel-link request that is malformed         */
	E_STATE = -16,      /* process is not in a state that allows the request */
	E_TRUNC = -17,      /* message did not fit the receive buffer (truncated) */
	E_NONAME = -18      /* name service: nothing registered under the name */
};

#define MSG_MAX 4096      /* bytes of data in one message                  */
#define QUEUE_MAX 64      /* messages waiting for one process              */
#define NLINK 64          /* links in one process's link table             */

/* Link rights (createlink_args.rights and struct link). */
#define LINK_READ   0x1u  /* MOVEDATA may read the data area               */
#define LINK_WRITE  0x2u  /* MOVEDATA may write the data area              */
#define LINK_REPLY  0x4u  /* one-time reply link (made by CALL; not settable) */
#define LINK_KCTL   0x8u  /* kernel link: process control (process manager) */
#define LINK_KPOWER 0x10u /* kernel link: power off the node (init)         */
#define LINK_KDISK  0x20u /* kernel link: the node's disk (a Disk Interface) */
#define LINK_KMETER 0x40u /* kernel link: meter any process of the node, marks
                             (the controller's agent, ctld) */
#define LINK_KHOST  0x80u /* kernel link: open host gates (ctld)              */

struct createlink_args {
	uint32_t code;      /* delivered with every message sent over the link */
	uint32_t data;      /* start of a data area in the caller, or 0        */
	uint32_t data_len;  /* its length in bytes (0: no data area)           */
	uint32_t rights;    /* LINK_READ | LINK_WRITE                          */
};

/* A received message as servers/lib's receivemessage, areceivemessage,
 * call and replyreceive take it: buf and buf_len go to the kernel in
 * registers, the out fields come back in registers (struct
 * kcall_received) and the wrapper stores them here. */
struct message {
	void *buf;          /* in:  where to put the data                      */
	uint32_t buf_len;   /* in:  its size                                   */
	uint32_t len;       /* out: bytes of data in the message               */
	uint32_t code;      /* out: code of the link it was sent over          */
	int32_t passed;     /* out: index of the passed link, or -1            */
	int32_t reply;      /* out: index of the one-time reply link (the
	                       message came from a CALL), or -1                */
	uint32_t from;      /* out: task of the sender (node << 16 | pid)      */
};

struct movedata_args {
	uint32_t from_link; /* link whose data area is read                    */
	uint32_t from_off;  /* offset into it                                  */
	uint32_t to_link;   /* link whose data area is written                 */
	uint32_t to_off;
	uint32_t len;
};

/* Standard link slots every process manager-created process starts with. */
#define LINK_PM      0  /* the process manager                             */
#define LINK_NS      1  /* the name service                                */
#define LINK_CONSOLE 2  /* this node's kernel (console, time, memory)      */
#define LINK_STDIO   3  /* standard input and output, when the controller's
                           agent gave one (servers/lib/stdio_proto.h); user
                           processes only: the kernel's own use slot 3 for
                           their privileged kernel link */
#define LINK_FIRST_FREE 4

/* Pids the kernel gives the processes it starts itself, on every node
 * (init is 3; ctld, the controller's agent, 4 when the node has a `ctl`
 * host service). */
#define PM_PID 1
#define NS_PID 2
#define CTLD_PID 4

/* Requests understood by a kernel link: the first word of the message. */
enum kreq {
	KR_CONSOLE_WRITE = 1, /* data: bytes to print                          */
	KR_TIME = 2,          /* reply: uint64 node clock ns, uint64 own cpu ns */
	KR_BRK = 3,           /* arg: new program break; reply: the break      */
	KR_NODE = 4,          /* reply: node id, number of runnable processes  */
	KR_METERSTATS = 5,    /* reply: traces made, batches sent, dropped, held,
	                         messages discarded on arrival (meter/batch.h) */
	KR_HOSTMETER = 6,     /* name (12 bytes); reply carries a meter link to
	                         that host service (a filter) */
	KR_ALARM = 7,         /* ms, code: after ms the kernel sends the caller a
	                         message with that code (struct kr_alarm) */
	KR_KSTATS = 9,        /* task (0 or absent: the caller); reply: struct
	                         kr_kstats, the node's free resources and that
	                         process's use of them against its quotas */
	/* LINK_KMETER only: */
	KR_METERMARK = 8,     /* name (12 bytes), token: a MARK trace with the
	                         token goes to that host service (a filter)
	                         after every trace held for it */
	/* LINK_KCTL only: */
	KR_CREATE = 16,       /* prog name\0args\0...; reply: task (suspended) */
	KR_GIVELINK = 17,     /* task, slot: passed link goes into task's slot */
	KR_START = 18,        /* task                                          */
	KR_STOP = 19,         /* task                                          */
	KR_KILL = 20,         /* task                                          */
	KR_NOTIFY = 21,       /* passed link: where the kernel reports ends    */
	KR_SETMETER = 22,     /* task, flags, batch (passed link = meter link);
	                         also with LINK_KMETER                          */
	KR_PROCINFO = 23,     /* task; reply: struct kr_procinfo; also with
	                         LINK_KMETER                                    */
	KR_PMLINK = 24,       /* node; reply carries a link to that node's pm  */
	KR_REMOTECREATED = 25, /* creator, child: a pm created creator's child on
	                          another node; reply: flags, batch and (passed)
	                          the creator's meter link, to meter the child */
	/* LINK_KPOWER only: */
	KR_POWEROFF = 32,     /* exit code                                     */
	/* 40..47: the disk (kernel/disk.c), 48..55: host gateway; served by
	 * device services in their own files through kdevice_service() */
	KR_DEVICE_FIRST = 40,
	/* the node's disk (kernel/disk.c, docs/fs.md); LINK_KDISK only: */
	KR_DISK_FIRST = 40,
	KR_DISK_INFO = 40,    /* reply: uint64 sectors (512 bytes each)        */
	KR_DISK_READ = 41,    /* uint32 sector lo, hi, count (1..8); reply: data */
	KR_DISK_WRITE = 42,   /* uint32 sector lo, hi, count (1..7), then data  */
	KR_DISKLINK = 47,     /* LINK_KCTL only: reply carries a LINK_KDISK link */
	KR_DISK_LAST = 47,
	/* 48..55: the host gateway (kernel/hostgate.c, docs/control.md): a
	 * byte stream between a process and a host service; LINK_KHOST only */
	KR_HOSTGATE_FIRST = 48,
	KR_HOSTOPEN = 48,     /* name (12 bytes); reply: int32 gate          */
	KR_HOSTSEND = 49,     /* gate, then bytes: queued whole, or E_NOMEM  */
	KR_HOSTCLOSE = 50,    /* gate                                        */
	KR_HOSTGATE_LAST = 55,
	/* 56..63: other device services */
	KR_DEVICE_LAST = 63
};
/* Codes of the kernel's messages from an open gate: bytes from the host
 * service, and (empty) the end of the gate's connection. */
#define KR_HOSTGATE_DATA(gate) (0x48470000u | (uint32_t)(gate))
#define KR_HOSTGATE_END(gate)  (0x48450000u | (uint32_t)(gate))
#define KR_DISK_HEADER 16u    /* kind, sector lo, sector hi, count           */
#define E_DISKIO (-40)        /* KR_DISK_*: the device reported an error     */

/* Why a process ended (notifications, TERMPROCESS traces). */
enum exit_reason {
	EXIT_NORMAL = 0,    /* STOPTASK or return from main                    */
	EXIT_KILLED = 1,    /* killed through the process manager              */
	EXIT_FAULT_MEMORY = 2,
	EXIT_FAULT_ILLEGAL = 3,
	EXIT_FAULT_DIVIDE = 4,
	EXIT_FAULT_STACK = 5,
	EXIT_FAULT_OTHER = 6,
	EXIT_NODE_DOWN = 7
};

/* What the kernel sends over the notify link when a process ends. */
struct kr_exit_notice {
	uint32_t kind;      /* KR_NOTIFY */
	uint32_t task;
	uint32_t reason;    /* enum exit_reason */
	int32_t status;     /* STOPTASK status */
	uint32_t fault_addr;
	uint32_t fault_pc;
};

/* What the kernel sends over the notify link (the pm's) when another
 * node goes down: kind KR_NODE_DOWN. */
#define KR_NODE_DOWN 0x4e4f4445u
struct kr_node_down {
	uint32_t kind;      /* KR_NODE_DOWN */
	uint32_t node;
};

/* What an alarm delivers (KR_ALARM), with the code the caller chose. */
struct kr_alarm {
	uint32_t kind;      /* KR_ALARM */
	uint32_t code;
};

struct kr_procinfo {
	uint32_t task;
	uint32_t state;     /* enum proc_state */
	uint64_t cpu_ns;
	uint32_t queue_len;
	uint32_t links_used;
};

/* KR_KSTATS: what the kernel has left and what one process holds. */
struct kr_kstats {
	uint32_t free_pages;    /* pages free on the node                       */
	uint32_t free_headers;  /* message headers free (the reserve's included) */
	uint32_t alarms_in_use; /* alarms pending on the node                   */
	uint32_t task;          /* the process counted below                    */
	uint32_t msgs;          /* headers charged to it (queued messages it sent,
	                           its pending alarms and their messages)       */
	uint32_t pages;         /* pages mapped in it                           */
	uint32_t alarms;        /* its alarms pending                           */
	uint32_t links;         /* its link table's slots in use                */
	uint32_t queue_len;     /* messages waiting for it                      */
	uint32_t msg_quota, page_quota, alarm_quota; /* its limits               */
	uint32_t msg_reserve, page_reserve; /* headers, pages only the kernel's
	                           own traffic may take                         */
};

/* A task (process address) is (node << 16) | pid, valid cluster-wide. */
#define TASK_OF(node, pid) (((uint32_t)(node) << 16) | ((uint32_t)(pid) & 0xffffu))
#ifndef TASK_NODE
#define TASK_NODE(task) ((uint32_t)(task) >> 16)
#define TASK_PID(task)  ((uint32_t)(task) & 0xffffu)
#endif
/* User space (USER_BASE..USER_TOP, the stack below USER_STACK_TOP) is
 * per machine: docs/arm.md. */
#ifdef __arm__
#include "arch/arm/user/layout.h"
#else
#include "arch/x86/user/layout.h"
#endif

#endif
