/*
 * servers/tsp/tspwatch.c - a watcher: tells the TSP controller when a
 * server on another node is gone.  The controller waits for answers in
 * RECEIVEMESSAGE, which a dead node does not wake; a CALL does (E_DEAD
 * when the server ends, E_NODEDOWN when its node goes down).  So the
 * watcher, on the controller's node, CALLs the server (link 5) with
 * TSP_WATCH, which the server never answers, and when the CALL returns
 * sends TSP_LOST over link 4 to the controller.
 *
 *     tspwatch INDEX        (started by tsp; INDEX: the server's number)
 */
#include <stdio.h>
#include <stdlib.h>

#include "servers/lib/demos.h"
#include "protocol.h"

#define LINK_CONTROLLER 4
#define LINK_SERVER 5

int main(int argc, char **argv)
{
	if (argc != 2) {
		printf("usage: tspwatch INDEX (started by tsp)\n");
		return 2;
	}
	uint32_t watch = TSP_WATCH, none;
	struct message m = message_into(&none, sizeof none);
	int r = call(LINK_SERVER, &watch, sizeof watch, -1, &m);
	struct tsp_msg_lost lost = { TSP_LOST, (uint32_t)atoi(argv[1]), r < 0 ? r : E_BADREQ };
	sendmessage(LINK_CONTROLLER, &lost, sizeof lost, -1);
	return 0;
}
