/*
 * arch/x86/start.c - from multiboot to kernel_main: read what the loader
 * tells us (memory size, command line), set up the CPU tables, paging,
 * interrupts and the clock, then hand over to the portable kernel.
 */
#include "kernel/kernel.h"
#include "x86.h"
#include "machine.h"

#define MULTIBOOT_LOADER_MAGIC 0x2badb002
#define MAX_RAM (256u << 20)

struct multiboot_info {
	uint32_t flags, mem_lower, mem_upper, boot_device, cmdline;
};

extern char kernel_end[];
static char cmdline[CMDLINE_MAX];

/* Whether the command line has `word` as one of its blank-separated words. */
static int cmdline_has_word(const char *s, const char *word)
{
	size_t n = strlen(word);
	for (;;) {
		while (*s == ' ')
			s++;
		if (!*s)
			return 0;
		if (!strncmp(s, word, n) && (s[n] == ' ' || s[n] == '\0'))
			return 1;
		while (*s && *s != ' ')
			s++;
	}
}

void x86_start(uint32_t magic, const struct multiboot_info *mb);
void x86_start(uint32_t magic, const struct multiboot_info *mb)
{
	serial_init();
	if (magic != MULTIBOOT_LOADER_MAGIC)
		panic("not started by a multiboot loader");
	uintptr_t mem_end = 16u << 20;
	if (mb->flags & 1)
		mem_end = (1u << 20) + mb->mem_upper * 1024u;
	if (mem_end > MAX_RAM)
		mem_end = MAX_RAM;
	if (mb->flags & 4) {
		const char *s = (const char *)(uintptr_t)mb->cmdline;
		size_t n = strnlen(s, sizeof cmdline - 1);
		memcpy(cmdline, s, n);
		cmdline[n] = '\0';
	}
	cpu_tables_init();
	mmu_init(mem_end);
	pic_init();
	pit_init();
	/* In virtual time (QEMU -icount, sleep=off) the TSC counts virtual
	 * nanoseconds whatever the node's speed (shift), and at a slow shift
	 * the PIT moves on between the instructions of one reading, so there
	 * is nothing to calibrate (docs/virtual-time.md). */
	if (cmdline_has_word(cmdline, "vclock=1"))
		clock_set_ghz();
	else
		clock_calibrate();
	kprintf("x86: %u MiB RAM, clock %u MHz\n", (unsigned)(mem_end >> 20), clock_mhz());
	kernel_main(cmdline, (uintptr_t)kernel_end, mem_end);
}
