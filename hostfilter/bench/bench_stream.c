/*
 * hostfilter/bench/bench_stream.c - the synthetic meter stream of the filter
 * benchmark (bench_stream.h): RECORDS records in batches, as nodes' kernels
 * would send them.
 *
 * The mix is what a metered message-passing program produces: for each
 * message a SEND, a QUEUED, a RECEIVECALL and a RECEIVE, with now and then
 * a link or process event, spread over four nodes.  Batches are built in
 * place and written in large pieces so the generator costs far less than
 * the filter it feeds.
 */
#include <string.h>
#include <unistd.h>

#include "bench_stream.h"
#include "kernel/abi/trace.h"

#define NODES 4
#define OUT_BUFFER (1 << 20)

struct node_state {
	uint32_t seq;
	uint64_t clock, msgs;
};

static uint32_t record_size(uint32_t type)
{
	switch (type) {
	case TRACE_SEND: return TRACE_HEADER_SIZE + sizeof(struct trace_send);
	case TRACE_QUEUED: return TRACE_HEADER_SIZE + sizeof(struct trace_queued);
	case TRACE_RECEIVECALL: return TRACE_HEADER_SIZE + sizeof(struct trace_receivecall);
	case TRACE_RECEIVE: return TRACE_HEADER_SIZE + sizeof(struct trace_receive);
	case TRACE_CREATELINK: return TRACE_HEADER_SIZE + sizeof(struct trace_link);
	default: return TRACE_HEADER_SIZE + sizeof(struct trace_process);
	}
}

/* The i-th event of the cycle, for node n. */
static uint32_t event_type(uint64_t i)
{
	static const uint32_t cycle[] = { TRACE_SEND, TRACE_QUEUED, TRACE_RECEIVECALL, TRACE_RECEIVE,
					  TRACE_SEND, TRACE_QUEUED, TRACE_RECEIVECALL, TRACE_RECEIVE,
					  TRACE_CREATELINK, TRACE_STARTPROCESS };
	return cycle[i % (sizeof cycle / sizeof cycle[0])];
}

static uint32_t write_record(uint8_t *p, uint32_t node, struct node_state *ns, uint64_t i)
{
	union {
		uint8_t bytes[TRACE_MAX_SIZE];
		struct {
			struct trace_header h;
			union {
				struct trace_send send;
				struct trace_queued queued;
				struct trace_receivecall rcall;
				struct trace_receive recv;
				struct trace_link link;
				struct trace_process proc;
			} b;
		} r;
	} u;
	uint32_t type = event_type(i);
	uint32_t me = TASK_MAKE(node, 3 + i % 5), peer = TASK_MAKE((node + 1) % NODES, 3);
	if (type == TRACE_SEND)
		ns->msgs++;
	uint64_t msg = ((uint64_t)node << 48) | ns->msgs;
	memset(&u, 0, sizeof u);
	ns->clock += 1000 + i % 777;
	u.r.h = (struct trace_header){ node, type, ns->clock, ns->clock / 3, ns->seq++,
				       (uint32_t)(1 + i % 4), me, record_size(type) };
	switch (type) {
	case TRACE_SEND:
		u.r.b.send = (struct trace_send){ me, peer, 1, 7, 2, NO_LINK, msg, 64 + i % 1000, 0 };
		break;
	case TRACE_QUEUED:
		u.r.b.queued = (struct trace_queued){ .fromTask = peer, .toTask = me, .msgId = msg, .length = 64,
						       .queueLen = (uint32_t)(i % 3), .channel = 1, .code = 7 };
		break;
	case TRACE_RECEIVECALL:
		u.r.b.rcall = (struct trace_receivecall){ me, (uint32_t)(i % 2), 1, 0 };
		break;
	case TRACE_RECEIVE:
		u.r.b.recv = (struct trace_receive){ peer, me, 1, 7, msg, 64, NO_LINK, 0, 0 };
		break;
	case TRACE_CREATELINK:
		u.r.b.link = (struct trace_link){ 4, peer, 9, 2, 0, 3 };
		break;
	default:
		u.r.b.proc = (struct trace_process){ me, peer, 0, 0 };
	}
	memcpy(p, u.bytes, u.r.h.size);
	return u.r.h.size;
}

static int flush(int fd, const uint8_t *buf, size_t n)
{
	while (n) {
		ssize_t k = write(fd, buf, n);
		if (k <= 0)
			return -1;
		buf += k;
		n -= (size_t)k;
	}
	return 0;
}

int bench_stream_write(int fd, uint64_t records, unsigned per_batch)
{
	if (per_batch < 1 || per_batch > BENCH_STREAM_MAX_BATCH)
		return -1;
	static uint8_t out[OUT_BUFFER + BENCH_STREAM_MAX_BATCH * TRACE_MAX_SIZE + 64];
	struct node_state nodes[NODES] = { { 0, 0, 0 } };
	size_t len = 0;
	for (uint64_t i = 0; i < records;) {
		uint32_t node = (uint32_t)((i / per_batch) % NODES);
		struct meter_batch_header *h = (struct meter_batch_header *)(out + len);
		size_t at = len + sizeof *h;
		unsigned n = 0;
		for (; n < per_batch && i < records; n++, i++)
			at += write_record(out + at, node, &nodes[node], i);
		*h = (struct meter_batch_header){ METER_BATCH_MAGIC, METER_BATCH_VERSION, (uint16_t)n,
						  node, (uint32_t)(at - len - sizeof *h) };
		len = at;
		if (len >= OUT_BUFFER) {
			if (flush(fd, out, len))
				return -1;
			len = 0;
		}
	}
	return flush(fd, out, len);
}
