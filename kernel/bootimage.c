/*
 * kernel/bootimage.c - finding a program in the boot image.  The build packs
 * every program ELF into the kernel (a generated table, boot_programs[]), so
 * a node needs nothing but its kernel file to start any program.
 */
#include "kernel.h"

extern const struct boot_program boot_programs[];
extern const uint32_t boot_program_count;

const struct boot_program *bootimage_find(const char *name)
{
	for (uint32_t i = 0; i < boot_program_count; i++)
		if (!strcmp(boot_programs[i].name, name))
			return &boot_programs[i];
	return NULL;
}
