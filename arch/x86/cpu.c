/*
 * arch/x86/cpu.c - the descriptor tables: a flat GDT with kernel and user
 * segments and one TSS (whose esp0 is the running process's kernel stack),
 * and the IDT: exceptions and IRQs enter at ring 0 only; vector 0x80, the
 * kernel-call gate, is the one a ring-3 process may raise.
 */
#include "kernel/kernel.h"
#include "trapframe.h"
#include "machine.h"

struct gdt_entry { uint16_t limit_lo, base_lo; uint8_t base_mid, access, gran, base_hi; } __attribute__((packed));
struct idt_entry { uint16_t off_lo, sel; uint8_t zero, type; uint16_t off_hi; } __attribute__((packed));
struct table_ptr { uint16_t limit; uint32_t base; } __attribute__((packed));

static struct gdt_entry gdt[6];
static struct idt_entry idt[256];
struct x86_tss x86_tss;
#define tss x86_tss
extern uint32_t x86_vectors[];

static struct gdt_entry segment(uint32_t base, uint32_t limit, uint8_t access, uint8_t gran)
{
	return (struct gdt_entry){
		.limit_lo = limit & 0xffff, .base_lo = base & 0xffff, .base_mid = (base >> 16) & 0xff,
		.access = access, .gran = (uint8_t)(gran | ((limit >> 16) & 0x0f)), .base_hi = base >> 24,
	};
}

static void set_gate(int vec, uint32_t handler, uint8_t type)
{
	idt[vec] = (struct idt_entry){ .off_lo = handler & 0xffff, .sel = SEG_KCODE, .type = type,
				       .off_hi = handler >> 16 };
}

void cpu_tables_init(void)
{
	gdt[1] = segment(0, 0xfffff, 0x9a, 0xc0); /* kernel code */
	gdt[2] = segment(0, 0xfffff, 0x92, 0xc0); /* kernel data */
	gdt[3] = segment(0, 0xfffff, 0xfa, 0xc0); /* user code */
	gdt[4] = segment(0, 0xfffff, 0xf2, 0xc0); /* user data */
	tss.ss0 = SEG_KDATA;
	tss.iomap = sizeof tss;                   /* no I/O bitmap: ring 3 gets no ports */
	gdt[5] = segment((uint32_t)(uintptr_t)&tss, sizeof tss - 1, 0x89, 0x00);
	struct table_ptr gp = { sizeof gdt - 1, (uint32_t)(uintptr_t)gdt };
	__asm__ volatile("lgdt %0\n\t"
			 "ljmp $0x08, $1f\n"
			 "1:\tmov $0x10, %%ax\n\t"
			 "mov %%ax, %%ds\n\tmov %%ax, %%es\n\tmov %%ax, %%fs\n\tmov %%ax, %%gs\n\tmov %%ax, %%ss\n\t"
			 "mov $0x28, %%ax\n\tltr %%ax" : : "m"(gp) : "eax", "memory");

	for (int v = 0; v < 48; v++)
		set_gate(v, x86_vectors[v], 0x8e);       /* interrupt gate, ring 0 */
	set_gate(T_SYSCALL, x86_vectors[48], 0xee);  /* interrupt gate, ring 3 may call */
	struct table_ptr ip = { sizeof idt - 1, (uint32_t)(uintptr_t)idt };
	__asm__ volatile("lidt %0" : : "m"(ip));
}
