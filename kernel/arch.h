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

/* Stop the machine; under QEMU the host sees `code`. */
void arch_poweroff(int code) __attribute__((noreturn));

/* Address spaces: an opaque handle (0 = failure). The kernel is mapped in
 * every address space, supervisor-only. */
uintptr_t arch_aspace_create(void);
void arch_aspace_destroy(uintptr_t as);
/* Map one physical page (a kernel pointer from palloc) at user address va. */
int arch_aspace_map(uintptr_t as, uint32_t va, void *page, int writable);
/* Kernel pointer to the byte at user address va, or NULL when va is not
 * mapped for the user (or not writable when `write`). */
void *arch_aspace_lookup(uintptr_t as, uint32_t va, int write);

/* Process contexts. */
int arch_proc_setup(struct proc *p, uint32_t entry, uint32_t user_sp);
void arch_switch_to(struct proc *p);   /* run p until it gives the CPU back */
void arch_switch_away(struct proc *p); /* give the CPU back to the scheduler */
void arch_wait_for_interrupt(void);    /* idle until something happens */
void arch_proc_release(struct proc *p); /* free what arch_proc_setup made */

#endif
