# hostfilter/build.mk - `dpm filter`, `dpm dump`, the log reader, and their
# unit tests and benchmark.

FILTER_CORE := hostfilter/lex.c hostfilter/desc.c hostfilter/formats.c \
	hostfilter/layout.c hostfilter/rules.c hostfilter/default_desc.c
FILTER_LOG := hostfilter/logwrite.c hostfilter/lognote.c hostfilter/log.c hostfilter/logwindow.c \
	hostfilter/logcolumns.c
FILTER_STREAM := hostfilter/meterstream.c
FILTER_CMDS := hostfilter/filter.c hostfilter/dump.c

DPM_SRCS += $(FILTER_CORE) $(FILTER_LOG) $(FILTER_STREAM) $(FILTER_CMDS)

# The built-in descriptions are meter/trace.desc assembled in (.incbin).
$(BUILD)/host/hostfilter/default_desc.o: meter/trace.desc

# ---- benchmark: a synthetic 10-million-record stream through `dpm filter --stdin`
FILTER_STREAM_GEN := $(BUILD)/bench/filter-stream
$(FILTER_STREAM_GEN): $(call host_obj,hostfilter/bench_stream.c hostfilter/bench_stream_main.c)
	@mkdir -p $(@D)
	$(HOSTCC) -o $@ $^

BENCH_TARGETS += bench-filter
.PHONY: bench-filter
bench-filter: $(DPM) $(FILTER_STREAM_GEN)
	bash hostfilter/bench-filter.sh $(DPM) $(FILTER_STREAM_GEN) $(BUILD)/bench

# ---- unit tests
FILTER_ALL := $(FILTER_CORE) $(FILTER_LOG) $(FILTER_STREAM) $(FILTER_CMDS)
FILTER_TEST_SUPPORT := tests/unit/test_filter_support.c $(FILTER_ALL)
$(eval $(call unit_test,test_desc_trace,tests/unit/test_desc_trace.c $(FILTER_CORE)))
$(eval $(call unit_test,test_desc,tests/unit/test_desc.c $(FILTER_CORE)))
$(eval $(call unit_test,test_rules,tests/unit/test_rules.c $(FILTER_TEST_SUPPORT)))
$(eval $(call unit_test,test_filter,tests/unit/test_filter.c $(FILTER_TEST_SUPPORT)))
$(eval $(call unit_test,test_log,tests/unit/test_log.c $(FILTER_TEST_SUPPORT)))
$(eval $(call unit_test,test_dump,tests/unit/test_dump.c $(FILTER_TEST_SUPPORT)))
$(eval $(call unit_test,test_bench_stream,tests/unit/test_bench_stream.c hostfilter/bench_stream.c \
	$(FILTER_TEST_SUPPORT)))
