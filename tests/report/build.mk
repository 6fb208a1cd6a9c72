# tests/report/build.mk - `make check-report` (suite `report`): a report's
# page opened in real headless Chromium (tests/report/browser_test.sh; a few
# seconds, no cluster).  The page's content is tested by parsing its HTML in
# tests/unit/test_report.c.

SUITES += report
.PHONY: check-report
check-report: $(DPM)
	@bash tests/report/browser_test.sh $(BUILD)/tests $(DPM)
