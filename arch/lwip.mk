# arch/lwip.mk - the lwIP 2.1.3 files every node's kernel links: what
# NO_SYS=1 IPv4 + TCP + ARP + ICMP needs, listed (the tree only exists after
# `make deps`, so a wildcard would find nothing on a fresh clone).  Shared
# by the machines' fragments; docs/network.md.
LWIP_SRC := $(BUILD)/deps/lwip/src
LWIP_FILES := core/init.c core/def.c core/inet_chksum.c core/ip.c core/mem.c core/memp.c \
	core/netif.c core/pbuf.c core/tcp.c core/tcp_in.c core/tcp_out.c core/timeouts.c \
	core/ipv4/etharp.c core/ipv4/icmp.c core/ipv4/ip4.c core/ipv4/ip4_addr.c netif/ethernet.c
# lwIP's SHA-1 (the PolarSSL code it ships for PPP) for node authentication
# (kernel/net/hostauth_mac.c): built on its own, PPP itself stays out.
LWIP_FILES += netif/ppp/polarssl/sha1.c
LWIP_SHA1_FLAGS := -DPPP_SUPPORT=1 -DLWIP_INCLUDED_POLARSSL_SHA1=1
