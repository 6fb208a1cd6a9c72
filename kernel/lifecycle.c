/*
 * kernel/lifecycle.c - a process's life: creation from a boot-image program
 * (address space, program, stack with argc/argv) and its end (meter flush,
 * links and queue released, memory freed, the process manager told).
 * Above ipc.c and the meter, which it calls; below the callers that start
 * and end processes (kernel_main, kservice.c's create and kill, STOPTASK,
 * the arch's fault handlers).  The table and scheduler are proc.c's.
 */
#include "kernel.h"
#include "kernel/abi/names.h"
#include "meter/meter.h"

static uint16_t next_pid = 1;

static uint16_t alloc_pid(void)
{
	for (;;) {
		uint16_t pid = next_pid++;
		if (next_pid == 0)
			next_pid = 1;
		if (pid == KERNEL_PID)
			continue;
		if (!proc_pid_used(pid))
			return pid;
	}
}

/* Map the user stack and copy argc/argv onto it: `args` holds args_len
 * bytes of NUL-terminated strings, argv[0] first.  Returns the user sp. */
static int setup_stack(struct proc *p, const char *args, size_t args_len, uint32_t *sp_out)
{
	for (uint32_t i = 1; i <= USER_STACK_PAGES; i++)
		if (user_map_zeroed(p, USER_STACK_TOP - i * PAGE, 1) < 0)
			return E_NOMEM;
	uint32_t argc = 0;
	for (size_t i = 0; i < args_len; i++)
		argc += args[i] == '\0';
	if (args_len > 2048 || argc > 64)
		return E_INVAL;
	uint32_t strings = (USER_STACK_TOP - args_len - 16) & ~3u;
	uint32_t argv = strings - 4 * (argc + 1);
	uint32_t sp = argv - 8;
	if (copy_to_user(p, strings, args, args_len) < 0)
		return E_NOMEM;
	uint32_t off = 0;
	for (uint32_t i = 0; i < argc; i++) {
		uint32_t ptr = strings + off;
		copy_to_user(p, argv + 4 * i, &ptr, 4);
		off += strnlen(args + off, args_len - off) + 1;
	}
	uint32_t zero = 0;
	copy_to_user(p, argv + 4 * argc, &zero, 4);
	copy_to_user(p, sp, &argc, 4);
	copy_to_user(p, sp + 4, &argv, 4);
	*sp_out = sp;
	return 0;
}

static void proc_free_memory(struct proc *p)
{
	if (p->remote_buf)
		pfree(p->remote_buf);
	p->remote_buf = NULL;
	/* held by a remote send or MOVEDATA the process was killed in */
	if (p->remote_msg)
		msg_release(p->remote_msg);
	p->remote_msg = NULL;
	if (p->move_buf)
		pfree(p->move_buf);
	p->move_buf = NULL;
	if (p->disk_buf)
		pfree(p->disk_buf);
	p->disk_buf = NULL;
	if (p->aspace)
		arch_aspace_destroy(p->aspace);
	p->aspace = 0;
}

/* Create a suspended process running boot-image program `prog`. */
struct proc *proc_create(const char *prog, const char *args, size_t args_len, uint32_t parent, int *err)
{
	const struct boot_program *bp = bootimage_find(prog);
	if (!bp) {
		*err = E_NOPROG;
		return NULL;
	}
	struct proc *p = NULL;
	for (int i = 0; i < NPROC && !p; i++)
		if (proctab[i].state == P_FREE)
			p = &proctab[i];
	if (!p) {
		*err = E_NOMEM;
		return NULL;
	}
	memset(p, 0, sizeof *p);
	proc_take_slot(p, alloc_pid());
	p->parent = parent;
	size_t n = strnlen(prog, sizeof p->name - 1);
	memcpy(p->name, prog, n);
	p->aspace = arch_aspace_create();
	uint32_t entry, sp;
	int r = p->aspace ? elf_load(p, bp->start, (size_t)(bp->end - bp->start), &entry) : E_NOMEM;
	if (r == 0)
		r = setup_stack(p, args, args_len, &sp);
	if (r == 0 && !(p->kstack = palloc()))
		r = E_NOMEM;
	if (r == 0)
		arch_proc_setup(p, entry, sp);
	if (r < 0) {
		proc_free_memory(p);
		proc_set_free(p);
		*err = r;
		return NULL;
	}
	p->meter_dest = -1;
	p->stopped = 1;
	proc_set_state(p, P_RUNNABLE);
	return p;
}

/* End p: release its memory, links and queue, answer CALLs it can no
 * longer answer, and tell the process manager why it ended. */
void proc_exit(struct proc *p, uint32_t reason, int32_t status, uint32_t fault_addr, uint32_t fault_pc)
{
	if (p->state == P_FREE || p->state == P_ZOMBIE)
		return;
	if (reason >= EXIT_FAULT_MEMORY && reason <= EXIT_FAULT_OTHER)
		kprintf("[node %u] process %u (%s) ended: %s at pc 0x%x addr 0x%x\n",
			node_id, p->pid, p->name, abi_exit_reason_name(reason), fault_pc, fault_addr);
	if (METERED(p, TRACE_TERMPROCESS))
		meter_process(p, TRACE_TERMPROCESS, p->parent, p->task, reason, status);
	meter_flush_proc(p);
	proc_set_state(p, P_ZOMBIE);
	alarm_release(p);
	ipc_release_process(p);
	proc_free_memory(p);
	struct kr_exit_notice notice = {
		.kind = KR_NOTIFY, .task = p->task, .reason = reason, .status = status,
		.fault_addr = fault_addr, .fault_pc = fault_pc,
	};
	ipc_notify_exit(&notice);
	if (p == current) {
		arch_switch_away(p);
	} else {
		proc_kstack_free(p);
		proc_set_free(p);
	}
}

void kernel_user_fault(uint32_t reason, uint32_t addr, uint32_t pc)
{
	if (reason == EXIT_FAULT_MEMORY && addr < USER_STACK_TOP - USER_STACK_PAGES * PAGE &&
	    addr >= USER_STACK_TOP - (USER_STACK_PAGES + 256) * PAGE)
		reason = EXIT_FAULT_STACK;
	proc_exit(current, reason, -1, addr, pc);
}
