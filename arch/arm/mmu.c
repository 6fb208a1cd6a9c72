/*
 * arch/arm/mmu.c - address spaces with ARMv7 short-descriptor tables.
 * TTBCR.N = 2 splits the address space: below 1 GiB translation goes
 * through TTBR0, one 4 KiB first-level table per process (user space,
 * USER_BASE..USER_TOP, 4 KiB pages), and from 1 GiB up through TTBR1, the
 * kernel's one table, the same in every address space: RAM identity-mapped
 * with 1 MiB supervisor-only sections and the device window (ARM_DEVICE_
 * WINDOW).  A page of second-level tables holds four (1 KiB each), so it
 * covers 4 MiB of consecutive first-level entries, as an x86 page table
 * does.  AP bits (SCTLR.AFE = 0): 001 kernel only, 011 user read/write,
 * 111 read-only for both; DACR makes domain 0 a client, so they are checked.
 */
#include "kernel/kernel.h"
#include "arm.h"
#include "machine.h"

#define L1_SECTION 0x2u
#define L1_TABLE 0x1u
#define L1_TYPE_MASK 0x3u
#define SECT_B (1u << 2)
#define SECT_C (1u << 3)
#define SECT_XN (1u << 4)
#define SECT_AP_KERNEL (1u << 10)       /* AP[1:0] = 01 */
#define SECT_TEX1 (1u << 12)
#define SECT_NORMAL (SECT_TEX1 | SECT_C | SECT_B) /* write-back, write-allocate */
#define SECT_DEVICE SECT_B              /* shareable device */

#define L2_SMALL 0x2u
#define L2_B (1u << 2)
#define L2_C (1u << 3)
#define L2_AP0 (1u << 4)
#define L2_AP1 (1u << 5)                /* PL0 may access */
#define L2_TEX1 (1u << 6)
#define L2_AP2 (1u << 9)                /* read-only */
#define L2_NG (1u << 11)
#define L2_USER_RW (L2_AP1 | L2_AP0)
#define L2_USER_RO (L2_AP2 | L2_AP1 | L2_AP0)
#define L2_NORMAL (L2_TEX1 | L2_C | L2_B)

#define TTBCR_N 2
#define USER_L1_ENTRIES 1024            /* 1 GiB of 1 MiB entries: TTBR0's reach */
#define TTB_WALK_WBWA 0x48u             /* IRGN = RGN = write-back write-allocate */
#define SCTLR_M (1u << 0)
#define SCTLR_A (1u << 1)
#define SCTLR_C (1u << 2)
#define SCTLR_Z (1u << 11)
#define SCTLR_I (1u << 12)
#define SCTLR_V (1u << 13)
#define SCTLR_TRE (1u << 28)
#define SCTLR_AFE (1u << 29)
#define MIB (1u << 20)

static uint32_t kernel_l1[4096] __attribute__((aligned(16384)));
static uint32_t empty_l1[USER_L1_ENTRIES] __attribute__((aligned(4096)));

void mmu_init(uintptr_t mem_end)
{
	for (uint32_t a = RAM_BASE; a < mem_end; a += MIB)
		kernel_l1[a >> 20] = a | L1_SECTION | SECT_NORMAL | SECT_AP_KERNEL;
	for (uint32_t va = ARM_DEVICE_WINDOW; va < ARM_DEVICE_WINDOW_END; va += MIB)
		kernel_l1[va >> 20] = (va - ARM_DEVICE_WINDOW + DEVICE_PHYS_BASE) | L1_SECTION |
				      SECT_DEVICE | SECT_XN | SECT_AP_KERNEL;
	write_dacr(1);                       /* domain 0: client */
	write_ttbcr(TTBCR_N);
	write_ttbr1((uint32_t)(uintptr_t)kernel_l1 | TTB_WALK_WBWA);
	write_ttbr0((uint32_t)(uintptr_t)empty_l1 | TTB_WALK_WBWA);
	dsb();
	write_tlbiall(0);
	dsb();
	isb();
	uint32_t sctlr = read_sctlr();
	sctlr &= ~(SCTLR_A | SCTLR_V | SCTLR_TRE | SCTLR_AFE);
	write_sctlr(sctlr | SCTLR_M | SCTLR_C | SCTLR_I | SCTLR_Z);
	isb();
}

