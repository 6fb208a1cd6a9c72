/*
 * kernel/elf.c - loading a program (a 32-bit ELF executable from the boot
 * image) into a new address space.  Only PT_LOAD segments inside user space
 * are accepted; text stays read-only so a stray write faults.
 */
#include "kernel.h"

struct elf_header {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version, entry, phoff, shoff, flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf_phdr {
	uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};

#define PT_LOAD 1
#define PF_W 2

static int map_segment(struct proc *p, const uint8_t *image, const struct elf_phdr *ph)
{
	uint32_t start = ph->vaddr & ~4095u, end = ph->vaddr + ph->memsz;
	for (uint32_t va = start; va < end; va += 4096) {
		uint8_t *page = arch_aspace_lookup(p->aspace, va, 0);
		if (!page) {
			page = palloc();
			if (!page || arch_aspace_map(p->aspace, va, page, (ph->flags & PF_W) != 0) < 0)
				return E_NOMEM;
		}
		/* the part of [va, va+4096) that holds file bytes */
		uint32_t lo = va > ph->vaddr ? va : ph->vaddr;
		uint32_t hi = va + 4096 < ph->vaddr + ph->filesz ? va + 4096 : ph->vaddr + ph->filesz;
		if (lo < hi)
			memcpy((uint8_t *)((uintptr_t)page & ~4095u) + (lo - va), image + ph->offset + (lo - ph->vaddr), hi - lo);
	}
	return 0;
}

int elf_load(struct proc *p, const uint8_t *image, size_t size, uint32_t *entry)
{
	const struct elf_header *eh = (const void *)image;
	if (size < sizeof *eh || memcmp(eh->ident, "\177ELF", 4) || eh->ident[4] != 1 ||
	    eh->phentsize != sizeof(struct elf_phdr) || eh->phoff + (uint64_t)eh->phnum * sizeof(struct elf_phdr) > size)
		return E_NOPROG;
	uint32_t top = USER_BASE;
	for (int i = 0; i < eh->phnum; i++) {
		const struct elf_phdr *ph = (const void *)(image + eh->phoff + i * sizeof *ph);
		if (ph->type != PT_LOAD || ph->memsz == 0)
			continue;
		if (ph->filesz > ph->memsz || (uint64_t)ph->offset + ph->filesz > size ||
		    !user_range_ok(ph->vaddr, ph->memsz))
			return E_NOPROG;
		int r = map_segment(p, image, ph);
		if (r < 0)
			return r;
		if (ph->vaddr + ph->memsz > top)
			top = ph->vaddr + ph->memsz;
	}
	p->brk_base = p->brk = (top + 4095) & ~4095u;
	*entry = eh->entry;
	return 0;
}
