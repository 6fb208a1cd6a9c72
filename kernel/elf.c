/*
 * kernel/elf.c - loading a program (a 32-bit ELF executable from the boot
 * image) into a new address space.  Only PT_LOAD segments inside user space
 * are accepted; text stays read-only so a stray write faults.  The bytes go
 * in through uaccess.c (user_load), as every access to user memory does.
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
		int r = user_load(p, ph->vaddr, image + ph->offset, ph->filesz, ph->memsz, (ph->flags & PF_W) != 0);
		if (r < 0)
			return r;
		if (ph->vaddr + ph->memsz > top)
			top = ph->vaddr + ph->memsz;
	}
	p->brk_base = p->brk = (top + 4095) & ~4095u;
	*entry = eh->entry;
	return 0;
}
