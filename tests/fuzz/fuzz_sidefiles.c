/*
 * tests/fuzz/fuzz_sidefiles.c - the small files the analyses take beside a
 * trace: a delivery-time table (analysis/model/mtime.h, `--mtime`, the
 * mtime.csv a cluster records), a names file (`dpm causality --names`,
 * analysis/model/causality_roles.h), an assignment file or spec
 * (`dpm parallel --assign`, analysis/model/assign.h), all read through
 * analysis/model/wordfile.h.  Each input is tried as every one of them,
 * against a small fixed trace of three processes on two nodes; then the
 * causality roles' names are used as the report would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/assign.h"
#include "analysis/model/causality_roles.h"
#include "analysis/model/events.h"
#include "analysis/model/events_csv.h"
#include "analysis/model/mtime.h"
#include "analysis/model/wordfile.h"
#include "fuzz.h"

static const char trace_csv[] =
	"type,time_ns,cpu_ns,src,dst,msg_id,length\n"
	"SEND,1000,10,1.3,2.5,0x1000000000001,64\n"
	"RECEIVE,2000,20,1.3,2.5,0x1000000000001,64\n"
	"SEND,3000,30,2.5,1.4,0x2000000000001,8\n"
	"RECEIVE,4000,40,2.5,1.4,0x2000000000001,8\n";

static struct trace tr;
static int have_trace;

static int count_words(const struct wordfile *w, const char *where, void *arg)
{
	(void)where;
	if (w->nwords && !w->word[0])
		fuzz_fail("a line with %zu words but no first word", w->nwords);
	(void)wordfile_col(w, w->nwords);
	++*(size_t *)arg;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[600];
	if (!have_trace) {
		const char *p = fuzz_file(1, trace_csv, sizeof trace_csv - 1);
		trace_init(&tr, "trace.csv");
		if (trace_load_csv(&tr, p, err, sizeof err) < 0)
			fuzz_fail("the fixed trace: %s", err);
		have_trace = 1;
	}
	const char *path = fuzz_file(0, data, size);

	size_t lines = 0;
	(void)wordfile_each(path, count_words, &lines, err, sizeof err);

	struct mtime_table mt;
	mtime_default(&mt);
	if (mtime_load(&mt, path, err, sizeof err) == 0) {
		for (uint32_t len = 0; len < 70000; len = len * 2 + 1) {
			double a = mtime(&mt, len, 1), b = mtime(&mt, len, 0);
			if (a != a || b != b || a < 0 || b < 0)
				fuzz_fail("delivery time of %u bytes is %g / %g", len, a, b);
		}
	}

	struct roles r = { 0 };
	struct role_sources src = { NULL, NULL, NULL, path, "--" };
	if (roles_assign(&r, &tr, &src, err, sizeof err) == 0) {
		for (uint32_t p = 0; p < tr.nproc; p++)
			if (!roles_who(&r, p))
				fuzz_fail("process %u has no name", p);
	}
	roles_free(&r, tr.nproc);

	/* The same bytes as a file of "node.pid MACHINE" lines and, when they
	 * hold an '=', as a spec "1.3=A,2.5=B". */
	struct assignment a;
	memset(&a, 0, sizeof a);
	if (assign_parse(&a, &tr, path, err, sizeof err) == 0) {
		for (uint32_t p = 0; p < tr.nproc; p++)
			if (a.machine_of[p] >= a.nmachines)
				fuzz_fail("process %u on machine %u of %zu", p, a.machine_of[p], a.nmachines);
	}
	assign_free(&a);
	char *spec = fuzz_text(data, size < 4096 ? size : 4096);
	if (strchr(spec, '=')) {
		memset(&a, 0, sizeof a);
		if (assign_parse(&a, &tr, spec, err, sizeof err) == 0) {
			for (uint32_t p = 0; p < tr.nproc; p++)
				if (a.machine_of[p] >= a.nmachines)
					fuzz_fail("process %u on machine %u of %zu", p, a.machine_of[p],
						  a.nmachines);
		}
		assign_free(&a);
	}
	free(spec);
	return 0;
}
