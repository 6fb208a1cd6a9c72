# hostfilter/build.mk - the trace-log library, the filter, `dpm filter` and
# `dpm dump`, their unit tests and benchmark.
#
#   hostfilter/tracelog/  the library of the trace format: the description
#                         language, record layouts, writing and reading the
#                         self-describing log.  Every host tool that touches
#                         a log links it (libtracelog.a): the filter, the
#                         analyses, the report, dpm record.
#   hostfilter/filter/    the filter proper: selection rules, the meter stream
#   hostfilter/commands/  the subcommands
#   hostfilter/bench/     a synthetic stream for bench-filter
#   hostfilter/export/    `dpm export`: the log as CTF, OTF2, Chrome JSON

TRACELOG_SRCS := $(sort $(wildcard hostfilter/tracelog/*.c))
$(TRACELOG_LIB): $(call host_obj,$(TRACELOG_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^
$(TRACELOG_ASAN_LIB): $(call asan_obj,$(TRACELOG_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

FILTER_CORE := hostfilter/filter/rules.c hostfilter/filter/meterstream.c kernel/abi/tracewire.c hostfilter/filter/nodeauth.c \
	hostfilter/filter/shed.c
FILTER_CMDS := hostfilter/commands/filter.c hostfilter/commands/dump.c

# `dpm export` (analysis/model/hashmap.c is in dpm already, by analysis/).
EXPORT_CORE := $(sort $(wildcard hostfilter/export/*.c))
EXPORT_LDLIBS := $(shell pkg-config --libs otf2 2>/dev/null || echo -lotf2)

DPM_SRCS += $(FILTER_CORE) $(FILTER_CMDS) $(EXPORT_CORE) hostfilter/commands/export.c
DPM_LIBS += $(TRACELOG_LIB)
DPM_LDLIBS += $(EXPORT_LDLIBS)

# The built-in descriptions are kernel/abi/trace.desc assembled in (.incbin).
$(BUILD)/host/hostfilter/tracelog/default_desc.o $(BUILD)/asan/hostfilter/tracelog/default_desc.o: kernel/abi/trace.desc

# ---- benchmark: a synthetic 10-million-record stream through `dpm filter --stdin`
FILTER_STREAM_GEN := $(BUILD)/bench/filter-stream
$(FILTER_STREAM_GEN): $(call host_obj,hostfilter/bench/bench_stream.c hostfilter/bench/bench_stream_main.c)
	@mkdir -p $(@D)
	$(HOSTCC) -o $@ $^

BENCH_TARGETS += bench-filter
.PHONY: bench-filter
bench-filter: $(DPM) $(FILTER_STREAM_GEN)
	bash hostfilter/bench/bench-filter.sh $(DPM) $(FILTER_STREAM_GEN) $(BUILD)/bench

# ---- benchmark: the same stream's log through `dpm export`, beside
# babeltrace2 reading the CTF export (EXPORT_BENCH_RECORDS, default 2M)
BENCH_TARGETS += bench-export
.PHONY: bench-export
bench-export: $(DPM) $(FILTER_STREAM_GEN)
	bash hostfilter/bench/bench-export.sh $(DPM) $(FILTER_STREAM_GEN) $(BUILD)/bench

# ---- unit tests (a library goes after the objects that use it)
FILTER_TEST_SUPPORT := tests/unit/test_filter_support.c $(FILTER_CORE) $(FILTER_CMDS) $(TRACELOG_LIB)
$(eval $(call unit_test,test_desc_trace,tests/unit/test_desc_trace.c $(TRACELOG_LIB)))
$(eval $(call unit_test,test_desc,tests/unit/test_desc.c $(TRACELOG_LIB)))
$(eval $(call unit_test,test_rules,tests/unit/test_rules.c $(FILTER_TEST_SUPPORT)))
$(eval $(call unit_test,test_filter,tests/unit/test_filter.c $(FILTER_TEST_SUPPORT)))
$(eval $(call unit_test,test_log,tests/unit/test_log.c $(FILTER_TEST_SUPPORT)))
$(eval $(call unit_test,test_dump,tests/unit/test_dump.c $(FILTER_TEST_SUPPORT)))
# (tests/export/export_check.c: the checks the readers' test uses too)
test_export_LDLIBS := $(EXPORT_LDLIBS)
$(eval $(call unit_test,test_export,tests/unit/test_export.c tests/export/export_check.c \
	$(EXPORT_CORE) hostfilter/commands/export.c analysis/model/hashmap.c $(FILTER_TEST_SUPPORT)))
$(eval $(call unit_test,test_bench_stream,tests/unit/test_bench_stream.c hostfilter/bench/bench_stream.c \
	$(FILTER_TEST_SUPPORT)))
