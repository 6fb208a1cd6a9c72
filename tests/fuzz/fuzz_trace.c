/*
 * tests/fuzz/fuzz_trace.c - a trace as the analyses load it (a filter log
 * or the trace CSV, told apart as analysis/model/trace_load.h does) and
 * every analysis behind `dpm parallel`, `dpm stats`, `dpm causality` and
 * `dpm report` (fuzz_analyses.h).  Any trace may be refused with a
 * message; none may crash an analysis.
 */
#include "fuzz.h"
#include "fuzz_analyses.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_analyse(fuzz_file(0, data, size));
	return 0;
}
