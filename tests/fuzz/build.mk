# tests/fuzz/build.mk - the fuzz harnesses (docs/fuzzing.md), one file each
# under tests/fuzz/.  Each harness and the real sources it drives are
# compiled once, by clang with AddressSanitizer, UBSan and libFuzzer's
# coverage (build/fuzz/obj/), and linked twice:
#   - with libFuzzer: build/fuzz/bin/NAME, which `make fuzz` runs for
#     FUZZ_SECONDS each;
#   - with the replay main (replay.c): build/tests/fuzz-replay/NAME, which
#     `make check` (suite `fuzz`) runs on every seed (tests/fuzz/corpus/NAME)
#     and every crash input ever found (tests/fuzz/crashes/NAME).
# So a crash input replays under exactly the code and checks that found it
# (clang's UBSan also sees what gcc's does not, e.g. NULL + 0).  No project
# code is copied: a harness lists the sources it drives.

FUZZ_SUPPORT := tests/fuzz/fuzz_support.c
FUZZ_NAMES := meterstream rules log trace cluster_file ctl_wire control sidefiles

# The analyses of a loaded trace (the trace and meter-stream harnesses).
FUZZ_ANALYSES := tests/fuzz/fuzz_analyses.c $(ANALYSIS_INPUT) $(ANALYSIS_P) $(ANALYSIS_STATS) \
	$(ANALYSIS_CAUSALITY)
FUZZ_SRCS_meterstream := $(FILTER_CORE) $(FUZZ_ANALYSES) $(TRACELOG_LIB)
FUZZ_SRCS_rules := hostfilter/filter/rules.c $(TRACELOG_LIB)
FUZZ_SRCS_log := $(TRACELOG_LIB)
FUZZ_SRCS_trace := $(FUZZ_ANALYSES) $(TRACELOG_LIB)
FUZZ_SRCS_cluster_file := $(CLUSTER_CORE)
FUZZ_SRCS_ctl_wire := qemu/control/ctl_wire.c
FUZZ_SRCS_control := $(CONTROL_CORE)
FUZZ_SRCS_sidefiles := $(ANALYSIS_EVENTS) analysis/model/mtime.c analysis/model/assign.c \
	$(ANALYSIS_CAUSALITY) $(TRACELOG_LIB)

# The clang build: its own objects (and the trace-log library's objects
# linked directly rather than archived).
FUZZ_CC ?= clang
FUZZ_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := $(filter-out -O2,$(HOST_CFLAGS)) -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer-no-link $(FUZZ_SANITIZE)
fuzz_obj = $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(patsubst $(TRACELOG_LIB),$(TRACELOG_SRCS),$(1)))
$(BUILD)/fuzz/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<
$(BUILD)/fuzz/obj/hostfilter/tracelog/default_desc.o: kernel/abi/trace.desc

FUZZ_REPLAY_BINS :=
FUZZ_BINS :=
# $(call fuzz_harness,NAME): both links of tests/fuzz/fuzz_NAME.c.
define fuzz_harness
FUZZ_OBJS_$(1) := $(call fuzz_obj,tests/fuzz/fuzz_$(1).c $(FUZZ_SUPPORT) $(FUZZ_SRCS_$(1)))
FUZZ_REPLAY_BINS += $(BUILD)/tests/fuzz-replay/$(1)
$(BUILD)/fuzz/obj/tests/fuzz/replay_$(1).o: tests/fuzz/replay.c | $(DEPS_STAMP)
	@mkdir -p $$(@D)
	$(FUZZ_CC) $(filter-out -fsanitize=fuzzer-no-link,$(FUZZ_CFLAGS)) -DFUZZ_NAME='"$(1)"' -c -o $$@ $$<
$(BUILD)/tests/fuzz-replay/$(1): $(BUILD)/fuzz/obj/tests/fuzz/replay_$(1).o $$(FUZZ_OBJS_$(1))
	@mkdir -p $$(@D)
	$(FUZZ_CC) $(FUZZ_SANITIZE) -o $$@ $$^ $(HOST_LDLIBS)
FUZZ_BINS += $(BUILD)/fuzz/bin/$(1)
$(BUILD)/fuzz/bin/$(1): $$(FUZZ_OBJS_$(1))
	@mkdir -p $$(@D)
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SANITIZE) -o $$@ $$^ $(HOST_LDLIBS)
endef
$(foreach n,$(FUZZ_NAMES),$(eval $(call fuzz_harness,$(n))))

# `make check`'s suite: every seed and crash input through the sanitizer
# builds; any report or crash fails that input.
SUITES += fuzz
.PHONY: check-fuzz fuzz fuzz-build
check-fuzz: $(FUZZ_REPLAY_BINS)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
		bash tests/run-unit.sh $(BUILD)/tests/fuzz.count $(FUZZ_REPLAY_BINS)

# `make fuzz`: each harness FUZZ_SECONDS (default 600) on a scratch copy of
# its corpus; FUZZ_ONLY="log trace" picks harnesses.
FUZZ_SECONDS ?= 600
FUZZ_ONLY ?= $(FUZZ_NAMES)
fuzz-build: $(FUZZ_BINS)
fuzz: $(FUZZ_BINS)
	@bash tests/fuzz/run-fuzz.sh $(BUILD)/fuzz/runs $(FUZZ_SECONDS) \
		$(foreach n,$(FUZZ_ONLY),$(n):$(BUILD)/fuzz/bin/$(n))

-include $(shell find $(BUILD)/fuzz/obj -name '*.d' 2>/dev/null)
