/*
 * servers/tsp/servers.h - the controller's side of its servers: creating
 * them round-robin on nodes (with a watcher for each server on another
 * node), sending each the matrix once, handing out subproblems, receiving
 * answers, and noticing a server that is gone (its end notice, a watcher's
 * TSP_LOST, or E_DEAD / E_NODEDOWN on a send).  docs/tsp.md.
 */
#ifndef DPM_TSP_SERVERS_H
#define DPM_TSP_SERVERS_H
#include <stdint.h>

#include "instance.h"
#include "protocol.h"

#define TSP_MAX_SERVERS 24

struct tsp_server {
	uint32_t task, node;
	int link;                /* ours, to the server                       */
	uint32_t watcher;        /* its watcher's task, 0 if on our node       */
	int outstanding;         /* subproblems sent, not answered             */
};

struct tsp_pool {
	int count;
	struct tsp_server server[TSP_MAX_SERVERS];
	int notify;              /* end notices of servers and watchers        */
	char error[160];         /* why the last call failed                  */
};

/* What the servers on `nodes[0..nnodes-1]` (round-robin; node 0: here)
 * are started with: extra arguments for the last server, for tests. */
struct tsp_pool_spec {
	int count;
	const uint32_t *nodes;
	int nnodes;
	const char *const *last_args; /* NULL-terminated, or NULL */
};

/* Create and start the servers and send each the matrix: 0, or -1 with
 * pool->error set (the servers created are killed). */
int pool_start(struct tsp_pool *pool, const struct tsp_pool_spec *spec, const struct tsp_instance *t);

/* Send a subproblem to server i: 0, or -1 with pool->error. */
int pool_send(struct tsp_pool *pool, int i, const struct tsp_subproblem *sub);

/* Wait for the next answer: its server's index and *ans, or -1 with
 * pool->error when a server is gone or misbehaves. */
int pool_receive(struct tsp_pool *pool, struct tsp_answer *ans);

/* The end: tell every server to quit and stop the watchers. */
void pool_stop(struct tsp_pool *pool);

/* After an error: kill every server and watcher still there. */
void pool_kill(struct tsp_pool *pool);
#endif
