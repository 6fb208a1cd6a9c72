# DPM top-level Makefile.
#
# Every target depends on what it needs, so `make check` and `make demo`
# work straight after a clone.  Components add themselves through their own
# build.mk fragments (included below); those only append to the variables
# defined here and use the helper macros, so this file stays the one place
# that knows the shape of the build.

BUILD      ?= build
HOSTCC     ?= gcc
HOST_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O2 -g -MMD -MP -I.
HOST_LDLIBS := -lm -lz -lnettle
UNIT_LDLIBS := -lcmocka -lm -lz -lnettle

DEPS_STAMP := $(BUILD)/deps/.done
DPM        := $(BUILD)/bin/dpm
# The trace-log library every host tool that reads or writes a log links
# (hostfilter/build.mk builds it), and its build for the sanitizer suite.
TRACELOG_LIB := $(BUILD)/lib/libtracelog.a
TRACELOG_ASAN_LIB := $(BUILD)/asan/lib/libtracelog.a

# Sources of the host tool `dpm`; fragments append to it.
DPM_SRCS := qemu/dpm.c
# Host libraries dpm links (fragments append; each after the objects).
DPM_LIBS :=
# Unit-test binaries (cmocka); fragments append through $(call unit_test,...),
# which also builds each with AddressSanitizer and UBSan (suite `asan`).
UNIT_BINS :=
UNIT_ASAN_BINS :=
# Guest images and host tests wanted by `make` / `make check`.
ALL_TARGETS := $(DPM)
# Test suites `make check` runs, in order; fragments append.
SUITES := unit asan guest
# Benchmark targets; fragments append.  `make bench` runs them all.
BENCH_TARGETS :=

.PHONY: all deps check check-unit check-asan check-guest check-cluster bench demo study-fs study-tsp clean soak
all: build-all

host_obj = $(patsubst %.c,$(BUILD)/host/%.o,$(1))
# The same sources built with the sanitizers (a library by its own build).
ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
asan_obj = $(patsubst %.c,$(BUILD)/asan/%.o,$(patsubst $(TRACELOG_LIB),$(TRACELOG_ASAN_LIB),$(1)))
# Kernel code compiled on the host for its unit tests sees x86's machine
# headers, which the portable code includes by their bare names.
KERNEL_ON_HOST := kernel/% meter/% tests/unit/test_kernel_% tests/unit/test_net_% tests/unit/test_meter_%
host_cflags_for = $(HOST_CFLAGS) $(if $(filter $(KERNEL_ON_HOST),$(1)),-Iarch/x86)

# $(call unit_test,NAME,SOURCES): a cmocka test binary build/tests/unit/NAME
# built from SOURCES (the test file first, then the code under test), and
# the same with the sanitizers, build/tests/unit-asan/NAME.  A test that
# needs another library sets NAME_LDLIBS.
define unit_test
UNIT_BINS += $(BUILD)/tests/unit/$(1)
$(BUILD)/tests/unit/$(1): $(call host_obj,$(2)) | $(DEPS_STAMP)
	@mkdir -p $$(@D)
	$(HOSTCC) -o $$@ $$^ $(UNIT_LDLIBS) $$($(1)_LDLIBS)
UNIT_ASAN_BINS += $(BUILD)/tests/unit-asan/$(1)
$(BUILD)/tests/unit-asan/$(1): $(call asan_obj,$(2)) | $(DEPS_STAMP)
	@mkdir -p $$(@D)
	$(HOSTCC) $(ASAN_FLAGS) -o $$@ $$^ $(UNIT_LDLIBS) $$($(1)_LDLIBS)
endef

# Where the compilers keep their own headers and libgcc can be asked only
# once `make deps` has installed them, and the machines' fragments need the
# answers when they are read.  So they live in a file made after deps; make
# reads every makefile again once it has made it (so a fresh machine's first
# `make demo` asks after the install, not before it with no compiler there).
TOOLCHAIN_MK := $(BUILD)/deps/toolchain.mk
# (`make clean` and `make deps` alone need no answers.)
ifneq ($(MAKECMDGOALS),)
ifeq ($(filter-out clean deps,$(MAKECMDGOALS)),)
NO_TOOLCHAIN_MK := 1
endif
endif
ifndef NO_TOOLCHAIN_MK
include $(TOOLCHAIN_MK)
endif
$(TOOLCHAIN_MK): $(DEPS_STAMP) Makefile
	@{ echo "X86_GCCINC := $$(gcc -m32 -print-file-name=include)"; \
	   echo "X86_LIBGCC := $$(gcc -m32 -print-libgcc-file-name)"; \
	   echo "ARM_GCCINC := $$(arm-none-eabi-gcc -print-file-name=include)"; \
	   echo "ARM_LIBGCC := $$(arm-none-eabi-gcc $(ARM_UARCH) -print-libgcc-file-name)"; \
	   echo "ARM_KLIBGCC := $$(arm-none-eabi-gcc $(ARM_KARCH) -print-libgcc-file-name)"; \
	   echo "ARM_MULTILIB := $$(arm-none-eabi-gcc $(ARM_UARCH) -print-multi-directory)"; } >$@.tmp
	@mv $@.tmp $@

