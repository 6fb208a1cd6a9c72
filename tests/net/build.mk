# tests/net/build.mk - the network's tests (docs/network.md): host unit
# tests of its pure parts (framing, send ring, command-line keys, address
# plan), and `make check-peer`, the peer transport between QEMU nodes on a
# vde_switch, booted by `dpm cluster` (tests/cluster/peer_selftest.sh;
# about 20 s).

$(eval $(call unit_test,test_net_frame,tests/unit/test_net_frame.c kernel/net/frame.c kernel/net/ring.c))
$(eval $(call unit_test,test_net_vsync,tests/unit/test_net_vsync.c kernel/net/vsync.c kernel/net/vqueue.c))
$(eval $(call unit_test,test_net_config,tests/unit/test_net_config.c kernel/net/netconfig.c kernel/net/addrplan.c))

SUITES += peer
.PHONY: check-peer
check-peer: $(BUILD)/x86/kernel.elf $(DPM)
	@DPM=$(abspath $(DPM)) bash tests/cluster/peer_selftest.sh $(BUILD)/tests $(BUILD)/x86/kernel.elf
