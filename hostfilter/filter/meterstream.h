/*
 * hostfilter/filter/meterstream.h - one node's meter stream, as the filter sees it.
 *
 * A stream is the bytes of one connection (or standard input): batches
 * (kernel/abi/trace.h) back to back.  Bytes are gathered until a batch is
 * whole; the batch is checked and its records selected and logged in one
 * pass, and if anything in it is wrong none of it reaches the log: the
 * stream is rejected (its framing can no longer be trusted), a NOTE record
 * says why, and the caller closes it.  Kept apart from the sockets so unit
 * tests and --stdin drive exactly the same code.
 */
#ifndef DPM_HOSTFILTER_METERSTREAM_H
#define DPM_HOSTFILTER_METERSTREAM_H

#include <stdio.h>

#include "hostfilter/tracelog/logformat.h"
#include "hostfilter/tracelog/logwrite.h"
#include "rules.h"

struct filter_stats {
	uint64_t connections;    /* streams opened */
	uint64_t batches;        /* batches accepted */
	uint64_t received;       /* records in accepted batches */
	uint64_t kept;           /* records logged */
	uint64_t rejected;       /* streams dropped for garbage */
	uint64_t truncated;      /* streams that ended inside a batch */
	uint64_t rejected_bytes; /* bytes not logged because of the two above */
	uint64_t kernel_dropped; /* sum of the DROPPED traces' counts */
};

struct filter_core {
	const struct formats *fm;
	struct rules *rules;
	struct log_writer log;
	FILE *batch_log;          /* one line per accepted batch, or NULL */
	int quiet;                /* no stderr line per rejected stream */
	struct format note_format;
	uint32_t note_layout;
	const struct format *dropped; /* the DROPPED type, if described */
	const struct format *mark;    /* the MARK type, if described: kept
	                                 whatever the rules say (the
	                                 controller waits for marks) */
	struct format_field dropped_count;
	struct format_field machine;  /* the header's machine field */
	int has_machine;
	struct filter_stats st;
	struct tw_decoder *dec;   /* compact batches (kernel/abi/tracewire.h) ... */
	uint8_t *wide;            /* ... decoded into full records here */
	size_t wide_cap;
	char err[512];            /* why the log could not be written */
};

struct meter_stream {
	unsigned id;            /* connection number, from 1 */
	uint8_t *buf;
	size_t len, cap, need;  /* need: bytes the pending batch needs */
	uint64_t offset;        /* stream offset of buf[0] */
	uint32_t machine;       /* from the last good batch; 0xffffffff: none */
	uint32_t node;          /* the node that authenticated (kernel/abi/hostauth.h):
	                           a batch or record of any other machine is
	                           refused; 0: any (not authenticated) */
};

/* Add the NOTE layout to the rules' layouts and create the log. */
int core_open(struct filter_core *c, const struct formats *fm, struct rules *r,
	      const char *log_path, char *err, size_t errlen);
int core_close(struct filter_core *c, char *err, size_t errlen);

/* A new stream (counts a connection). */
int stream_open(struct filter_core *c, struct meter_stream *s);
void stream_free(struct meter_stream *s);

/* Where to read into, and how much room there is. */
uint8_t *stream_space(struct meter_stream *s, size_t *room);

/* n bytes were read into stream_space(): handle every whole batch and
 * write the log.  0 go on; 1 the stream was rejected (close it); -1 the
 * log could not be written (c->err says why). */
int stream_received(struct filter_core *c, struct meter_stream *s, size_t n);

/* The stream ended (read_error: it failed).  A batch left incomplete is
 * noted as truncated.  0, or -1 if the log could not be written. */
int stream_end(struct filter_core *c, struct meter_stream *s, int read_error);

/* The stream is being closed because its peer stopped inside a batch for
 * too long: what it holds is noted (NOTE_STALLED).  0, or -1 as above. */
int stream_stalled(struct filter_core *c, struct meter_stream *s);

#endif
