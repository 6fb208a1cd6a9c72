/*
 * tests/fuzz/fuzz_support.c - the helpers of fuzz.h.  Files in memory are
 * memfds named through /proc/self/fd, so a reader's fopen() sees an
 * ordinary file at offset 0 and each run rewrites it in place.
 */
#define _GNU_SOURCE
#include "fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FUZZ_FILES 4

const char *fuzz_file(int slot, const void *data, size_t size)
{
	static int fd[FUZZ_FILES] = { -1, -1, -1, -1 };
	static char path[FUZZ_FILES][64];
	if (slot < 0 || slot >= FUZZ_FILES)
		fuzz_fail("fuzz_file: no slot %d", slot);
	if (fd[slot] < 0) {
		fd[slot] = memfd_create("fuzz-input", 0);
		if (fd[slot] < 0)
			fuzz_fail("memfd_create failed");
		snprintf(path[slot], sizeof path[slot], "/proc/self/fd/%d", fd[slot]);
	}
	if (ftruncate(fd[slot], 0) < 0)
		fuzz_fail("ftruncate failed");
	const char *p = data;
	for (size_t done = 0; done < size;) {
		ssize_t n = pwrite(fd[slot], p + done, size - done, (off_t)done);
		if (n <= 0)
			fuzz_fail("writing the input file failed");
		done += (size_t)n;
	}
	return path[slot];
}

char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		fuzz_fail("out of memory");
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

void fuzz_split(const uint8_t *data, size_t size, const uint8_t **a, size_t *alen,
		const uint8_t **b, size_t *blen)
{
	static const char sep[] = "----\n";
	const size_t seplen = sizeof sep - 1;
	for (size_t i = 0; i + seplen <= size; i++) {
		if ((i == 0 || data[i - 1] == '\n') && !memcmp(data + i, sep, seplen)) {
			*a = data;
			*alen = i;
			*b = data + i + seplen;
			*blen = size - i - seplen;
			return;
		}
	}
	*a = data;
	*alen = size;
	*b = data + size;
	*blen = 0;
}

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "fuzz: invariant broken: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	abort();
}
