/*
 * analysis/bench/tracegen.c - dpm-tracegen: writes a synthetic trace CSV of a
 * server computation, for benchmarking the analyses on traces of any size.
 *
 * Clients 1.1 .. 1.C (node 1) send requests to a front server 2.1 (node 2),
 * which answers from its own work or passes the request to a back server
 * 3.1 (node 3) first; every message is SEND, QUEUED and RECEIVE.  Requests
 * are played out one step at a time in a single global order, so the trace
 * is consistent (its computation graph has no cycle) whatever the seed.
 *
 *   dpm-tracegen EVENTS [CLIENTS [SEED]] > trace.csv
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng = 88172645463325252ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

struct proc {
	unsigned node, pid;
	uint64_t cpu;
};

static uint64_t clock_ns, next_msg = 1, events;

/* One message: the sender works, sends; it is queued and received. */
static void message(struct proc *from, struct proc *to, unsigned work, unsigned len)
{
	from->cpu += work;
	clock_ns += 1000 + rnd(1000);
	printf("SEND,%llu,%llu,%u.%u,%u.%u,%u.%u,0x%llx,%u\n", (unsigned long long)clock_ns,
	       (unsigned long long)from->cpu, from->node, from->pid, from->node, from->pid,
	       to->node, to->pid, (unsigned long long)next_msg, len);
	clock_ns += 500;
	printf("QUEUED,%llu,%llu,%u.%u,%u.%u,%u.%u,0x%llx,%u\n", (unsigned long long)clock_ns,
	       (unsigned long long)to->cpu, to->node, to->pid, from->node, from->pid, to->node,
	       to->pid, (unsigned long long)next_msg, len);
	clock_ns += rnd(2000);
	printf("RECEIVE,%llu,%llu,%u.%u,%u.%u,%u.%u,0x%llx,%u\n", (unsigned long long)clock_ns,
	       (unsigned long long)to->cpu, to->node, to->pid, from->node, from->pid, to->node,
	       to->pid, (unsigned long long)next_msg, len);
	next_msg++;
	events += 3;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: dpm-tracegen EVENTS [CLIENTS [SEED]] > trace.csv\n");
		return 2;
	}
	uint64_t want = strtoull(argv[1], NULL, 10);
	unsigned nclients = argc > 2 ? (unsigned)atoi(argv[2]) : 8;
	if (argc > 3)
		rng ^= strtoull(argv[3], NULL, 10) * 0x9e3779b97f4a7c15ull;
	if (nclients < 1 || nclients > 1000) {
		fprintf(stderr, "dpm-tracegen: CLIENTS must be 1..1000\n");
		return 2;
	}
	static char buf[1 << 20];
	setvbuf(stdout, buf, _IOFBF, sizeof buf);
	struct proc *client = calloc(nclients, sizeof *client);
	struct proc front = { 2, 1, 0 }, back = { 3, 1, 0 };
	for (unsigned i = 0; i < nclients; i++)
		client[i] = (struct proc){ 1, i + 1, 0 };
	printf("type,time_ns,cpu_ns,task,src,dst,msg_id,length\n");
	while (events < want) {
		struct proc *c = &client[rnd(nclients)];
		message(c, &front, 20000 + rnd(50000), 64 + rnd(512));
		if (rnd(10) < 3) {
			message(&front, &back, 5000 + rnd(10000), 64);
			message(&back, &front, 30000 + rnd(100000), 1024);
		}
		message(&front, c, 10000 + rnd(20000), 64 + rnd(4096));
	}
	free(client);
	return fflush(stdout) ? 1 : 0;
}
