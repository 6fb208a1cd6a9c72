/* arch/x86/machine.h - arch/x86's internal interfaces between its files. */
#ifndef DPM_X86_MACHINE_H
#define DPM_X86_MACHINE_H
#include <stdint.h>

void serial_init(void);
void pic_init(void);
void pic_eoi(uint32_t irq);
void pit_init(void);
int x86_tick_rearm(int from_user);            /* the timer interrupt: 1 when a tick is due */
void clock_calibrate(void);
void clock_set_ghz(void); /* the TSC counts nanoseconds: virtual time */
uint32_t clock_mhz(void);
void x86_irq_dispatch(uint32_t irq); /* irq.c: every IRQ but the timer */
uint32_t x86_irq_lines(void);       /* irq.c: bit n set, a handler on line n */

void cpu_tables_init(void);          /* GDT, TSS, IDT */
/* The one TSS (cpu.c); its esp0 is the running process's kernel stack,
 * set at every switch (inline: process.c's switches). */
struct x86_tss {
	uint32_t link, esp0, ss0, esp1, ss1, esp2, ss2, cr3, eip, eflags;
	uint32_t eax, ecx, edx, ebx, esp, ebp, esi, edi, es, cs, ss, ds, fs, gs, ldt;
	uint16_t trap, iomap;
} __attribute__((packed));
extern struct x86_tss x86_tss;
static inline void tss_set_kernel_stack(uint32_t esp0)
{
	x86_tss.esp0 = esp0;
}
void mmu_init(uintptr_t mem_end);
uint32_t mmu_kernel_pd(void);
#endif
