/*
 * qemu/cluster/cluster_file.h - the cluster file: which nodes to boot (name, id,
 * architecture, memory, what init starts, extra kernel words) and which
 * host services the nodes reach (at most 4, names of at most 11 characters:
 * the limits of the kernel's host= word, docs/network.md), and the models
 * of virtual time (the `cluster` statement, cluster_vtime.h).  docs/cluster.md describes the format.
 *
 * A parsed file is a plain struct of fixed-size arrays, so the rest of `dpm cluster` can copy it around freely.
 */
#ifndef DPM_CLUSTER_FILE_H
#define DPM_CLUSTER_FILE_H

#include <stddef.h>

#include "cluster_vtime.h"

#define CLUSTER_MAX_NODES 8
#define CLUSTER_MAX_SERVICES 4  /* the kernel's host= takes at most 4 */
#define CLUSTER_NAME_MAX 16    /* characters of a node or service name */
#define CLUSTER_SERVICE_NAME_MAX 11 /* the kernel's host= names are shorter */
#define CLUSTER_WORDS_MAX 256  /* bytes of an init= or kernel= value */
#define CLUSTER_COMMAND_MAX 512 /* bytes of a service's start= value */
#define CLUSTER_DEFAULT_MEMORY 64 /* MiB */
#define CLUSTER_MIN_MEMORY 16
#define CLUSTER_MAX_MEMORY 2048

enum cluster_arch { CLUSTER_X86, CLUSTER_ARM };

struct cluster_node {
	char name[CLUSTER_NAME_MAX + 1];
	int id;                          /* 1..CLUSTER_MAX_NODES */
	enum cluster_arch arch;
	int memory_mib;
	char init[CLUSTER_WORDS_MAX];    /* init's arguments, words separated by spaces */
	char kernel[CLUSTER_WORDS_MAX];  /* extra kernel key=value words */
	int remote;                      /* boot=no: booted on another host, only in peers= */
	char disk[CLUSTER_WORDS_MAX];    /* disk=: the node's disk image (docs/fs.md), or "" */
	int icount;                      /* clock=icount: QEMU's -icount shift=0 (docs/cluster.md) */
	int vclock;                      /* clock=virtual: docs/virtual-time.md */
	int shift;                       /* shift=S under clock=virtual: 2^S ns an instruction */
	int shift_col;                   /* where shift= was given; 0: not given (the preset's) */
	int line;                        /* where it was defined (0: added by --nodes) */
};

struct cluster_service {
	char name[CLUSTER_NAME_MAX + 1];
	int port;                        /* on 127.0.0.1; 0: `up` picks a free one */
	char start[CLUSTER_COMMAND_MAX]; /* command `up` runs; empty: the user starts it */
	char cmd[CLUSTER_COMMAND_MAX];   /* command QEMU runs for each connection (no listener) */
	int auth;                        /* auth=: 0 not given, 1 yes, 2 no (cluster_service_auth) */
	int line;
};

/* Whether nodes authenticate to the service with the cluster's secret
 * (kernel/abi/hostauth.h): auth= if given, else yes for the control hub
 * `ctl` and for services `up` starts (they get the secret's file in
 * DPM_CLUSTER_SECRET), no for those you start and for cmd= services. */
int cluster_service_auth(const struct cluster_service *sv);

struct cluster_spec {
	int nnodes;
	struct cluster_node nodes[CLUSTER_MAX_NODES];
	int nservices;
	struct cluster_service services[CLUSTER_MAX_SERVICES];
	struct cluster_vtime vtime;      /* the `cluster` statement: virtual time's models */
};

/* Parse the text of a cluster file named `file` (for messages).  Returns 0,
 * or -1 with "file:line:col: message" in err. */
int cluster_parse(const char *file, const char *text, struct cluster_spec *spec,
		  char *err, size_t errlen);

/* Read and parse a cluster file; errors as cluster_parse (or "file: why"
 * when it cannot be read). */
int cluster_load(const char *path, struct cluster_spec *spec, char *err, size_t errlen);

/* Keep the first n nodes, or add nodes up to n shaped like the last one
 * (same arch, memory and kernel words, idle init) named "n<id>" with the
 * lowest free ids.  Returns 0, or -1 with a message in err. */
int cluster_set_node_count(struct cluster_spec *spec, int n, char *err, size_t errlen);

/* Put every node of the cluster in clock `mode` (plain, icount or
 * virtual; `dpm cluster up --clock`, `dpm record --clock`), whatever the
 * file said.  Refused, with the spec unchanged, for an unknown mode and
 * when the file has virtual time's settings (shift=, a `cluster`
 * statement) and the mode is not virtual.  Returns 0, or -1 with a
 * message in err. */
int cluster_set_clock(struct cluster_spec *spec, const char *mode, char *err, size_t errlen);

/* The clock of node n: "plain", "icount" or "virtual". */
const char *cluster_clock_name(const struct cluster_node *n);

const char *cluster_arch_name(enum cluster_arch arch);

/* The shift of node n under clock=virtual: its own, else the preset's. */
int cluster_node_shift(const struct cluster_spec *spec, const struct cluster_node *n);

#endif
