# servers/bench/build.mk - benchmark programs and `make bench-kernel`.
PROGRAMS += kbench
kbench_SRCS := servers/bench/kbench.c

BENCH_TARGETS += bench-kernel
.PHONY: bench-kernel
bench-kernel: all
	bash servers/bench/bench-kernel.sh $(BUILD)/x86/kernel.elf $(BUILD)/bench
