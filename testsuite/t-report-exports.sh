#!/bin/bash
# SPDX-License-Identifier: MIT
# --format=folded/dot/callgrind/chrome, each checked with the tool that
# reads it (Graphviz dot, callgrind_annotate, a JSON parser).
. "$(dirname "$0")/lib.sh"
D=$T/report-data
[ -x "$REPORT" ] || fail "no $REPORT"

# folded: loop frames are file:line; exclusive ns at the end of each line.
"$REPORT" --format=folded "$D/loops.yaml" > loops.folded || fail "folded exit $?"
expect_eq "folded loops" "main 100000|main;loops.c:16 100000|main;loops.c:16;loops.c:18 300000|main;loops.c:16;loops.c:18;leaf 500000" \
	"$(paste -sd'|' loops.folded)"
"$REPORT" --format=folded "$D/simple.yaml" "$D/simple-r1.yaml" > m.folded
# merged over ranks: main;compute = 1 s (rank 0) + 3 s (rank 1)
expect_eq "folded merged" "4000000000" "$(awk '$1 == "main;compute" {print $2}' m.folded)"
expect_eq "folded sum = total" 22000000000 "$(awk '{s += $NF} END {printf "%.0f", s}' m.folded)"
expect_eq "folded lines" 10 "$(wc -l < m.folded)"

# dot: functions are boxes, loops ellipses; Graphviz renders it.
"$REPORT" --format=dot "$D/loops.yaml" > g.dot || fail "dot exit $?"
grep -q 'shape=ellipse.*label="loops.c:16' g.dot || fail "loop is not an ellipse"
grep -q 'shape=box.*label="leaf' g.dot || fail "function is not a box"
expect_eq "dot edges" 3 "$(grep -c -- '->' g.dot)"
if command -v dot >/dev/null 2>&1; then
	dot -Tsvg g.dot > g.svg || fail "graphviz rejected the dot file"
	expect_eq "svg ellipses" 2 "$(grep -c '<ellipse' g.svg)"
	grep -q '>loops.c:18</text>' g.svg || fail "loop label missing from rendering"
	"$REPORT" --format=dot "$D/simple.yaml" "$D/simple-r1.yaml" | dot -Tsvg > g2.svg || fail "graphviz failed on merged graph"
else
	echo "graphviz not installed: rendering not checked"
fi

# callgrind: callgrind_annotate reads it; totals and per-function self cost.
"$REPORT" --format=callgrind "$D/simple.yaml" "$D/simple-r1.yaml" > callgrind.out.1 || fail "callgrind exit $?"
if command -v callgrind_annotate >/dev/null 2>&1; then
	callgrind_annotate callgrind.out.1 > ann.txt 2>&1 || { cat ann.txt; fail "callgrind_annotate failed"; }
	grep -q '^22,000,000,000 (100.0%)  PROGRAM TOTALS' ann.txt || { cat ann.txt; fail "wrong total"; }
	grep -q '^8,000,000,000 (36.36%)  a.c:leaf' ann.txt || { cat ann.txt; fail "wrong leaf"; }
	callgrind_annotate --inclusive=yes callgrind.out.1 > inc.txt 2>&1 || fail "inclusive annotate failed"
	grep -q 'a.c:compute' inc.txt || fail "no compute in inclusive view"
else
	echo "valgrind not installed: callgrind_annotate not run"
fi

# chrome trace events: valid JSON, one named track per thread, complete
# events nested inside their parents.
"$REPORT" --format=chrome "$D/simple.yaml" "$D/simple-r1.yaml" > trace.json || fail "chrome exit $?"
expect_eq "thread tracks" 3 "$(jget trace.json 'len([e for e in d["traceEvents"] if e["name"] == "thread_name"])')"
expect_eq "X events (one per node of each thread)" 12 "$(jget trace.json 'len([e for e in d["traceEvents"] if e["ph"] == "X"])')"
# rank 1's compute starts inside main at 0 and lasts 6 s
expect_eq "compute on rank 1" "[(0.0, 6000000.0)]" \
	"$(jget trace.json '[(e["ts"], e["dur"]) for e in d["traceEvents"] if e["ph"] == "X" and e["name"] == "compute" and e["pid"] == 1]')"
# rec's second level starts after compute (6 s) within main on rank 0 thread 0
expect_eq "nested rec" "[(6000000.0, 3000000.0), (6000000.0, 2000000.0)]" \
	"$(jget trace.json '[(e["ts"], e["dur"]) for e in d["traceEvents"] if e["ph"] == "X" and e["name"] == "rec"]')"
echo ok
