/*
 * arch/x86/mmu.c - address spaces.  Every page directory maps the first
 * 256 MiB of physical memory 1:1 with 4 MiB supervisor pages (so the kernel
 * reaches any page at its physical address, in every address space) and
 * user space, USER_BASE..USER_TOP, with 4 KiB user pages.
 */
#include "kernel/kernel.h"
#include "x86.h"
#include "machine.h"

#define PTE_P 0x001u
#define PTE_W 0x002u
#define PTE_U 0x004u
#define PTE_PS 0x080u
#define KERNEL_PDES 64 /* 64 x 4 MiB = 256 MiB */

static uint32_t kernel_pd[1024] __attribute__((aligned(4096)));

void mmu_init(uintptr_t mem_end)
{
	(void)mem_end;
	for (uint32_t i = 0; i < KERNEL_PDES; i++)
		kernel_pd[i] = (i << 22) | PTE_P | PTE_W | PTE_PS;
	lcr4(rcr4() | 0x10);                 /* PSE: 4 MiB pages */
	lcr3((uint32_t)(uintptr_t)kernel_pd);
	lcr0(rcr0() | 0x80010000u);          /* PG, and WP so the kernel honours read-only too */
}

uint32_t mmu_kernel_pd(void)
{
	return (uint32_t)(uintptr_t)kernel_pd;
}

uintptr_t arch_aspace_create(void)
{
	uint32_t *pd = palloc();
	if (!pd)
		return 0;
	memcpy(pd, kernel_pd, KERNEL_PDES * sizeof *pd);
	return (uintptr_t)pd;
}

void arch_aspace_destroy(uintptr_t as)
{
	uint32_t *pd = (uint32_t *)as;
	if (rcr3() == as)
		lcr3(mmu_kernel_pd());
	for (uint32_t i = KERNEL_PDES; i < 1024; i++) {
		if (!(pd[i] & PTE_P))
			continue;
		uint32_t *pt = (uint32_t *)(pd[i] & ~0xfffu);
		for (int j = 0; j < 1024; j++)
			if (pt[j] & PTE_P)
				pfree((void *)(pt[j] & ~0xfffu));
		pfree(pt);
	}
	pfree(pd);
}

int arch_aspace_map(uintptr_t as, uint32_t va, void *page, int writable)
{
	uint32_t *pd = (uint32_t *)as;
	uint32_t *pde = &pd[va >> 22];
	if (!(*pde & PTE_P)) {
		uint32_t *pt = palloc();
		if (!pt)
			return E_NOMEM;
		*pde = (uint32_t)(uintptr_t)pt | PTE_P | PTE_W | PTE_U;
	}
	uint32_t *pt = (uint32_t *)(*pde & ~0xfffu);
	uint32_t *pte = &pt[(va >> 12) & 1023];
	if (*pte & PTE_P)
		return E_INVAL;   /* never over a present page: it would be lost */
	*pte = (uint32_t)(uintptr_t)page | PTE_P | PTE_U | (writable ? PTE_W : 0);
	return 0;
}

void *arch_aspace_unmap(uintptr_t as, uint32_t va)
{
	uint32_t *pd = (uint32_t *)as;
	uint32_t pde = pd[va >> 22];
	if ((pde & (PTE_P | PTE_PS)) != PTE_P)
		return NULL;
	uint32_t *pte = &((uint32_t *)(pde & ~0xfffu))[(va >> 12) & 1023];
	if (!(*pte & PTE_P))
		return NULL;
	void *page = (void *)(uintptr_t)(*pte & ~0xfffu);
	*pte = 0;
	/* a table left empty goes too, so a growth taken back leaves nothing */
	uint32_t *pt = (uint32_t *)(pde & ~0xfffu);
	int empty = 1;
	for (int j = 0; j < 1024 && empty; j++)
		empty = !(pt[j] & PTE_P);
	if (empty) {
		pd[va >> 22] = 0;
		pfree(pt);
	}
	if (rcr3() == as) {
		if (empty)
			lcr3(as);   /* the table itself may be cached */
		else
			__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
	}
	return page;
}

void *arch_aspace_lookup(uintptr_t as, uint32_t va, int write)
{
	uint32_t *pd = (uint32_t *)as;
	uint32_t pde = pd[va >> 22];
	if ((pde & (PTE_P | PTE_U | PTE_PS)) != (PTE_P | PTE_U))
		return NULL;
	uint32_t pte = ((uint32_t *)(pde & ~0xfffu))[(va >> 12) & 1023];
	if ((pte & (PTE_P | PTE_U)) != (PTE_P | PTE_U) || (write && !(pte & PTE_W)))
		return NULL;
	return (void *)(uintptr_t)((pte & ~0xfffu) | (va & 0xfffu));
}
