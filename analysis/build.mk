# analysis/build.mk - the analyses (`dpm stats`, `dpm parallel`,
# `dpm causality`, `dpm report`), their unit tests and the bench-analysis
# benchmark.  Listed by layer, lowest first; a layer includes only from
# the layers before it (tests/unit/test_layers.c checks):
# model/ < report/ < studies/ < commands/.

# model/: the event table and the trace readers.
ANALYSIS_EVENTS := analysis/model/hashmap.c analysis/model/csv_row.c analysis/model/events.c \
	analysis/model/events_csv.c
# Reading a filter log too: the adapter and the reader that picks by
# sniffing (the log itself is read by $(TRACELOG_LIB), linked last).
ANALYSIS_INPUT := $(ANALYSIS_EVENTS) analysis/model/events_log.c analysis/model/trace_load.c \
	analysis/model/trace_check.c
# model/: the computation graph and P.
ANALYSIS_P := analysis/model/mtime.c analysis/model/mtime_log.c analysis/model/graph.c \
	analysis/model/heap.c \
	analysis/model/ptiming.c analysis/model/longest_path.c analysis/model/reweight.c \
	analysis/model/parallelism.c analysis/model/assign.c analysis/model/configs.c \
	analysis/model/critical.c analysis/model/critical_whatif.c \
	analysis/model/critical_sum.c analysis/model/critical_svg.c analysis/model/critical_slack.c \
	analysis/model/wordfile.c
# model/: message statistics.
ANALYSIS_STATS := analysis/model/stats.c
# model/: causality strings, their roles and the state diagram's dot.
ANALYSIS_CAUSALITY := analysis/model/causality.c analysis/model/causality_roles.c \
	analysis/model/causality_dot.c analysis/model/wordfile.c analysis/model/tool.c
# model/: what the commands and the report share on the command line.
ANALYSIS_MODEL_CLI := analysis/model/cli.c
# report/: `dpm report`'s page and what it is made of, knowing no study (it
# keeps a log's CSV with the trace-log library's printer).
ANALYSIS_REPORT := analysis/report/spec.c analysis/report/run.c analysis/report/inputs.c \
	analysis/report/cross.c analysis/report/extension.c analysis/report/figure.c \
	analysis/report/timeline.c analysis/report/overview.c analysis/report/plot.c analysis/report/html.c \
	analysis/report/page_parts.c analysis/report/summary_section.c \
	analysis/report/stats_section.c analysis/report/parallel_section.c \
	analysis/report/causality_section.c analysis/report/critical_section.c \
	analysis/report/cross_section.c analysis/report/timeline_section.c \
	analysis/report/raw_section.c analysis/report/page.c
# studies/: the thesis's two studies and its published values, plugged
# into the report.
ANALYSIS_STUDIES := analysis/studies/thesis_ref.c analysis/studies/study.c \
	analysis/studies/thesis.c analysis/studies/fs.c analysis/studies/fs_page.c \
	analysis/studies/tsp.c analysis/studies/tsp_page.c analysis/studies/studies.c
# commands/: one file per subcommand.
ANALYSIS_COMMANDS := analysis/commands/parallel.c analysis/commands/stats.c \
	analysis/commands/critical.c \
	analysis/commands/causality.c analysis/commands/report.c

ANALYSIS_ALL := $(ANALYSIS_INPUT) $(ANALYSIS_P) $(ANALYSIS_STATS) $(ANALYSIS_CAUSALITY) \
	$(ANALYSIS_MODEL_CLI) $(ANALYSIS_REPORT) $(ANALYSIS_STUDIES) $(ANALYSIS_COMMANDS)
DPM_SRCS += $(ANALYSIS_ALL)
ANALYSIS_TEST_HELP := tests/unit/test_analysis_trace.c
$(eval $(call unit_test,test_parallel,tests/unit/test_parallel.c $(ANALYSIS_TEST_HELP) \
	$(ANALYSIS_EVENTS) analysis/model/trace_check.c $(ANALYSIS_P) $(TRACELOG_LIB)))
$(eval $(call unit_test,test_mtime_log,tests/unit/test_mtime_log.c analysis/model/csv_row.c \
	analysis/model/mtime.c analysis/model/mtime_log.c))
$(eval $(call unit_test,test_stats,tests/unit/test_stats.c $(ANALYSIS_TEST_HELP) \
	$(ANALYSIS_EVENTS) $(ANALYSIS_STATS)))
$(eval $(call unit_test,test_causality,tests/unit/test_causality.c $(ANALYSIS_TEST_HELP) \
	$(ANALYSIS_EVENTS) analysis/model/graph.c $(ANALYSIS_CAUSALITY)))
$(eval $(call unit_test,test_analysis_cli,tests/unit/test_analysis_cli.c $(ANALYSIS_TEST_HELP) \
	$(ANALYSIS_ALL) $(TRACELOG_LIB)))
# The report test writes filter logs with the filter's own code
# (test_filter_support.c), so it links the filter and the library too.
REPORT_TEST_FILTER := tests/unit/test_filter_support.c hostfilter/filter/rules.c \
	hostfilter/filter/meterstream.c kernel/abi/tracewire.c hostfilter/filter/nodeauth.c hostfilter/filter/shed.c hostfilter/commands/filter.c hostfilter/commands/dump.c
$(eval $(call unit_test,test_report,tests/unit/test_report.c tests/unit/test_html_page.c \
	$(REPORT_TEST_FILTER) $(ANALYSIS_ALL) $(TRACELOG_LIB)))

# The trace generator and the benchmark.
TRACEGEN := $(BUILD)/bin/dpm-tracegen
$(TRACEGEN): $(call host_obj,analysis/bench/tracegen.c)
	@mkdir -p $(@D)
	$(HOSTCC) -o $@ $^ $(HOST_LDLIBS)
ALL_TARGETS += $(TRACEGEN)

# The per-function instruction profile of kbench's bracketed loops, read
# from QEMU's exec log (`make bench-kernel`, servers/bench/bench-kernel.sh).
KPROF := $(BUILD)/bin/dpm-kprof
KPROF_SRCS := analysis/bench/kprof.c analysis/model/hashmap.c
$(KPROF): $(call host_obj,analysis/bench/kprof_main.c $(KPROF_SRCS))
	@mkdir -p $(@D)
	$(HOSTCC) -o $@ $^
ALL_TARGETS += $(KPROF)
$(eval $(call unit_test,test_kprof,tests/unit/test_kprof.c $(KPROF_SRCS)))

.PHONY: bench-analysis
BENCH_TARGETS += bench-analysis
bench-analysis: $(DPM) $(TRACEGEN)
	bash analysis/bench/bench-analysis.sh $(DPM) $(TRACEGEN) $(BUILD)/bench
$(eval $(call unit_test,test_critical,tests/unit/test_critical.c $(ANALYSIS_TEST_HELP) \
	$(ANALYSIS_ALL) $(TRACELOG_LIB)))

.PHONY: bench-critical
BENCH_TARGETS += bench-critical
bench-critical: $(DPM) $(TRACEGEN)
	bash analysis/bench/bench-critical.sh $(DPM) $(TRACEGEN) $(BUILD)/bench
