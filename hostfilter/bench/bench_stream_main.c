/*
 * hostfilter/bench/bench_stream_main.c - `filter-stream RECORDS [PER_BATCH]`,
 * the bench-filter generator: RECORDS records of bench_stream.h in batches
 * (default 32, the kernel's default) to standard output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench_stream.h"

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: filter-stream RECORDS [PER_BATCH]\n");
		return 2;
	}
	uint64_t records = strtoull(argv[1], NULL, 10);
	long per_batch = argc > 2 ? atol(argv[2]) : 32;
	if (per_batch < 1 || per_batch > (long)BENCH_STREAM_MAX_BATCH) {
		fprintf(stderr, "filter-stream: PER_BATCH must be 1..%u\n", BENCH_STREAM_MAX_BATCH);
		return 2;
	}
	return bench_stream_write(STDOUT_FILENO, records, (unsigned)per_batch) ? 1 : 0;
}
