# servers/bench/build.mk - benchmark programs and `make bench-kernel`.
PROGRAMS += kbench
kbench_SRCS := servers/bench/kbench.c

BENCH_TARGETS += bench-kernel
.PHONY: bench-kernel
bench-kernel: all $(BUILD)/x86/nometer/kernel.elf $(BUILD)/arm/kernel.elf
	bash servers/bench/bench-kernel.sh $(BUILD)/x86/kernel.elf $(BUILD)/x86/nometer/kernel.elf $(BUILD)/arm/kernel.elf $(BUILD)/bench
