/*
 * kernel/net/port/lwipopts.h - lwIP's configuration for the DPM kernel:
 * NO_SYS=1 (no threads: the kernel calls lwIP from its network stack on
 * interrupts, the timer tick and peer_send), raw API only, IPv4 with ARP,
 * ICMP and TCP, static addresses.  Sizes are for up to 8 peers each with a
 * 64 KiB send ring (kernel/net/peer.c) plus a few host links.
 */
#ifndef DPM_LWIPOPTS_H
#define DPM_LWIPOPTS_H

#define NO_SYS 1
#define SYS_LIGHTWEIGHT_PROT 0      /* nothing preempts lwIP (interrupts off) */
#define LWIP_SOCKET 0
#define LWIP_NETCONN 0
#define LWIP_RAW 0
#define LWIP_UDP 0
#define LWIP_DHCP 0
#define LWIP_AUTOIP 0
#define LWIP_IGMP 0
#define LWIP_DNS 0
#define LWIP_IPV4 1
#define LWIP_IPV6 0
#define LWIP_ARP 1
#define LWIP_ETHERNET 1
#define LWIP_ICMP 1
#define LWIP_TCP 1
#define IP_REASSEMBLY 0             /* the peers never send IP fragments */
#define IP_FRAG 0
#define LWIP_STATS 0
#define LWIP_NETIF_API 0
#define LWIP_SINGLE_NETIF 0         /* the cluster LAN and the host link */
#define LWIP_HAVE_LOOPIF 0

/* Memory: a 256 KiB heap for TCP's copied send data, pools for the rest. */
#define MEM_ALIGNMENT 4
#define MEM_SIZE (256 * 1024)
#define MEMP_NUM_PBUF 64
#define PBUF_POOL_SIZE 128          /* received frames being processed     */
#define MEMP_NUM_TCP_PCB 24
#define MEMP_NUM_TCP_PCB_LISTEN 4
#define MEMP_NUM_TCP_SEG 512

/* TCP: full-size segments on the emulated Ethernet, windows of 16. */
#define TCP_MSS 1460
#define TCP_WND (16 * TCP_MSS)
#define TCP_SND_BUF (16 * TCP_MSS)
#define TCP_SND_QUEUELEN (4 * TCP_SND_BUF / TCP_MSS)
#define TCP_QUEUE_OOSEQ 1
#define TCP_LISTEN_BACKLOG 0
#define LWIP_TCP_KEEPALIVE 0        /* peers send their own heartbeats    */
#define LWIP_CALLBACK_API 1

#define ARP_TABLE_SIZE 16
#define ARP_QUEUEING 1
#define ETHARP_SUPPORT_STATIC_ENTRIES 0

#define LWIP_NETIF_STATUS_CALLBACK 0
#define LWIP_NETIF_LINK_CALLBACK 0
#define LWIP_NETIF_HOSTNAME 0

#define LWIP_DEBUG 0
#endif
