#!/bin/bash
# SPDX-License-Identifier: MIT
# Loop names and counts that once depended on the -O level, and counts of
# loops still open when the profile is written (issue 11, M, O and F).
# - programs/loop_levels.c: every loop named by its keyword's line
#   (while (1), for (;;), a constant test, a for header over three lines,
#   do), and the iterations of tests with several parts (||, && of ||), a
#   loop of gotos around a VLA, a jump into a loop's test, and a while (1)
#   whose body opens with a loop (once merged with it above -O0), and a
#   while and a do with empty bodies: the same at
#   -O0, -O1, -O2 and -Os, in C and in C++.
# - programs/omp_loops.c: OpenMP worksharing loops (static, dynamic,
#   collapse(2), parallel for) named by their for's line at -O0 and -O2.
# - programs/loop_open.c: "for (;;) step (i)" left by a fatal SIGTERM, by
#   siglongjmp from a handler, or running in a thread as main returns,
#   counts its iterations (= step's calls, or one more when the signal
#   lands between the body's start and step's entry).
. "$(dirname "$0")/lib.sh"
# Counts are compared call for call: the throttle would stop counting.
export SELINST_THROTTLE=off
P=$T/programs
want="[('loop_levels.c:102', 1, 3), ('loop_levels.c:105', 1, 4), ('loop_levels.c:14', 1, 7), ('loop_levels.c:19', 1, 7), ('loop_levels.c:23', 1, 7), ('loop_levels.c:32', 1, 7), ('loop_levels.c:36', 1, 3), ('loop_levels.c:44', 1, 10), ('loop_levels.c:53', 1, 2), ('loop_levels.c:65', 1, 5), ('loop_levels.c:77', 2, 3), ('loop_levels.c:86', 1, 4), ('loop_levels.c:87', 4, 4), ('loop_levels.c:92', 3, 5)]"
gcc -O2 $P/loop_levels.c -o plain || fail "plain build"
./plain > plain.txt || fail "plain run"
for v in c-O0 c-O1 c-O2 c-Os c++-O0 c++-O2; do
	lang=${v%-*} O=-${v#*-}
	if [ $lang = c ]; then
		si_cc $O -fplugin-arg-selinst-threshold=0 $P/loop_levels.c -o ll$v || fail "compile $v"
	else
		si_cxx -x c++ $O -fplugin-arg-selinst-threshold=0 $P/loop_levels.c -x none -o ll$v || fail "compile $v"
	fi
	SELINST_OUTPUT=ll$v.prof ./ll$v > out$v.txt || fail "run $v"
	cmp -s plain.txt out$v.txt || fail "$v: output differs from the plain build's"
	$REPORT --format=json ll$v.prof > ll$v.json || fail "report $v"
	expect_eq "loop names, entries, iterations ($v)" "$want" \
		"$(jget ll$v.json "sorted((r['name'], r['entries'], r['iterations']) for r in d['regions'] if r['kind'] == 'loop')")"
done
# The jump into a loop's test, called as f(3) and f(0): trips 3 and 0.
expect_eq "jump into a loop's test: trip counts" "{'0': 1, '3': 1}" \
	"$(jget llc-O2.json "[r['trip_counts'] for r in d['regions'] if r['name'] == 'loop_levels.c:77'][0]")"

# OpenMP worksharing loops: named by their for's line, one region per
# source loop (collapse(2) is one), whatever the schedule; the chunk
# dispatch and the reduction's retry loop are listed and left out.
gcc -O2 -fopenmp $P/omp_loops.c -o omp-plain && OMP_NUM_THREADS=2 ./omp-plain > omp-plain.txt || fail "plain omp_loops.c"
for O in -O0 -O2; do
	si_cc $O -fopenmp -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=omp$O.yaml \
		$P/omp_loops.c -o omp$O || fail "compile omp_loops.c $O"
	OMP_NUM_THREADS=2 SELINST_OUTPUT=omp$O.prof ./omp$O > omp$O.txt || fail "run omp_loops.c $O"
	cmp -s omp-plain.txt omp$O.txt || fail "omp_loops.c $O: output differs"
	$REPORT --format=json omp$O.prof > omp$O.json || fail "report omp_loops.c $O"
	expect_eq "OpenMP loops $O (name, iterations)" \
		"[('omp_loops.c:14', 64), ('omp_loops.c:15', 4096), ('omp_loops.c:18', 64), ('omp_loops.c:21', 4096), ('omp_loops.c:26', 64)]" \
		"$(jget omp$O.json "sorted((r['name'], r['iterations']) for r in d['regions'] if r['kind'] == 'loop')")"
	expect_eq "OpenMP-made loops $O" 2 \
		"$(yget omp$O.yaml "len([l for l in d['loops'] if not l['instrument'] and 'made by OpenMP' in l['reason']])")"
done

gcc -O2 -pthread $P/loop_open.c -o open-plain || fail "plain build of loop_open.c"
for O in -O0 -O2; do
	si_cc $O -pthread -fplugin-arg-selinst-threshold=0 $P/loop_open.c -o open$O || fail "compile loop_open.c $O"
	for mode in term jump thread; do
		./open-plain $mode > plain-$mode.txt 2>/dev/null
		prc=$?
		rm -f open.prof
		SELINST_OUTPUT=open.prof ./open$O $mode > out-$mode.txt 2>/dev/null
		rc=$?
		expect_eq "loop_open $mode $O: exit status" $prc $rc
		cmp -s plain-$mode.txt out-$mode.txt || fail "loop_open $mode $O: output differs"
		line=58
		[ $mode = thread ] && line=39
		$REPORT --format=json open.prof > open.json || fail "loop_open $mode $O: report"
		python3 - open.json $line $mode <<'PY' || fail "loop_open $mode $O: open loop's count"
import json, sys
d = json.load(open(sys.argv[1]))
r = {x["name"]: x for x in d["regions"]}
loop, step = r["loop_open.c:" + sys.argv[2]], r["step"]
assert loop["entries"] == 1, loop
assert step["calls"] >= 100000, step
diff = loop["iterations"] - step["calls"]
if sys.argv[3] == "thread":
    # Still running while the writer copies it: the thread's nodes are
    # copied before its frames (and their count cells), so the count may
    # run ahead of step's calls by what the thread did in between.
    assert 0 <= diff <= step["calls"] // 20, (loop["iterations"], step["calls"])
else:
    assert diff in (0, 1), (loop["iterations"], step["calls"])
PY
	done
done
exit 0
