/*
 * servers/tsp/protocol.h - the messages between the TSP controller (tsp),
 * its servers (tspserver) and the watchers (tspwatch).  docs/tsp.md has the
 * exchange in order.  The first word of every message is its kind.
 *
 * The matrix goes to each server once, in TSP_MATRIX messages of whole
 * rows; after that only subproblems (TSP_WORK) and answers (TSP_ANSWER)
 * flow, as in the thesis (§5.3.3.1).  struct tsp_subproblem and struct
 * tsp_answer are also what the controller's search (search.c) and the
 * server's computation (bnb.c) exchange on the host, without messages.
 */
#ifndef DPM_TSP_PROTOCOL_H
#define DPM_TSP_PROTOCOL_H
#include <stdint.h>

#include "instance.h"

enum tsp_kind {
	TSP_HELLO = 0x7301,  /* server -> controller, passes a link to the server */
	TSP_MATRIX = 0x7302, /* controller -> server: rows first..first+rows-1     */
	TSP_WORK = 0x7303,   /* controller -> server: one subproblem                */
	TSP_ANSWER = 0x7304, /* server -> controller: its result                    */
	TSP_QUIT = 0x7305,   /* controller -> server: end with status 0             */
	TSP_WATCH = 0x7306,  /* watcher -> server by CALL, never answered           */
	TSP_LOST = 0x7307    /* watcher -> controller: its CALL ended (server gone) */
};

/* What a server is asked to do with a path (a tour prefix from city 0). */
enum tsp_mode {
	TSP_BOUND = 1,       /* compute the path's lower bound                      */
	TSP_SOLVE = 2        /* find the best completion cheaper than `upper`       */
};

enum tsp_status {
	TSP_BOUNDED = 1,     /* value: the lower bound (below upper)                */
	TSP_PRUNED = 2,      /* nothing below upper there (value: the bound, or upper) */
	TSP_SOLVED = 3       /* value: the best tour's cost; tour: the whole tour   */
};

struct tsp_subproblem {
	uint32_t id;
	uint32_t mode;       /* enum tsp_mode */
	int32_t upper;       /* best tour known to the controller when sent        */
	uint32_t len;        /* cities in path, 1..n; path[0] == 0                  */
	uint8_t path[TSP_MAX_N];
};

struct tsp_answer {
	uint32_t id;
	uint32_t status;     /* enum tsp_status */
	int32_t value;
	uint32_t nodes;      /* lower bounds computed for this answer              */
	uint8_t tour[TSP_MAX_N];
};

/* 16 + 15 * 64 * 4 = 3856 bytes: within MSG_MAX (checked where messages are sent) */
#define TSP_ROWS_PER_MSG 15

struct tsp_msg_matrix {
	uint32_t kind;       /* TSP_MATRIX */
	uint32_t n;
	uint32_t first;
	uint32_t rows;
	int32_t cost[TSP_ROWS_PER_MSG][TSP_MAX_N];
};

struct tsp_msg_work {
	uint32_t kind;       /* TSP_WORK */
	struct tsp_subproblem sub;
};

struct tsp_msg_answer {
	uint32_t kind;       /* TSP_ANSWER */
	struct tsp_answer ans;
};

struct tsp_msg_lost {
	uint32_t kind;       /* TSP_LOST */
	uint32_t server;     /* index of the watched server */
	int32_t error;       /* what its CALL returned: E_DEAD, E_NODEDOWN, ... */
};
#endif
