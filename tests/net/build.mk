# tests/net/build.mk - the network's tests (docs/network.md): host unit
# tests of its pure parts (framing, send ring, command-line keys, address
# plan), and `make check-peer`, the peer transport between QEMU nodes on a
# vde_switch, booted by `dpm cluster` (tests/cluster/peer_selftest.sh;
# about 20 s).

$(eval $(call unit_test,test_net_frame,tests/unit/test_net_frame.c kernel/net/frame.c kernel/net/ring.c))
$(eval $(call unit_test,test_net_vsync,tests/unit/test_net_vsync.c kernel/net/vsync.c kernel/net/vqueue.c))
# Node authentication: the kernel's HMAC (over lwIP's SHA-1, built for the
# host with the flags the kernels use) against the service's check.
include arch/lwip.mk
LWIP_SHA1_C := $(LWIP_SRC)/netif/ppp/polarssl/sha1.c
$(eval $(call unit_test,test_hostauth,tests/unit/test_hostauth.c kernel/net/hostauth_mac.c $(LWIP_SHA1_C) hostfilter/filter/nodeauth.c))
$(call host_obj,kernel/net/hostauth_mac.c $(LWIP_SHA1_C)) $(call asan_obj,kernel/net/hostauth_mac.c $(LWIP_SHA1_C)): \
	HOST_CFLAGS += -I$(LWIP_SRC)/include -Ikernel/net/port $(LWIP_SHA1_FLAGS)
$(eval $(call unit_test,test_net_config,tests/unit/test_net_config.c kernel/net/netconfig.c kernel/net/addrplan.c))

SUITES += peer
.PHONY: check-peer
check-peer: $(BUILD)/x86/kernel.elf $(DPM)
	@DPM=$(abspath $(DPM)) bash tests/cluster/peer_selftest.sh $(BUILD)/tests $(BUILD)/x86/kernel.elf
