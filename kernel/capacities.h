/*
 * kernel/capacities.h - every fixed table size of a node's kernel, in one
 * place (in the manner of lwIP's opt.h).  The kernel allocates nothing in
 * its hot paths: each table below is a static array, so each is a limit a
 * program can meet.  Each line says what the size bounds and what happens
 * when the table is full.  Every default can be overridden at build time
 * with -DNAME=VALUE added to the kernel's flags (X86_KCFLAGS, ARM_KCFLAGS
 * in arch/x86/build.mk, arch/arm/build.mk); the tests assume the
 * defaults.
 *
 * Not here, because they are part of the program ABI (programs size their
 * buffers by them; kernel/abi/calls.h): MSG_MAX (bytes in one message), QUEUE_MAX
 * (messages waiting for one process: a send gets E_QUEUEFULL) and NLINK
 * (links in one process's table: E_NOSPACE).  lwIP's own pools are in
 * kernel/net/port/lwipopts.h.
 */
#ifndef DPM_CAPACITIES_H
#define DPM_CAPACITIES_H

/* ---- processes and messages (proc.c, ipc.c, msgqueue.c) ---- */

#ifndef NPROC
#define NPROC 64        /* processes on one node; full: creating one fails with E_NOMEM */
#endif
#ifndef NMSG
#define NMSG 512        /* message headers queued on one node at once; full: a send fails with E_NOMEM */
#endif

/* ---- per-process quotas and the kernel's reserve ----
 * What one process can make the kernel hold, each checked with one
 * compare where the resource is taken and given back when it is released
 * or the process ends (docs/kernel-calls.md, "Limits"); read them with
 * KR_KSTATS. */
#ifndef PROC_MSG_QUOTA
#define PROC_MSG_QUOTA 128 /* message headers charged to one process: the queued messages it
                              sent (a reply over a reply link excepted), its pending alarms and
                              the alarm messages they became, its host gate's bytes, until
                              received or discarded;
                              reached: SEND and CALL fail with E_NOMEM, KR_ALARM too */
#endif
#ifndef PROC_PAGE_QUOTA
#define PROC_PAGE_QUOTA 4096 /* pages (16 MiB) mapped in one process (program, stack, heap);
                                reached: KR_BRK fails with E_NOMEM, nothing mapped; creating
                                a process that needs more fails with E_NOMEM */
#endif
#ifndef PROC_ALARM_QUOTA
#define PROC_ALARM_QUOTA 4 /* alarms pending for one process; reached: KR_ALARM fails with
                              E_NOSPACE.  Its pending alarms go when it ends */
#endif
#ifndef MSG_RESERVE
#define MSG_RESERVE (2 * NPROC) /* headers of NMSG only the kernel's own traffic may take
                                   (end notices, error replies, alarms, replies over reply
                                   links: at most one per blocked caller); a process's message
                                   finding no more than this free fails with E_NOMEM */
#endif
#ifndef PAGE_RESERVE
#define PAGE_RESERVE (MSG_RESERVE + 2 * NPROC) /* free pages only the kernel may take (the
                                   reserve's message data, kernel stacks' share); a process's
                                   message data or mapping finding no more than this free
                                   fails with E_NOMEM */
#endif
#ifndef NALARM
#define NALARM (NPROC * PROC_ALARM_QUOTA) /* alarms pending on one node (alarm.c): one
                           table for every process's quota, so it is never full */
#endif

/* ---- metering (meter/) ---- */

#ifndef METER_DESTS
#define METER_DESTS 8   /* distinct meter links in use at once, each with a
                           one-message (MSG_MAX) batch buffer; full: setting a
                           new meter link (or a mark to one) fails with E_NOSPACE */
#endif

/* ---- the network (kernel/net/, remote.c, hostgate.c) ---- */

#ifndef NET_MAX_PEERS
#define NET_MAX_PEERS 8          /* nodes in peers= besides this one; more: the node refuses its command line */
#endif
#ifndef NET_MAX_HOST_SERVICES
#define NET_MAX_HOST_SERVICES 4  /* names in host=; more: the node refuses its command line */
#endif
#ifndef NET_MAX_IFS
#define NET_MAX_IFS 4            /* network interfaces brought up (netif.c); more: the extra card is left unconfigured */
#endif
#ifndef PEER_SNDBUF
#define PEER_SNDBUF (64 * 1024)  /* bytes queued to one peer (4 per frame + frame); full: peer_send
                                    gives E_NOMEM and remote.c blocks the sender or defers the frame */
#endif
#ifndef HOSTLINK_MAX
#define HOSTLINK_MAX 4           /* TCP streams to host services open at once; full: hostlink_open fails with E_NOSPACE */
#endif
#ifndef HOSTLINK_SNDBUF
#define HOSTLINK_SNDBUF (64 * 1024) /* bytes queued on one host link; full: a send fails with E_NOMEM */
#endif
#ifndef HOSTGATE_MAX
#define HOSTGATE_MAX 2           /* host gates open on a node at once; full: KR_HOSTOPEN fails with E_NOSPACE */
#endif
#ifndef HOSTGATE_INBOX
#define HOSTGATE_INBOX 24576     /* bytes from the host held while a gate's owner's queue is full:
                                    more than lwIP's TCP_WND (16 * 1460), which bounds what the
                                    host may send ahead, so it never overflows */
#endif
#ifndef NDEFERRED
/* frames remote.c holds for peers whose send buffer is full: one post per
 * message header and two answers per process per peer, so it cannot run
 * out while peers behave; full: the frame is lost with a console message */
#define NDEFERRED (NMSG + 2 * NPROC * NET_MAX_PEERS)
#endif

#ifndef REMOTE_CREDIT
/* virtual time: messages each peer may have in flight to this node, their
 * headers held back from NMSG (docs/remote.md); a SEND past it waits for a
 * credit.  Given back in batches of REMOTE_CREDIT / 2, or at the next tick */
#define REMOTE_CREDIT 32
#endif

/* ---- boot ---- */

#ifndef CMDLINE_MAX
#define CMDLINE_MAX 512 /* bytes of the kernel command line kept (arch/x86/start.c, arch/arm/start.c); longer: cut there */
#endif
#ifndef INIT_ARGS_MAX
#define INIT_ARGS_MAX 512 /* bytes of init's arguments, NULs included (main.c); a word that does not fit is dropped */
#endif

/* ---- devices (arch/) ---- */

#ifndef VNET_MAX
#define VNET_MAX 4      /* virtio network cards driven (arch/virtio/virtio_net.c); more: ignored with a console message */
#endif
#ifndef VIRTIO_PCI_MAX
#define VIRTIO_PCI_MAX 8 /* virtio devices found on the PCI bus (x86); more: ignored */
#endif
#ifndef VIRTIO_MMIO_MAX
#define VIRTIO_MMIO_MAX 8 /* virtio-mmio devices taken (ARM); more: ignored with a console message */
#endif
#ifndef IRQ_HANDLERS_PER_LINE
#define IRQ_HANDLERS_PER_LINE 4 /* handlers sharing one x86 interrupt line; full: arch_irq_register gives E_NOSPACE */
#endif

#endif
