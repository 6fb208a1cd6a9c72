# analysis/build.mk - the analyses (`dpm stats`, `dpm parallel`,
# `dpm causality`), their unit tests and the bench-analysis benchmark.

# The event table and the CSV reader, which every analysis needs.
ANALYSIS_EVENTS := analysis/hashmap.c analysis/csv_row.c analysis/events.c \
	analysis/events_csv.c
# Reading a filter log too: the adapter and the part of hostfilter/ that
# implements log.h.
ANALYSIS_INPUT := $(ANALYSIS_EVENTS) analysis/events_log.c \
	hostfilter/log.c hostfilter/desc.c hostfilter/lex.c
# The computation graph and P.
ANALYSIS_P := analysis/mtime.c analysis/graph.c analysis/heap.c \
	analysis/parallelism.c analysis/longest_path.c analysis/reweight.c \
	analysis/assign.c analysis/wordfile.c
# Message statistics.
ANALYSIS_STATS := analysis/stats.c
# Causality strings.
ANALYSIS_CAUSALITY := analysis/causality.c
# The commands.
ANALYSIS_CLI := analysis/cli.c analysis/parallel.c analysis/stats_main.c \
	analysis/causality_main.c

ANALYSIS_ALL := $(ANALYSIS_INPUT) $(ANALYSIS_P) $(ANALYSIS_STATS) $(ANALYSIS_CAUSALITY) \
	$(ANALYSIS_CLI)
DPM_SRCS += $(ANALYSIS_ALL)

ANALYSIS_TEST_HELP := tests/unit/test_analysis_trace.c
$(eval $(call unit_test,test_parallel,tests/unit/test_parallel.c $(ANALYSIS_TEST_HELP) \
	$(ANALYSIS_EVENTS) $(ANALYSIS_P)))
$(eval $(call unit_test,test_stats,tests/unit/test_stats.c $(ANALYSIS_TEST_HELP) \
	$(ANALYSIS_EVENTS) $(ANALYSIS_STATS)))
$(eval $(call unit_test,test_causality,tests/unit/test_causality.c $(ANALYSIS_TEST_HELP) \
	$(ANALYSIS_EVENTS) analysis/graph.c $(ANALYSIS_CAUSALITY)))
$(eval $(call unit_test,test_analysis_cli,tests/unit/test_analysis_cli.c $(ANALYSIS_TEST_HELP) \
	$(ANALYSIS_ALL)))

# The trace generator and the benchmark.
TRACEGEN := $(BUILD)/bin/dpm-tracegen
$(TRACEGEN): $(call host_obj,analysis/tracegen.c)
	@mkdir -p $(@D)
	$(HOSTCC) -o $@ $^ $(HOST_LDLIBS)
ALL_TARGETS += $(TRACEGEN)

.PHONY: bench-analysis
BENCH_TARGETS += bench-analysis
bench-analysis: $(DPM) $(TRACEGEN)
	bash analysis/bench-analysis.sh $(DPM) $(TRACEGEN) $(BUILD)/bench