# Components first (they list sources and programs), then the machines
# (which build every listed program for themselves).
include $(sort $(wildcard */build.mk servers/*/build.mk tests/*/build.mk))
include $(sort $(wildcard arch/*/build.mk))

build-all: $(ALL_TARGETS)

$(BUILD)/host/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(HOSTCC) $(call host_cflags_for,$<) -c -o $@ $<

$(BUILD)/asan/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(HOSTCC) $(call host_cflags_for,$<) $(ASAN_FLAGS) -c -o $@ $<

$(DPM): $(call host_obj,$(DPM_SRCS)) $(DPM_LIBS)
	@mkdir -p $(@D)
	$(HOSTCC) -o $@ $(filter %.o,$^) $(DPM_LIBS) $(HOST_LDLIBS) $(DPM_LDLIBS)

# Debian packages and third-party sources (lwIP, newlib for i386).
deps: $(DEPS_STAMP)
$(DEPS_STAMP): arch/deps.sh
	BUILD=$(BUILD) bash arch/deps.sh
	@mkdir -p $(@D) && touch $@

# ---- tests ---------------------------------------------------------------
# Each suite ends with its own "name: N passed, N failed" line and leaves its
# counts in build/tests/NAME.count; `make check` adds them up.
check-unit: $(UNIT_BINS) $(DPM)
	@bash tests/run-unit.sh $(BUILD)/tests/unit.count $(UNIT_BINS)

# The unit tests again, built with AddressSanitizer and UBSan: any report
# (a memory error, undefined behaviour, a leak) fails the test.
check-asan: $(UNIT_ASAN_BINS)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
		bash tests/run-unit.sh $(BUILD)/tests/asan.count $(UNIT_ASAN_BINS)

# In-guest tests: one node per suite, on each machine (x86 and ARM); dpm
# makes the disk image of t_fs.
check-guest: $(X86_KERNEL) $(ARM_KERNEL) $(DPM)
	@bash tests/run-guest.sh $(BUILD)/tests x86:$(X86_KERNEL) arm:$(ARM_KERNEL) -- $(GUEST_SUITES)

# A million seeded hostile kernel calls per machine, with faulting children
# (tests/guest/t_storm.c); `make check-guest` runs a short slice of it.
SOAK_CALLS ?= 1000000
SOAK_SEED ?= 16
soak: $(X86_KERNEL) $(ARM_KERNEL) $(DPM)
	@GUEST_ARGS="$(SOAK_CALLS) $(SOAK_SEED)" bash tests/run-guest.sh $(BUILD)/tests/soak x86:$(X86_KERNEL) \
		arm:$(ARM_KERNEL) -- t_storm; rc=$$?; grep '^t_storm: ' $(BUILD)/tests/soak/guest/*-t_storm.log | sed 's|.*/||'; exit $$rc

check:
	@rm -f $(BUILD)/tests/*.count
	@for s in $(SUITES); do $(MAKE) --no-print-directory check-$$s || true; done
	@bash tests/total.sh $(BUILD)/tests $(SUITES)

bench: $(BENCH_TARGETS)

# `make demo DEMO_ARCH=mixed` (or arm) runs it on ARM nodes too;
# DEMO_CLOCK=icount or plain in another clock than virtual time.
# The build is one line: the compilers' output goes to $(DEMO_BUILD_LOG),
# whose end is shown if the build fails.
DEMO_ARCH ?= x86
DEMO_BUILD_LOG := $(BUILD)/logs/build.log
demo:
	@mkdir -p $(dir $(DEMO_BUILD_LOG))
	@echo "demo: building dpm, the kernels and the guest programs (compiler output: $(DEMO_BUILD_LOG))"
	@$(MAKE) --no-print-directory all >$(DEMO_BUILD_LOG) 2>&1 || { tail -n 25 $(DEMO_BUILD_LOG) >&2; \
		echo "demo: the build failed (the whole output: $(DEMO_BUILD_LOG))" >&2; exit 1; }
	@DEMO_CLOCK="$(DEMO_CLOCK)" bash qemu/scripts/demo.sh $(abspath $(DPM)) $(BUILD)/demo $(BUILD)/report $(DEMO_ARCH)

# The thesis's two studies on our own clusters (docs/studies.md): each
# keeps its runs under build/study-*/runs and resumes where it stopped;
# in virtual time unless STUDY_CLOCK=icount or plain.
study-fs: all
	@STUDY_CLOCK="$(STUDY_CLOCK)" bash qemu/scripts/study_fs.sh $(abspath $(DPM)) $(BUILD)/study-fs
study-tsp: all
	@STUDY_CLOCK="$(STUDY_CLOCK)" bash qemu/scripts/study_tsp.sh $(abspath $(DPM)) $(BUILD)/study-tsp

clean:
	rm -rf $(BUILD)/host $(BUILD)/asan $(BUILD)/lib $(BUILD)/bin $(BUILD)/tests $(BUILD)/x86 $(BUILD)/arm $(BUILD)/bench $(BUILD)/fuzz

-include $(shell find $(BUILD)/host $(BUILD)/asan -name '*.d' 2>/dev/null)
