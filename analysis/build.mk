# analysis/build.mk - the analyses (`dpm stats`, `dpm parallel`,
# `dpm causality`), their unit tests and the bench-analysis benchmark.

# The event table and the CSV reader, which every analysis needs.
ANALYSIS_EVENTS := analysis/hashmap.c analysis/csv_row.c analysis/events.c \
	analysis/events_csv.c
# Reading a filter log too: the adapter to the trace-log library
# ($(TRACELOG_LIB), linked last).
ANALYSIS_INPUT := $(ANALYSIS_EVENTS) analysis/events_log.c
# The computation graph and P.
ANALYSIS_P := analysis/mtime.c analysis/graph.c analysis/heap.c \
	analysis/parallelism.c analysis/longest_path.c analysis/reweight.c \
	analysis/assign.c analysis/configs.c analysis/wordfile.c
# Message statistics.
ANALYSIS_STATS := analysis/stats.c
# Causality strings.
ANALYSIS_CAUSALITY := analysis/causality.c analysis/causality_roles.c analysis/causality_dot.c analysis/wordfile.c \
	analysis/tool.c
# The commands.
ANALYSIS_CLI := analysis/cli.c analysis/parallel.c analysis/stats_main.c \
	analysis/causality_main.c
# `dpm report`: the page and what it is made of (it keeps a log's CSV with
# hostfilter/dump.c).
ANALYSIS_REPORT := analysis/report_spec.c analysis/report_run.c analysis/report_inputs.c \
	analysis/report_cross.c analysis/report_plot.c analysis/report_timeline.c \
	analysis/report_thesis.c analysis/report_page.c analysis/report_stats_section.c \
	analysis/report_parallel_section.c analysis/report_causality.c analysis/report_main.c \
	analysis/html.c analysis/thesis_ref.c analysis/report_study.c analysis/report_study_fs.c \
	analysis/report_study_fs_page.c analysis/report_study_tsp.c analysis/report_study_tsp_page.c

ANALYSIS_ALL := $(ANALYSIS_INPUT) $(ANALYSIS_P) $(ANALYSIS_STATS) $(ANALYSIS_CAUSALITY) \
	$(ANALYSIS_CLI) $(ANALYSIS_REPORT)
DPM_SRCS += $(ANALYSIS_ALL)
# What the report uses from hostfilter/ beyond the log reader (dpm has it
# already through hostfilter/build.mk; the tests link it themselves).
REPORT_LOG_CSV := hostfilter/dump.c

ANALYSIS_TEST_HELP := tests/unit/test_analysis_trace.c
$(eval $(call unit_test,test_parallel,tests/unit/test_parallel.c $(ANALYSIS_TEST_HELP) \
	$(ANALYSIS_EVENTS) $(ANALYSIS_P)))
$(eval $(call unit_test,test_stats,tests/unit/test_stats.c $(ANALYSIS_TEST_HELP) \
	$(ANALYSIS_EVENTS) $(ANALYSIS_STATS)))
$(eval $(call unit_test,test_causality,tests/unit/test_causality.c $(ANALYSIS_TEST_HELP) \
	$(ANALYSIS_EVENTS) analysis/graph.c $(ANALYSIS_CAUSALITY)))
$(eval $(call unit_test,test_analysis_cli,tests/unit/test_analysis_cli.c $(ANALYSIS_TEST_HELP) \
	$(ANALYSIS_ALL) $(REPORT_LOG_CSV) $(TRACELOG_LIB)))
# The report test writes filter logs with the filter's own code
# (test_filter_support.c), so it links the filter and the library too.
REPORT_TEST_FILTER := tests/unit/test_filter_support.c hostfilter/filter/rules.c \
	hostfilter/filter/meterstream.c hostfilter/commands/filter.c $(REPORT_LOG_CSV)
$(eval $(call unit_test,test_report,tests/unit/test_report.c tests/unit/test_html_page.c \
	$(REPORT_TEST_FILTER) $(ANALYSIS_ALL) $(TRACELOG_LIB)))

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
