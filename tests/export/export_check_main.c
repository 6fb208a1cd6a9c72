/*
 * tests/export/export_check_main.c - `export-check ctf|otf2|chrome DUMP OUT`:
 * the checks of export_check.h as a program for export_test.sh, which runs
 * the real readers (babeltrace2, otf2-print) and hands their text here with
 * `dpm dump`'s.  Prints the summary line and exits 0, or the first
 * difference and 1 (2: bad usage or a file that cannot be read).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_check.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t n = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n - 1, f);
		if (n < cap - 1)
			break;
		char *bigger = realloc(buf, cap *= 2);
		if (!bigger)
			free(buf);
		buf = bigger;
	}
	fclose(f);
	if (buf)
		buf[n] = 0;
	return buf;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: export-check ctf|otf2|chrome DUMP_TEXT READER_OUTPUT\n");
		return 2;
	}
	char *dump = slurp(argv[2]), *out = slurp(argv[3]);
	if (!dump || !out) {
		fprintf(stderr, "export-check: cannot read %s\n", dump ? argv[3] : argv[2]);
		return 2;
	}
	char summary[512], err[512];
	int r;
	if (!strcmp(argv[1], "ctf"))
		r = check_ctf(dump, out, summary, sizeof summary, err, sizeof err);
	else if (!strcmp(argv[1], "otf2"))
		r = check_otf2(dump, out, summary, sizeof summary, err, sizeof err);
	else if (!strcmp(argv[1], "chrome"))
		r = check_chrome(dump, out, summary, sizeof summary, err, sizeof err);
	else {
		fprintf(stderr, "export-check: unknown format %s\n", argv[1]);
		return 2;
	}
	if (r)
		fprintf(stderr, "export-check %s: %s\n", argv[1], err);
	else
		printf("%s\n", summary);
	free(dump);
	free(out);
	return r ? 1 : 0;
}
