/*
 * kernel/main.c - bringing a node up once arch/ has the machine ready:
 * the allocators, then the three processes the kernel starts itself:
 *   pm   (process manager)  links: 1 ns, 2 console, 3 kernel with LINK_KCTL
 *   ns   (name service)     links: 0 pm, 2 console
 *   init (starts the rest)  links: 0 pm, 1 ns, 2 console, 3 kernel with LINK_KPOWER
 * and, on a node whose host= names a `ctl` service (the cluster's
 * controller), a fourth:
 *   ctld (controller's agent) links: 0 pm, 1 ns, 2 console,
 *                             3 kernel with LINK_KMETER | LINK_KHOST
 * The command line holds kernel options (`node=N`) and init's arguments
 * (every other word).  Every node runs a name service, but the cluster
 * uses one: the lowest node's, so a name registered anywhere is found
 * everywhere.
 */
#include "kernel.h"
#include "kernel/net/hostlink.h"
#include "kernel/net/net.h"
#include "meter/ship.h"
#include "remote.h"
#include "vtime.h"
#include "vtime_config.h"
#include "kernel/net/vlink.h"

static char init_args[INIT_ARGS_MAX];
static uint32_t init_args_len;

static uint32_t parse_uint(const char *s)
{
	uint32_t v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (uint32_t)(*s++ - '0');
	return v;
}

/* Split the command line: its first word is the kernel's file name (the
 * multiboot convention), node=N is ours, the rest is init's argv. */
static void parse_cmdline(const char *cmdline)
{
	node_id = 1;
	memcpy(init_args, "init", 5);
	init_args_len = 5;
	const char *s = cmdline ? cmdline : "";
	while (*s && *s != ' ')
		s++;
	while (*s) {
		while (*s == ' ')
			s++;
		const char *w = s;
		while (*s && *s != ' ')
			s++;
		uint32_t n = (uint32_t)(s - w);
		if (n == 0)
			break;
		if (n > 5 && !strncmp(w, "node=", 5)) {
			node_id = parse_uint(w + 5);
		} else if (net_cmdline_option(w, n)) {
			/* network keys: docs/network.md */
		} else if (vtime_cmdline_option(w, n)) {
			/* vclock=: docs/virtual-time.md */
		} else if (vtime_config_option(w, n)) {
			/* vlat=, vbw=, vtx=, vrx=, vdisk=: the models */
		} else if (init_args_len + n + 1 <= sizeof init_args) {
			memcpy(init_args + init_args_len, w, n);
			init_args[init_args_len + n] = '\0';
			init_args_len += n + 1;
		}
	}
}

static struct proc *start(const char *prog, const char *args, uint32_t len)
{
	int err;
	struct proc *p = proc_create(prog, args, len, TASK_OF(node_id, KERNEL_PID), &err);
	if (!p)
		panic("cannot start %s: error %d", prog, err);
	return p;
}

static void give(struct proc *p, int slot, uint32_t task, uint32_t rights)
{
	struct link l = { .in_use = 1, .task = task, .rights = rights };
	link_put(&p->links, slot, &l, NULL); /* a new process's empty slot */
}

/* The name service is one for the cluster: on its lowest node. */
static uint32_t ns_node(void)
{
	uint32_t n = node_id;
	for (uint32_t i = 0; i < net_config.npeers; i++)
		if (net_config.peers[i] < n)
			n = net_config.peers[i];
	return n;
}

void kernel_main(const char *cmdline, uintptr_t mem_start, uintptr_t mem_end)
{
	parse_cmdline(cmdline);
	vtime_start();
	palloc_init(mem_start, mem_end);
	msgpool_init(&msgpool);
	ipc_init(kservice);
	proc_init();
	meter_ship_init();
	remote_init(&(struct remote_upcalls){ .deliver = ipc_deliver, .node_down = ipc_notify_node_down,
					     .reply_error = ipc_reply_error });
	kprintf("DPM kernel: node %u, %u KiB free\n", node_id, palloc_free_pages() * 4);
	net_init();   /* network cards, lwIP, peer transport: docs/network.md */
	vlink_start(); /* virtual time across nodes: docs/virtual-time.md */
	remote_credit_start(); /* ...its asynchronous SENDs: docs/remote.md */

	struct proc *pm = start("pm", "pm", 3);
	struct proc *ns = start("ns", "ns", 3);
	struct proc *init = start("init", init_args, init_args_len);
	uint32_t kernel = TASK_OF(node_id, KERNEL_PID);
	uint32_t names = TASK_OF(ns_node(), NS_PID);
	if (pm->pid != PM_PID || ns->pid != NS_PID)
		panic("pm and ns must be pids %u and %u", PM_PID, NS_PID);

	give(pm, LINK_NS, names, 0);
	give(pm, LINK_CONSOLE, kernel, 0);
	give(pm, 3, kernel, LINK_KCTL);
	give(ns, LINK_PM, pm->task, 0);
	give(ns, LINK_CONSOLE, kernel, 0);
	give(init, LINK_PM, pm->task, 0);
	give(init, LINK_NS, names, 0);
	give(init, LINK_CONSOLE, kernel, 0);
	give(init, 3, kernel, LINK_KPOWER);

	proc_set_stopped(pm, 0);
	proc_set_stopped(ns, 0);
	proc_set_stopped(init, 0);
	if (hostlink_port("ctl")) {
		static const char ctld_args[] = "ctld";
		struct proc *ctld = start("ctld", ctld_args, sizeof ctld_args);
		if (ctld->pid != CTLD_PID)
			panic("ctld must be pid %u", CTLD_PID);
		give(ctld, LINK_PM, pm->task, 0);
		give(ctld, LINK_NS, names, 0);
		give(ctld, LINK_CONSOLE, kernel, 0);
		give(ctld, 3, kernel, LINK_KMETER | LINK_KHOST);
		proc_set_stopped(ctld, 0);
	}
	scheduler();
}
