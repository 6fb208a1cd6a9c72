/*
 * servers/hello/hello.c - the smallest useful program: it greets, finds the
 * name service, registers and looks itself up, and reports its node, time
 * and CPU time.  `make demo` runs it as the first sign of life.
 */
#include <stdio.h>

#include "servers/lib/demos.h"
#include "servers/lib/ns.h"

int main(int argc, char **argv)
{
	uint32_t node, runnable;
	uint64_t now, cpu;
	printf("hello from %s on DPM", argv[0]);
	for (int i = 1; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	if (node_info(&node, &runnable) < 0 || node_time(&now, &cpu) < 0)
		return 1;
	int self = createlink(7, NULL, 0, 0);
	int r = ns_register("hello", self);
	int found = ns_lookup("hello");
	printf("node %u, %u runnable, clock %llu ns, my cpu %llu ns, ns register %s, lookup gave link %d\n",
	       (unsigned)node, (unsigned)runnable, (unsigned long long)now, (unsigned long long)cpu,
	       kerror_name(r), found);
	return r == 0 && found >= 0 ? 0 : 1;
}
