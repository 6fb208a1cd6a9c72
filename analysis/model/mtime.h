/*
 * analysis/model/mtime.h - the message delivery-time function MTIME(len, src,
 * dst) of TR 574 §3.2, from a table of measured sizes.
 *
 * The table is the CSV `make bench` writes (size_bytes,local_ns,remote_ns;
 * docs/mtime.md); without one, a documented default derived from the
 * thesis's Fig. 5.11 is used.  Between sizes the time is interpolated
 * linearly; below the first size it is the first size's time; beyond the
 * last it follows the last segment's slope.  A table may say, in a comment
 * line `# clock=MODE`, in which clock it was taken (plain, icount or
 * virtual): the one `dpm record` writes beside its log does.
 */
#ifndef DPM_ANALYSIS_MODEL_MTIME_H
#define DPM_ANALYSIS_MODEL_MTIME_H

#include <stddef.h>
#include <stdint.h>

#define MTIME_MAX_ROWS 64

struct mtime_table {
	size_t n;
	double size[MTIME_MAX_ROWS];    /* bytes, strictly increasing */
	double local[MTIME_MAX_ROWS];   /* ns, both machines the same */
	double remote[MTIME_MAX_ROWS];  /* ns, different machines */
	/* Optional columns remote_tx_ns, remote_rx_ns: the CPU the sending and
	 * the receiving machine's kernels spend on a remote message outside
	 * any process (its transport: virtual time charges it to the node,
	 * docs/virtual-time.md §2.5), which the analyses charge to the
	 * machine.  0 when the table has none. */
	double tx[MTIME_MAX_ROWS];
	double rx[MTIME_MAX_ROWS];
	/* Optional column remote_wire_ns: how long a remote message's frame
	 * holds its sending machine's link (its bytes at the bandwidth), so
	 * that frames sent close together queue for it (dpm parallel
	 * --contention).  0 when the table has none. */
	double wire[MTIME_MAX_ROWS];
	/* Optional column tick_ns (the same on every row): the kernel's own
	 * work each 10 ms tick of a node (its timers, network stack, host
	 * gate, meter shipping), on the node clock in no process, so that a
	 * machine gives its processes 1 - tick_ns / 10 ms of its CPU (dpm
	 * parallel --contention).  0 when the table has none. */
	double tick_ns;
	int zero;                       /* every delivery takes no time */
	char clock[16];                 /* `# clock=MODE` of the file; "" unknown */
};

/* The built-in table: thesis Fig. 5.11 with each millisecond read as a
 * microsecond (docs/mtime.md). */
void mtime_default(struct mtime_table *m);

/* Zero delivery time everywhere (the upper bound of P). */
void mtime_zero(struct mtime_table *m);

/* Read a table.  0 ok; -1 with "file:line: what is wrong" in err. */
int mtime_load(struct mtime_table *m, const char *path, char *err, size_t errlen);

/* The `# clock=MODE` comment line of the table at path into out ("" when
 * it has none or cannot be read). */
void mtime_file_clock(const char *path, char *out, size_t size);

/* Delivery time in ns of a message of len bytes between two machines. */
double mtime(const struct mtime_table *m, uint32_t len, int same_machine);

/* The kernel CPU in ns a remote message of len bytes costs its sending
 * machine (receiving 0) or its receiving machine (receiving 1): the
 * table's remote_tx_ns / remote_rx_ns, interpolated as MTIME is; 0
 * without those columns or for a zero table. */
double mtime_transport(const struct mtime_table *m, uint32_t len, int receiving);

/* The table's remote_wire_ns at len bytes (0 without the column). */
double mtime_wire(const struct mtime_table *m, uint32_t len);

#endif
