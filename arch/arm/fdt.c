/*
 * arch/arm/fdt.c - the two facts the kernel takes from the flattened device
 * tree QEMU builds for the virt machine: /chosen/bootargs (the -append
 * string) and the first /memory node's reg (base and size of RAM).  A
 * walk over the structure block, nothing more: no tree is kept.
 */
#include "kernel/kernel.h"
#include "machine.h"

#define FDT_MAGIC 0xd00dfeedu
#define FDT_BEGIN_NODE 1
#define FDT_END_NODE 2
#define FDT_PROP 3
#define FDT_NOP 4
#define FDT_END 9

static uint64_t be_cells(const uint8_t *p, uint32_t cells)
{
	uint64_t v = 0;
	for (uint32_t i = 0; i < cells && i < 2; i++)
		v = v << 32 | load_be32(p + 4 * i);
	return v;
}

static uint32_t align4(uint32_t n) { return (n + 3) & ~3u; }

void fdt_read(const void *fdt, char *cmdline, uint32_t cmdline_size, uintptr_t *mem_end)
{
	const uint8_t *h = fdt;
	cmdline[0] = '\0';
	if (load_be32(h) != FDT_MAGIC)
		return;
	const uint8_t *s = h + load_be32(h + 8), *strings = h + load_be32(h + 12);
	const uint8_t *end = h + load_be32(h + 4);
	uint32_t addr_cells = 2, size_cells = 2;
	int depth = 0, in_chosen = 0, in_memory = 0;
	while (s + 4 <= end) {
		uint32_t tok = load_be32(s);
		s += 4;
		if (tok == FDT_BEGIN_NODE) {
			const char *name = (const char *)s;
			depth++;
			in_chosen = depth == 2 && !strcmp(name, "chosen");
			in_memory = depth == 2 && !strncmp(name, "memory", 6);
			s += align4((uint32_t)strlen(name) + 1);
		} else if (tok == FDT_END_NODE) {
			depth--;
			in_chosen = in_memory = 0;
		} else if (tok == FDT_PROP) {
			uint32_t len = load_be32(s), nameoff = load_be32(s + 4);
			const uint8_t *val = s + 8;
			const char *pname = (const char *)strings + nameoff;
			if (depth == 1 && !strcmp(pname, "#address-cells"))
				addr_cells = load_be32(val);
			else if (depth == 1 && !strcmp(pname, "#size-cells"))
				size_cells = load_be32(val);
			else if (in_chosen && !strcmp(pname, "bootargs")) {
				uint32_t n = len < cmdline_size ? len : cmdline_size - 1;
				memcpy(cmdline, val, n);
				cmdline[n] = '\0';
			} else if (in_memory && !*mem_end && !strcmp(pname, "reg") &&
				   len >= 4 * (addr_cells + size_cells)) {
				uint64_t base = be_cells(val, addr_cells);
				uint64_t size = be_cells(val + 4 * addr_cells, size_cells);
				*mem_end = (uintptr_t)(base + size);
			}
			s = val + align4(len);
		} else if (tok != FDT_NOP) {
			break; /* FDT_END or garbage */
		}
	}
}
