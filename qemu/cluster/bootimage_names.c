/*
 * qemu/cluster/bootimage_names.c - reading a kernel ELF's program table
 * on the host (bootimage_names.h).  Both machines' kernels are 32-bit
 * little-endian ELF files; the table is found by its symbols and read
 * through the section that holds each address, with glibc's <elf.h>
 * types.  Every offset is bounds-checked: the file is input.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootimage_names.h"

struct image {
	uint8_t *data;
	size_t size;
	const Elf32_Shdr *sh;
	unsigned nsh;
};

static int in_file(const struct image *im, size_t off, size_t len)
{
	return off <= im->size && len <= im->size - off;
}

/* The bytes at address addr (len of them), or NULL. */
static const uint8_t *at_addr(const struct image *im, uint32_t addr, size_t len)
{
	for (unsigned i = 0; i < im->nsh; i++) {
		const Elf32_Shdr *s = &im->sh[i];
		if (s->sh_type == SHT_NOBITS || !s->sh_addr || addr < s->sh_addr ||
		    addr - s->sh_addr >= s->sh_size || len > s->sh_size - (addr - s->sh_addr))
			continue;
		size_t off = s->sh_offset + (size_t)(addr - s->sh_addr);
		return in_file(im, off, len) ? im->data + off : NULL;
	}
	return NULL;
}

/* The address of symbol want, or 0. */
static uint32_t symbol(const struct image *im, const char *want)
{
	for (unsigned i = 0; i < im->nsh; i++) {
		const Elf32_Shdr *s = &im->sh[i];
		if (s->sh_type != SHT_SYMTAB || s->sh_link >= im->nsh ||
		    !in_file(im, s->sh_offset, s->sh_size))
			continue;
		const Elf32_Shdr *str = &im->sh[s->sh_link];
		if (!in_file(im, str->sh_offset, str->sh_size))
			continue;
		const Elf32_Sym *sym = (const Elf32_Sym *)(im->data + s->sh_offset);
		for (size_t k = 0; k < s->sh_size / sizeof *sym; k++) {
			if (sym[k].st_name >= str->sh_size)
				continue;
			const char *name = (const char *)im->data + str->sh_offset + sym[k].st_name;
			if (!strncmp(name, want, str->sh_size - sym[k].st_name))
				return sym[k].st_value;
		}
	}
	return 0;
}

static int load(struct image *im, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	im->data = n > 0 ? malloc((size_t)n) : NULL;
	im->size = im->data && fread(im->data, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
	fclose(f);
	const Elf32_Ehdr *e = (const Elf32_Ehdr *)im->data;
	if (im->size < sizeof *e || memcmp(e->e_ident, ELFMAG, SELFMAG) ||
	    e->e_ident[EI_CLASS] != ELFCLASS32 || e->e_ident[EI_DATA] != ELFDATA2LSB ||
	    e->e_shentsize != sizeof(Elf32_Shdr) ||
	    !in_file(im, e->e_shoff, (size_t)e->e_shnum * sizeof(Elf32_Shdr))) {
		snprintf(err, errlen, "%s: not a 32-bit little-endian ELF kernel", path);
		return -1;
	}
	im->sh = (const Elf32_Shdr *)(im->data + e->e_shoff);
	im->nsh = e->e_shnum;
	return 0;
}

int bootimage_has(const char *path, const char *name, char *names, size_t size, char *err,
		  size_t errlen)
{
	struct image im = { 0 };
	int found = -1;
	names[0] = '\0';
	if (load(&im, path, err, errlen) == 0) {
		uint32_t table = symbol(&im, "boot_programs"), count = symbol(&im, "boot_program_count");
		const uint8_t *c = count ? at_addr(&im, count, 4) : NULL;
		uint32_t n = 0;
		if (c)
			memcpy(&n, c, 4);
		const uint8_t *rows = table && c ? at_addr(&im, table, (size_t)n * 12) : NULL;
		if (!rows) {
			snprintf(err, errlen, "%s: no program table (boot_programs) in it", path);
		} else {
			found = 0;
			for (uint32_t i = 0; i < n; i++) {
				uint32_t at;
				memcpy(&at, rows + 12 * i, 4);
				const char *s = (const char *)at_addr(&im, at, 1);
				/* the name's section must hold its terminating NUL */
				const char *end = s ? memchr(s, 0, (size_t)(im.data + im.size - (const uint8_t *)s)) : NULL;
				if (!end)
					continue;
				if (!strcmp(s, name))
					found = 1;
				size_t used = strlen(names);
				snprintf(names + used, size - used, "%s%s", used ? " " : "", s);
			}
		}
	}
	free(im.data);
	return found;
}
