# tests/export/build.mk - `make check-export` (suite `export`): the three
# formats of `dpm export` read back by their real readers (babeltrace2,
# otf2-print; the Chrome JSON by a strict parser), compared with `dpm dump`
# record by record (tests/export/export_test.sh, export_check.c; a few
# seconds).  The unit-level checks are tests/unit/test_export.c.

EXPORT_CHECK := $(BUILD)/tests/export-check
$(EXPORT_CHECK): $(call host_obj,tests/export/export_check.c tests/export/export_check_main.c)
	@mkdir -p $(@D)
	$(HOSTCC) -o $@ $^

SUITES += export
.PHONY: check-export
check-export: $(DPM) $(EXPORT_CHECK) $(FILTER_STREAM_GEN)
	@bash tests/export/export_test.sh $(BUILD)/tests $(DPM) $(EXPORT_CHECK) $(FILTER_STREAM_GEN)
