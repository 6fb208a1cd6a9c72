# servers/bench/build.mk - benchmark programs and `make bench-kernel`.
PROGRAMS += kbench
kbench_SRCS := servers/bench/kbench.c servers/bench/bench_pair.c

BENCH_TARGETS += bench-kernel
.PHONY: bench-kernel
bench-kernel: all $(BUILD)/x86/nometer/kernel.elf $(BUILD)/arm/kernel.elf $(BUILD)/arm/nometer/kernel.elf $(KPROF) \
		$(foreach n,1 2 3,$(BUILD)/x86/cut$(n)/kernel.elf $(BUILD)/arm/cut$(n)/kernel.elf)
	bash servers/bench/bench-kernel.sh $(BUILD)/x86/kernel.elf $(BUILD)/x86/nometer/kernel.elf $(BUILD)/arm/kernel.elf \
		$(BUILD)/arm/nometer/kernel.elf $(BUILD)/bench $(KPROF)

# Where a remote 1-byte message's instructions go, per function on both
# nodes of a 2-node cluster (docs/kernel-calls.md, the end of "Cost").
BENCH_TARGETS += bench-remote
.PHONY: bench-remote
bench-remote: all $(KPROF)
	bash servers/bench/bench-remote.sh $(DPM) $(BUILD)/x86/kernel.elf $(BUILD)/bench $(KPROF)

# Message delivery times, local and across nodes (docs/mtime.md).
PROGRAMS += pingpong
pingpong_SRCS := servers/bench/pingpong.c servers/bench/bench_pair.c
PROGRAMS += movebench
movebench_SRCS := servers/bench/movebench.c servers/bench/bench_pair.c

BENCH_TARGETS += bench-mtime
.PHONY: bench-mtime
bench-mtime: all
	bash servers/bench/bench-mtime.sh $(DPM) $(BUILD)/x86/kernel.elf $(BUILD)/bench

# Messages to the host per traced event: the batching ratio seen by a real
# host filter (servers/bench/bench-meter.sh).
BENCH_TARGETS += bench-meter
.PHONY: bench-meter
bench-meter: all
	bash servers/bench/bench-meter.sh $(DPM) $(BUILD)/x86/kernel.elf $(BUILD)/bench

# Many SENDs one way to a slow receiver: flow control across nodes
# (docs/remote.md; tests/cluster/cluster_test_vtime_async.sh).
PROGRAMS += stream
stream_SRCS := servers/bench/stream.c servers/bench/bench_pair.c