/* Make `as` (0: none) the user address space.  No ASIDs: the whole TLB
 * goes, the kernel's global entries with it, which QEMU refills cheaply. */
void mmu_switch(uintptr_t as)
{
	write_ttbr0((uint32_t)(as ? as : (uintptr_t)empty_l1) | TTB_WALK_WBWA);
	isb();
	write_tlbiall(0);
	write_iciallu(0);
	write_bpiall(0);
	dsb();
	isb();
}

uintptr_t arch_aspace_create(void)
{
	return (uintptr_t)palloc();  /* zeroed: no user page mapped */
}

void arch_aspace_destroy(uintptr_t as)
{
	uint32_t *l1 = (uint32_t *)as;
	if ((read_ttbr0() & ~0xfffu) == as)
		mmu_switch(0);
	for (uint32_t i = 0; i < USER_L1_ENTRIES; i += 4) {
		if ((l1[i] & L1_TYPE_MASK) != L1_TABLE)
			continue;
		uint32_t *l2 = (uint32_t *)(l1[i] & ~0xfffu); /* four tables, one page */
		for (int j = 0; j < 1024; j++)
			if (l2[j] & L2_SMALL)
				pfree((void *)(l2[j] & ~0xfffu));
		pfree(l2);
	}
	pfree(l1);
}

int arch_aspace_map(uintptr_t as, uint32_t va, void *page, int writable)
{
	uint32_t *l1 = (uint32_t *)as;
	uint32_t i = va >> 20;
	if (i >= USER_L1_ENTRIES)
		return E_INVAL;
	if ((l1[i] & L1_TYPE_MASK) != L1_TABLE) {
		uint8_t *l2page = palloc();
		if (!l2page)
			return E_NOMEM;
		for (uint32_t k = 0; k < 4; k++)
			l1[(i & ~3u) + k] = (uint32_t)(uintptr_t)(l2page + 1024 * k) | L1_TABLE;
	}
	uint32_t *l2 = (uint32_t *)(l1[i] & ~0x3ffu);
	uint32_t *pte = &l2[(va >> 12) & 0xff];
	if (*pte & L2_SMALL)
		return E_INVAL;   /* never over a present page: it would be lost */
	*pte = (uint32_t)(uintptr_t)page | L2_SMALL | L2_NORMAL | L2_NG |
	       (writable ? L2_USER_RW : L2_USER_RO);
	dsb();
	return 0;
}

void *arch_aspace_unmap(uintptr_t as, uint32_t va)
{
	uint32_t *l1 = (uint32_t *)as;
	uint32_t i = va >> 20;
	if (i >= USER_L1_ENTRIES || (l1[i] & L1_TYPE_MASK) != L1_TABLE)
		return NULL;
	uint32_t *pte = &((uint32_t *)(l1[i] & ~0x3ffu))[(va >> 12) & 0xff];
	if (!(*pte & L2_SMALL))
		return NULL;
	void *page = (void *)(uintptr_t)(*pte & ~0xfffu);
	*pte = 0;
	/* the page of four tables left empty goes too, so a growth taken
	 * back leaves nothing */
	uint32_t *l2 = (uint32_t *)(l1[i & ~3u] & ~0xfffu);
	int empty = 1;
	for (int j = 0; j < 1024 && empty; j++)
		empty = !(l2[j] & L2_SMALL);
	if (empty) {
		for (uint32_t k = 0; k < 4; k++)
			l1[(i & ~3u) + k] = 0;
		pfree(l2);
	}
	dsb();
	if ((read_ttbr0() & ~0xfffu) == as) {
		write_tlbiall(0);   /* no ASIDs (mmu_switch): the whole TLB */
		dsb();
		isb();
	}
	return page;
}

void *arch_aspace_lookup(uintptr_t as, uint32_t va, int write)
{
	const uint32_t *l1 = (const uint32_t *)as;
	uint32_t i = va >> 20;
	if (i >= USER_L1_ENTRIES || (l1[i] & L1_TYPE_MASK) != L1_TABLE)
		return NULL;
	uint32_t pte = ((const uint32_t *)(l1[i] & ~0x3ffu))[(va >> 12) & 0xff];
	if (!(pte & L2_SMALL) || !(pte & L2_AP1) || (write && (pte & L2_AP2)))
		return NULL;
	return (void *)(uintptr_t)((pte & ~0xfffu) | (va & 0xfffu));
}
