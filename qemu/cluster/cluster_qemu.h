/*
 * qemu/cluster/cluster_qemu.h - the QEMU command line of one node: machine, kernel
 * command line, serial console (log file plus a socket to type into), the
 * LAN NIC on the switch and, when the cluster has host services, a second
 * NIC that reaches them through QEMU's NAT (10.0.2.2; a cmd= service through
 * a guestfwd command at CLUSTER_HOST_ADDR).
 *
 * Kept apart from the code that starts processes so that the exact command
 * line is unit-tested.
 */
#ifndef DPM_CLUSTER_QEMU_H
#define DPM_CLUSTER_QEMU_H

#include <stddef.h>

#include "cluster_file.h"

/* The guest address at which cmd= services appear (guestfwd). */
#define CLUSTER_HOST_ADDR "10.0.2.100"

struct node_launch {
	const char *dir;                          /* state directory (absolute) */
	const char *kernel;                       /* x86 kernel image */
	const char *arm_kernel;                   /* ARM kernel image; NULL: the one
						     beside the x86 one (qemu_arm_kernel) */
	const struct cluster_spec *spec;          /* every node (for peers=) */
	const struct cluster_service *services;   /* ports resolved; NULL: no host NIC */
	int nservices;
};

#define QEMU_MAX_ARGS 64

struct qemu_command {
	char *argv[QEMU_MAX_ARGS + 1];           /* NULL-terminated, pointing into buf */
	int argc;
	char buf[16384];
	size_t used;
};

/* The ARM kernel that belongs with an x86 one: BUILD/x86/kernel.elf ->
 * BUILD/arm/kernel.elf; -1 when x86_kernel is not named so. */
int qemu_arm_kernel(const char *x86_kernel, char *out, size_t size);

/* The kernel command line of node n: node=, peers=, host=NAME:PORT,...
 * (when there are services; docs/network.md), the node's kernel words, then init's arguments. */
int qemu_kernel_cmdline(const struct cluster_node *n, const struct node_launch *l, char *out,
			size_t size);

/* The whole QEMU command for node n.  Returns 0, or -1 with a message. */
int qemu_node_command(const struct cluster_node *n, const struct node_launch *l,
		      struct qemu_command *cmd, char *err, size_t errlen);

/* Whether a console's text shows node_id's boot banner
 * ("DPM kernel: node N" not followed by another digit). */
int qemu_console_has_banner(const char *text, int node_id);

#endif
