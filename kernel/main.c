/*
 * kernel/main.c - bringing a node up once arch/ has the machine ready:
 * the allocators, then the three processes the kernel starts itself:
 *   pm   (process manager)  links: 1 ns, 2 console, 3 kernel with LINK_KCTL
 *   ns   (name service)     links: 0 pm, 2 console
 *   init (starts the rest)  links: 0 pm, 1 ns, 2 console, 3 kernel with LINK_KPOWER
 * The command line holds kernel options (`node=N`) and init's arguments
 * (every other word).
 */
#include "kernel.h"
#include "net/net.h"

static char init_args[512];
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

static struct link link_to(uint32_t task, uint32_t rights)
{
	return (struct link){ .in_use = 1, .task = task, .rights = rights };
}

void kernel_main(const char *cmdline, uintptr_t mem_start, uintptr_t mem_end)
{
	parse_cmdline(cmdline);
	palloc_init(mem_start, mem_end);
	msgpool_init(&msgpool);
	proc_init();
	kprintf("DPM kernel: node %u, %u KiB free\n", node_id, palloc_free_pages() * 4);
	net_init();   /* network cards, lwIP, peer transport: docs/network.md */

	struct proc *pm = start("pm", "pm", 3);
	struct proc *ns = start("ns", "ns", 3);
	struct proc *init = start("init", init_args, init_args_len);
	uint32_t kernel = TASK_OF(node_id, KERNEL_PID);

	link_put(&pm->links, LINK_NS, &(struct link){ .in_use = 1, .task = ns->task });
	link_put(&pm->links, LINK_CONSOLE, &(struct link){ .in_use = 1, .task = kernel });
	link_put(&pm->links, 3, &(struct link){ .in_use = 1, .task = kernel, .rights = LINK_KCTL });
	link_put(&ns->links, LINK_PM, &(struct link){ .in_use = 1, .task = pm->task });
	link_put(&ns->links, LINK_CONSOLE, &(struct link){ .in_use = 1, .task = kernel });
	struct link l = link_to(pm->task, 0);
	link_put(&init->links, LINK_PM, &l);
	l = link_to(ns->task, 0);
	link_put(&init->links, LINK_NS, &l);
	l = link_to(kernel, 0);
	link_put(&init->links, LINK_CONSOLE, &l);
	l = link_to(kernel, LINK_KPOWER);
	link_put(&init->links, 3, &l);

	pm->stopped = ns->stopped = init->stopped = 0;
	scheduler();
}
