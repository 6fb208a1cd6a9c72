/*
 * servers/lib/pm.h - the process manager's protocol and its client calls.
 * Requests are CALLs over the pm link (standard slot LINK_PM); replies are a
 * struct pm_reply.  Only the creator of a process may start, stop, kill it
 * or give it links.  A request about another node (PM_CREATE with `node`,
 * or a task there) is forwarded to that node's process manager, acting on
 * behalf of the requester, so a program controls processes anywhere the
 * same way.  When a process ends, the pm sends a struct
 * kr_exit_notice over the notify link its creator passed with PM_CREATE.
 */
#ifndef DPM_PM_H
#define DPM_PM_H
#include <stddef.h>
#include <stdint.h>

#include "kernel/abi/calls.h"

enum pm_op {
	PM_CREATE = 1,  /* args: "prog\0arg1\0..."; passed link: notify link (optional) */
	PM_START = 2,   /* start a created process, or resume a stopped one */
	PM_STOP = 3,
	PM_KILL = 4,
	PM_GIVELINK = 5, /* passed link goes into `slot` of `task` (-1: first free) */
	PM_SETMETER = 6, /* flags, batch; passed link: the meter link (optional
	                    when the process already has one) */
	PM_DISKLINK = 7, /* node (0: this one); the reply carries a kernel link
	                    with LINK_KDISK to that node's disk (docs/fs.md) */
	PM_NAME = 8      /* task (of this node): the name of the program this pm
	                    created it from, also after it ended (the newest
	                    PM_NAMES_KEPT creations are kept); anyone may ask */
};

#define PM_NAME_MAX 24     /* a program name, NUL included (the kernel's) */
#define PM_NAMES_KEPT 256

#define PM_ARGS_MAX 1024

struct pm_request {
	uint32_t op;
	uint32_t node;      /* PM_CREATE: where (0: this node)                 */
	uint32_t on_behalf; /* set by a forwarding process manager: the requester */
	uint32_t task;
	int32_t slot;
	uint32_t flags;
	uint32_t batch;   /* PM_SETMETER: traces per batch, 0 = default */
	uint32_t args_len;
	char args[PM_ARGS_MAX];
};

struct pm_reply {
	int32_t status;   /* 0 or an E_* code */
	uint32_t task;    /* PM_CREATE: the new process */
	int32_t slot;     /* PM_GIVELINK: where the link went */
	char name[PM_NAME_MAX]; /* PM_NAME: the program's name */
};

#define PM_REQUEST_HEADER ((uint32_t)(sizeof(struct pm_request) - PM_ARGS_MAX))

/* Create `argv[0]` with its arguments, suspended; *task gets its address.
 * notify_link (or -1) receives a kr_exit_notice when it ends. */
int pm_create(const char *const argv[], int notify_link, uint32_t *task);
/* The same on node `node` (0: this node). */
int pm_create_on(uint32_t node, const char *const argv[], int notify_link, uint32_t *task);
int pm_start(uint32_t task);
int pm_stop(uint32_t task);
int pm_kill(uint32_t task);
int pm_givelink(uint32_t task, int slot, int link);
/* Meter `task`: trace the events in `flags` (METER_FLAG(type) bits) in
 * batches of `batch` (0: default) over meter_link (-1: keep its link). */
int pm_setmeter(uint32_t task, uint32_t flags, int meter_link, uint32_t batch);
/* A kernel link with LINK_KDISK to node `node`'s disk (0: this node): its
 * index, or an E_* code (E_BADREQ: that node has no disk).  Any process may
 * ask: the disk is as open as the file system servers that use it. */
int pm_disklink(uint32_t node);
/* The name of the program `task` (a process of this node) was created
 * from by this node's pm, into name (size bytes): 0, or E_DEAD when the pm
 * does not know it (not created by it, or too long ago). */
int pm_name(uint32_t task, char *name, size_t size);
/* Create and start; returns as pm_create. */
int pm_spawn(const char *const argv[], int notify_link, uint32_t *task);
/* Wait on notify_link's code for the notice about `task`; 0 and *notice. */
int pm_wait(uint32_t task, struct kr_exit_notice *notice);
#endif
