/*
 * tests/fuzz/replay.c - the main of a harness built for `make check`
 * (no libFuzzer): every input of the harness's seed corpus and of its
 * crash inputs (tests/fuzz/corpus/NAME, tests/fuzz/crashes/NAME, NAME
 * given as FUZZ_NAME at compile time), or the files and directories given
 * as arguments, run once each in a child of its own, so one crash or
 * sanitizer report fails that input alone and the rest still run.  Ends
 * with cmocka's summary lines, which tests/run-unit.sh adds up.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

#ifndef FUZZ_NAME
#error "FUZZ_NAME (the name of the harness) must be defined"
#endif

struct names {
	char **v;
	size_t n, cap;
};

static void add(struct names *l, const char *path)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		if (!l->v) {
			perror("replay");
			exit(2);
		}
	}
	l->v[l->n++] = strdup(path);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file, or the files directly in a directory (sorted).  A directory that
 * does not exist adds nothing when `optional` (a harness with no crash
 * input yet); anything else unreadable is an error. */
static int gather(struct names *l, const char *path, int optional)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		if (optional && errno == ENOENT)
			return 0;
		fprintf(stderr, "replay %s: %s: %s\n", FUZZ_NAME, path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		add(l, path);
		return 0;
	}
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "replay %s: %s: %s\n", FUZZ_NAME, path, strerror(errno));
		return -1;
	}
	size_t first = l->n;
	struct dirent *e;
	char p[4096];
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s", path, e->d_name);
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			add(l, p);
	}
	closedir(d);
	qsort(l->v + first, l->n - first, sizeof *l->v, by_name);
	return 0;
}

static void run_one(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay %s: %s: %s\n", FUZZ_NAME, path, strerror(errno));
		exit(2);
	}
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (!buf || ferror(f)) {
		fprintf(stderr, "replay %s: cannot read %s\n", FUZZ_NAME, path);
		exit(2);
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	exit(0);
}

int main(int argc, char **argv)
{
	struct names l = { 0 };
	int bad = 0;
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			bad |= gather(&l, argv[i], 0) < 0;
	} else {
		bad |= gather(&l, "tests/fuzz/corpus/" FUZZ_NAME, 0) < 0;
		bad |= gather(&l, "tests/fuzz/crashes/" FUZZ_NAME, 1) < 0;
	}
	if (bad || l.n == 0) {
		fprintf(stderr, "replay %s: no inputs\n", FUZZ_NAME);
		printf("[  FAILED  ] 1 test(s), listed below:\n");
		return 1;
	}
	size_t failed = 0;
	for (size_t i = 0; i < l.n; i++) {
		fflush(stdout);
		fflush(stderr);
		pid_t pid = fork();
		if (pid < 0) {
			perror("replay: fork");
			return 2;
		}
		if (pid == 0)
			run_one(l.v[i]);
		int status;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			failed++;
			if (WIFSIGNALED(status))
				printf("fuzz %s: FAILED %s (signal %d)\n", FUZZ_NAME, l.v[i],
				       WTERMSIG(status));
			else
				printf("fuzz %s: FAILED %s (exit %d)\n", FUZZ_NAME, l.v[i],
				       WEXITSTATUS(status));
		}
	}
	printf("fuzz %s: %zu inputs replayed\n", FUZZ_NAME, l.n);
	printf("[  PASSED  ] %zu test(s).\n", l.n - failed);
	if (failed)
		printf("[  FAILED  ] %zu test(s), listed below:\n", failed);
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
	return failed ? 1 : 0;
}
