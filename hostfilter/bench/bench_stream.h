/*
 * hostfilter/bench/bench_stream.h - the synthetic meter stream that bench-filter
 * feeds to `dpm filter --stdin` (hostfilter/bench/bench_stream.c).  Record i of
 * the stream is, by i % 10: SEND, QUEUED, RECEIVECALL, RECEIVE, SEND,
 * QUEUED, RECEIVECALL, RECEIVE, CREATELINK, STARTPROCESS; batch b comes
 * from node b % 4.
 */
#ifndef DPM_BENCH_STREAM_H
#define DPM_BENCH_STREAM_H
#include <stdint.h>

#define BENCH_STREAM_MAX_BATCH 1024u

/* Write `records` records in batches of `per_batch` (1..1024) to fd:
 * 0, or -1 on a bad batch size or a failed write. */
int bench_stream_write(int fd, uint64_t records, unsigned per_batch);

#endif
