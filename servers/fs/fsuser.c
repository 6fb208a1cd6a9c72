/*
 * servers/fs/fsuser.c - the file system's test users, as in the thesis's
 * measurements (§5.3.1):
 *   fsuser seq FILE SIZE SEED        write FILE whole, read it back, verify
 *   fsuser rand FILE SIZE OPS SEED   write FILE, then OPS reads and writes at
 *                                    random offsets checked against a local
 *                                    shadow copy, then verify the whole file
 * Data and offsets come from SEED, so runs repeat exactly.  Any number may
 * run at once, on any nodes, on different files.  Prints one result line;
 * exit 0 only when every byte read matched, 1 otherwise, 2 bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsclient.h"

#define CHUNK_MAX 4096
#define SIZE_MAX_USER (512u * 1024u)

static uint32_t rng;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static int fail(const char *file, const char *what, int err)
{
	printf("fsuser: %s: %s: %s\n", file, what, fs_strerror(err));
	return 1;
}

/* Write all of data[0..size) at offset `at` of h in chunks of odd sizes. */
static int write_all(int h, const uint8_t *data, uint32_t at, uint32_t size)
{
	int r = fs_seek(h, (int32_t)at, FS_SEEK_SET);
	for (uint32_t done = 0; r >= 0 && done < size; done += (uint32_t)r) {
		uint32_t n = 1 + next() % CHUNK_MAX;
		r = fs_write(h, data + done, n < size - done ? n : size - done);
	}
	return r < 0 ? r : 0;
}

/* Read size bytes at `at` and compare with want; 0 same, 1 differs. */
static int read_check(int h, const uint8_t *want, uint32_t at, uint32_t size, int *err)
{
	static uint8_t got[CHUNK_MAX];
	*err = fs_seek(h, (int32_t)at, FS_SEEK_SET);
	for (uint32_t done = 0; *err >= 0 && done < size;) {
		uint32_t n = 1 + next() % CHUNK_MAX;
		int r = fs_read(h, got, n < size - done ? n : size - done);
		if (r <= 0) {
			*err = r == 0 ? FS_EIO : r; /* the file ended early */
			return 1;
		}
		if (memcmp(got, want + done, (size_t)r)) {
			printf("fsuser: data differ in %u bytes at offset %u\n", (unsigned)r, (unsigned)(at + done));
			return 1;
		}
		done += (uint32_t)r;
	}
	return *err < 0;
}

static int fresh_file(const char *file)
{
	int r = fs_delete(file);
	if (r < 0 && r != FS_ENOENT)
		return r;
	return fs_create(file);
}

static int run(const char *file, uint8_t *shadow, uint32_t size, uint32_t ops)
{
	int err, h = fresh_file(file);
	if (h < 0)
		return fail(file, "create", h);
	for (uint32_t i = 0; i < size; i++)
		shadow[i] = (uint8_t)next();
	if ((err = write_all(h, shadow, 0, size)) < 0)
		return fail(file, "write", err);
	uint32_t reads = 0, writes = 0;
	for (uint32_t op = 0; op < ops; op++) {
		uint32_t at = next() % size, n = 1 + next() % CHUNK_MAX;
		if (n > size - at)
			n = size - at;
		if (next() & 1) {
			reads++;
			if (read_check(h, shadow + at, at, n, &err))
				return err < 0 ? fail(file, "read", err) : 1;
		} else {
			writes++;
			for (uint32_t i = 0; i < n; i++)
				shadow[at + i] = (uint8_t)next();
			if ((err = write_all(h, shadow + at, at, n)) < 0)
				return fail(file, "write", err);
		}
	}
	if ((err = fs_seek(h, 0, FS_SEEK_END)) != (int)size) {
		printf("fsuser: %s: size %d, expected %u\n", file, err, (unsigned)size);
		return 1;
	}
	if (read_check(h, shadow, 0, size, &err))
		return err < 0 ? fail(file, "read", err) : 1;
	if ((err = fs_close(h)) < 0)
		return fail(file, "close", err);
	printf("fsuser: %s: %u bytes, %u random reads, %u random writes: verified\n", file, (unsigned)size,
	       (unsigned)reads, (unsigned)writes);
	return 0;
}

static int number(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	*out = (uint32_t)v;
	return *s && !*end && v <= 0xffffffffu ? 0 : -1;
}

int main(int argc, char **argv)
{
	uint32_t size, ops = 0, seed;
	int seq = argc == 5 && !strcmp(argv[1], "seq");
	int rnd = argc == 6 && !strcmp(argv[1], "rand");
	if ((!seq && !rnd) || number(argv[3], &size) || (rnd && number(argv[4], &ops)) ||
	    number(argv[argc - 1], &seed) || size == 0 || size > SIZE_MAX_USER) {
		printf("usage: fsuser seq FILE SIZE SEED | fsuser rand FILE SIZE OPS SEED\n"
		       "  SIZE 1..%u bytes\n", SIZE_MAX_USER);
		return 2;
	}
	uint8_t *shadow = malloc(size);
	if (!shadow) {
		printf("fsuser: no memory for %u bytes\n", (unsigned)size);
		return 1;
	}
	rng = seed ? seed : 1;
	return run(argv[2], shadow, size, ops);
}
