/*
 * kernel/arch.h - the port layer: everything portable kernel code needs from
 * the machine, and nothing more.  arch/x86 (and later arch/arm) implement
 * it; kernel/ never touches hardware itself.
 */
#ifndef DPM_KERNEL_ARCH_H
#define DPM_KERNEL_ARCH_H
#include <stddef.h>
#include <stdint.h>

struct proc;

/* Console (UART). */
void arch_console_putc(char c);

/* The node's clock in ns since boot (monotonic). */
uint64_t arch_clock_ns(void);

/* Virtual time only (kernel/vtime.c): the node clock stands still from
 * pause to resume (its origin moves by the stretch), then jumps forward by
 * `advance_ns` (a modelled stretch), and the deadline is armed again; the
 * tick becomes one-shot deadlines in node-clock time (vtime_next_deadline,
 * vtime_deadline).  arch_wait_for_device: halt until a network card's
 * interrupt (or any other but the deadline's), with the clock standing
 * still; the cards' handlers may run meanwhile.  A host-time watchdog
 * (x86: the RTC's periodic interrupt, ARM: the PL031's alarm; both run on
 * QEMU's host clock, not the instruction counter) wakes it too: it returns
 * the milliseconds of host time the watchdog counted while it waited (0
 * when something else woke it); a watchdog period that ended before the
 * wait began is not counted. */
void arch_clock_pause(void);
/* arch_clock_resume: the clock runs again at node time at_ns (the pause's
 * reading plus advance_ns) with the deadline interrupt armed for
 * deadline_ns; everything but the timer's last writes is done before the
 * clock runs, so that re-arming costs the node next to nothing. */
void arch_clock_resume(uint64_t advance_ns, uint64_t at_ns, uint64_t deadline_ns);
void arch_tick_virtual(void);
uint32_t arch_wait_for_device(void);

/* Seconds of the host's clock (x86: the RTC's seconds, ARM: the PL031's
 * counter; QEMU runs both on its host clock, not the instruction counter),
 * modulo some wrap: only whether it changed means anything.  For bounds
 * on waits for a device, which take host time whatever the node clock
 * does (at shift=10 a bound in node nanoseconds is a thousandth of the
 * host time it is at shift=0). */
uint32_t arch_host_seconds(void);

/* Stop the machine; under QEMU the host sees `code`. */
void arch_poweroff(int code) __attribute__((noreturn));

/* Address spaces: an opaque handle (0 = failure). The kernel is mapped in
 * every address space, supervisor-only. */
uintptr_t arch_aspace_create(void);
void arch_aspace_destroy(uintptr_t as);
/* Map one physical page (a kernel pointer from palloc) at user address va:
 * 0, E_NOMEM (no page for a table) or E_INVAL (va is already mapped: a
 * present page is never replaced). */
int arch_aspace_map(uintptr_t as, uint32_t va, void *page, int writable);
/* Unmap the page at user address va: the page (for the caller to free),
 * or NULL when none was mapped. */
void *arch_aspace_unmap(uintptr_t as, uint32_t va);
/* Kernel pointer to the byte at user address va, or NULL when va is not
 * mapped for the user (or not writable when `write`). */
void *arch_aspace_lookup(uintptr_t as, uint32_t va, int write);

/* Process contexts. */
/* Lay out p's first trap frame and context on p->kstack (a page the
 * kernel gave it) so that switching to p "returns" to user mode at entry. */
void arch_proc_setup(struct proc *p, uint32_t entry, uint32_t user_sp);
void arch_switch_to(struct proc *p);   /* run p until it gives the CPU back */
void arch_switch_away(struct proc *p); /* give the CPU back to the scheduler */
/* from (running, in the kernel) gives the CPU straight to `to` (switched
 * out, by either of these or arch_switch_away), not through the scheduler:
 * to's kernel stack, address space and saved context; returns when
 * something switches back to from (kernel/fastpath.c). */
void arch_switch_direct(struct proc *from, struct proc *to);
void arch_wait_for_interrupt(void);    /* idle until something happens */
/* In a loop waiting for a device: the processor's spin-wait hint (x86
 * pause, ARM yield).  Under QEMU's TCG it also ends the current run of
 * translated code, so the emulator's own work (the device's I/O) goes on
 * while fewer guest instructions, and under -icount less node time, pass. */
void arch_cpu_relax(void);

/* Devices (network: docs/network.md).  arch_devices_init finds the
 * machine's devices and hands them to their drivers (arch/virtio). */
void arch_devices_init(void);
/* Run fn(arg) for every interrupt on `irq` (shared lines allowed) and
 * unmask the line; 0, E_INVAL or E_NOSPACE. */
int arch_irq_register(int irq, void (*fn)(void *), void *arg);
/* QEMU's firmware configuration device (fw_cfg; x86: I/O ports 0x510 and
 * 0x511, ARM virt: its MMIO registers): select item `key` for reading,
 * then read its bytes in order.  The items and their directory are the
 * kernel's business (kernel/fwcfg.c); no device reads as 0xff bytes. */
void arch_fwcfg_select(uint16_t key);
void arch_fwcfg_read(void *buf, uint32_t n);
/* Call fn(arg) on another stack (stack_top: its highest address). */
void arch_call_on_stack(void (*fn)(void *), void *arg, void *stack_top);

/* What the kernel offers the port layer: called on every timer interrupt
 * (100 Hz), in user mode or while idle, before any rescheduling. */
void kernel_timer_tick(void);

#endif
