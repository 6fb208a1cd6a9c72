/*
 * tests/fuzz/fuzz.h - what every fuzz harness shares (docs/fuzzing.md).
 *
 * A harness is one file defining LLVMFuzzerTestOneInput(): it hands the
 * bytes to a real parser through that parser's public header and checks
 * what must hold whatever the input.  The same file links either with
 * libFuzzer (`make fuzz`, clang) or with replay.c (`make check`, any
 * compiler), so a harness never knows which drives it.  Readers that take
 * a path get the bytes as a file in memory (fuzz_file), so no input ever
 * touches the disk.
 */
#ifndef DPM_TESTS_FUZZ_H
#define DPM_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A path to a file in memory holding exactly data[0..size); slot 0..3
 * names one of four such files, each rewritten by its next call. */
const char *fuzz_file(int slot, const void *data, size_t size);

/* data[0..size) as a malloc'd string (a NUL after it; NULs inside kept). */
char *fuzz_text(const uint8_t *data, size_t size);

/* Split the input at the first line "----\n" (a harness that wants two
 * files): *a and *b point into data; with no such line, b is empty. */
void fuzz_split(const uint8_t *data, size_t size, const uint8_t **a, size_t *alen,
		const uint8_t **b, size_t *blen);

/* An invariant the harness checks broke: say what and abort, which both
 * libFuzzer and the replay count as a finding. */
void fuzz_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#endif
