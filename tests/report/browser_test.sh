#!/usr/bin/env bash
# tests/report/browser_test.sh OUTDIR DPM - `make check-report`: a report
# opened in real headless Chromium.  The report is made by DPM from the
# recorded TSP run of tests/export (no cluster), on one clock (a delivery
# table saying clock=virtual), so every part of the page is there: the
# answer with its bars, the plots, the timelines.  Checked: the page loads,
# Chromium logs no console message for it, every picture loads and every
# figure is laid out with a non-zero size (tests/report/measure.html
# measures them in the browser and writes its verdict into the DOM that
# --dump-dom prints), and the folder stays small.  Skipped, with a reason,
# only when chromium is not installed (`make deps` installs it).
# Ends with "report: N passed, N failed" and OUTDIR/report.count.
set -u
out=$1 dpm=$2
work="$out/report-browser"
rm -rf "$work" && mkdir -p "$work"
passed=0 failed=0
result() { # result STATUS NAME [DETAIL]
	if [ "$1" -eq 0 ]; then
		passed=$((passed + 1)); echo "ok - $2"
	else
		failed=$((failed + 1)); echo "not ok - $2"; [ -n "${3:-}" ] && printf '#   %s\n' "$3"
	fi
}
finish() {
	echo "$passed $failed" > "$out/report.count"
	echo "report: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "report: SKIPPED: chromium is not installed (make deps installs it), so the page was not opened in a browser"
	finish
fi

printf '# clock=virtual\nsize_bytes,local_ns,remote_ns\n1,5000,50000\n' > "$work/tsp.mtime"
if msg=$("$dpm" report -o "$work/page" "T=tests/export/tsp-2nodes.log,mtime=$work/tsp.mtime" 2>&1); then
	result 0 "dpm report made the page"
else
	result 1 "dpm report made the page" "$msg"
	finish
fi
cp tests/report/measure.html "$work/page/measure.html"

# Chromium as root needs --no-sandbox; its profile is a fresh folder.
run_browser() { # run_browser NAME URL: the DOM into $work/NAME.html, the log NAME.err
	timeout 120 "$browser" --headless=new --no-sandbox --user-data-dir="$work/profile-$1" \
		--no-first-run --disable-gpu --allow-file-access-from-files \
		--enable-logging=stderr --v=0 --virtual-time-budget=10000 --dump-dom "$2" \
		>"$work/$1.html" 2>"$work/$1.err"
	rm -rf "$work/profile-$1"
}
run_browser measured "file://$(realpath "$work/page/measure.html")"
# the verdict's lines, out of the <pre> they are in
sed -n '/<pre id="verdict">/,/<\/pre>/p' "$work/measured.html" |
	sed -e 's/.*<pre id="verdict">//' -e 's/<\/pre>.*//' >"$work/verdict.txt"
verdict=$(sed -n 's/^verdict: //p' "$work/verdict.txt")
[ "$verdict" = ok ]
result $? "the page loads in Chromium, every picture and figure has a size ($(grep -E '^(images|inline svg|tables):' "$work/verdict.txt" | tr '\n' ' '))" \
	"$(grep -E '^(bad|verdict):' "$work/verdict.txt" | head -5 | tr '\n' ' ')"
n=$(grep -E '^(images|inline svg):' "$work/verdict.txt" | awk '{ s += $NF } END { print s + 0 }')
[ "$n" -ge 6 ]
result $? "the page has its figures ($n pictures and inline SVG, at least 6)"

run_browser page "file://$(realpath "$work/page/index.html")"
console=$(grep 'CONSOLE' "$work/page.err" "$work/measured.err")
[ -z "$console" ]
result $? "no console message from the page" "$console"
grep -q '<table id="answer"' "$work/page.html"
result $? "the DOM Chromium built holds the answer table"

kb=$(du -sk "$work/page" | cut -f1)
[ "$kb" -lt 2048 ]
result $? "the report folder stays small (${kb} KB, under 2 MB; the log is linked, not copied)"
finish
