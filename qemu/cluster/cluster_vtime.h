/*
 * qemu/cluster/cluster_vtime.h - the models virtual time runs a cluster by,
 * as the cluster file gives them (docs/virtual-time.md §2.4, §2.7;
 * docs/cluster.md): a network preset (`net=lan|1984`), the attributes
 * that override it (`latency=`, `bandwidth=`, `txcost=`, `rxcost=`,
 * `disklatency=`, `disksector=`, `stops=`) with the units a user writes (20us,
 * 1000M), the nodes' default `shift=`, and the kernel command-line words
 * they become (kernel/vtime_config.h reads them).
 *
 * Kept apart from the parser so that the values and the words are one
 * table, unit-tested, and so that `dpm record` can compute a delivery-time
 * table from the same model.
 */
#ifndef DPM_CLUSTER_VTIME_H
#define DPM_CLUSTER_VTIME_H

#include <stddef.h>
#include <stdint.h>

enum cluster_net { CLUSTER_NET_LAN, CLUSTER_NET_1984 };

/* One value of the models each; the attribute that sets it is in
 * cluster_vtime.c's table. */
enum vt_field {
	VT_LATENCY,      /* ns one way, wire and switch                     */
	VT_BANDWIDTH,    /* bits per second                                  */
	VT_TX_FIXED,     /* ns per frame, the sending kernel's transport     */
	VT_TX_PER_KB,    /* ns per 1000 bytes of a frame, sending            */
	VT_RX_FIXED,     /* ns per frame, receiving                          */
	VT_RX_PER_KB,    /* ns per 1000 bytes, receiving                     */
	VT_DISK_LATENCY, /* ns per disk request                              */
	VT_DISK_SECTOR,  /* ns per 512-byte sector                           */
	VT_STOPS,        /* ns of node time between a busy node's stops      */
	VT_COPY,         /* ns per 1000 bytes of message data, each copy     */
	VT_FIELDS
};

#define CLUSTER_SHIFT_MAX 10 /* QEMU's largest -icount shift */

/* The `cluster` statement of a cluster file: the preset and what overrides
 * it.  All zero: none given (the LAN preset). */
struct cluster_vtime {
	enum cluster_net net;
	uint64_t value[VT_FIELDS];  /* valid where set has the field's bit    */
	unsigned set;               /* 1 << field for each attribute given     */
	int line, col;              /* the statement (0: none), for messages  */
};

/* Set one attribute of the `cluster` statement from its text.  0, or -1
 * with what is wrong (no position) in err; 1 when key is not one of its
 * attributes. */
int cluster_vtime_attribute(struct cluster_vtime *vt, const char *key, const char *value,
			    char *err, size_t errlen);

/* The statement's attributes, for "expected ..." messages. */
const char *cluster_vtime_attribute_names(void);

/* The models in force: the preset's values with the given ones over them. */
void cluster_vtime_resolve(const struct cluster_vtime *vt, uint64_t out[VT_FIELDS]);

/* The shift of a node that gives none: 0 (1 ns an instruction) on the
 * LAN, 10 (1.024 us: about a VAX-11/780) with the 1984 preset. */
int cluster_vtime_default_shift(const struct cluster_vtime *vt);

/* A node's `shift=S`, 0..CLUSTER_SHIFT_MAX.  0, or -1 with why in err. */
int cluster_vtime_shift(const char *value, int *shift, char *err, size_t errlen);

/* The kernel words of the models: "vlat=NS vbw=BPS vtx=NS,NS vrx=NS,NS
 * vdisk=NS,NS vstop=NS" (without vclock=1).  0, or -1 if it does not fit. */
int cluster_vtime_kernel_words(const struct cluster_vtime *vt, char *out, size_t size);

/* A time as a user writes it: a decimal number with a unit, ns, us, ms or
 * s (20us, 1.5ms; a bare 0 is 0), a whole number of ns, at most 100 s.
 * 0 and the ns in *ns, or -1. */
int cluster_parse_time(const char *s, uint64_t *ns);

/* A rate in bits per second: a decimal number, bare or with k, M or G
 * (powers of 1000): 3M, 1000M, 1.5G; above 0, whole, at most 1000G. */
int cluster_parse_rate(const char *s, uint64_t *bps);

#endif
