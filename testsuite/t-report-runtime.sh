#!/bin/bash
# SPDX-License-Identifier: MIT
# selinst-report on a real profile written by build/libselinst.so from a
# program that calls the hooks by hand (report-data/rtprog.c): the
# report's counts are the program's.
. "$(dirname "$0")/lib.sh"
D=$T/report-data
[ -x "$REPORT" ] || fail "no $REPORT"
[ -f "$SELINST_BUILD/libselinst.so" ] || skip "runtime not built"

gcc -O1 -pthread -I"$SELINST_ROOT/include" "$D/rtprog.c" -o rtprog $SI_LIBS || fail "compile"
SELINST_OUTPUT=$WORK/rt.prof ./rtprog || fail "rtprog exit $?"
[ -s rt.prof ] || fail "no profile written"
# The runtime ends every profile with the end marker; cut at any line
# break before it, the profile is refused as truncated.
expect_eq "last line" "end: true" "$(tail -n 1 rt.prof)"
n=$(wc -l < rt.prof)
for k in 1 2 $((n / 3)) $((n / 2)) $((n - 2)) $((n - 1)); do
	head -n "$k" rt.prof > cut.prof
	"$REPORT" cut.prof > /dev/null 2> err.txt && fail "cut after line $k accepted"
	expect_eq "cut after line $k" "selinst-report: cut.prof:$k: profile is truncated (no 'end: true' marker; the writer did not finish)" "$(cat err.txt)"
done
"$REPORT" rt.prof > flat.txt || { cat flat.txt; fail "report exit $?"; }
cat flat.txt
"$REPORT" --format=json rt.prof > rt.json || fail "json exit $?"
r() { jget rt.json "[r for r in d['regions'] if r['name'] == '$1'][0]['$2']"; }
expect_eq threads 2 "$(jget rt.json 'd["threads"]')"
expect_eq "work calls" 15 "$(r work calls)"
expect_eq "work threads" 2 "$(r work threads)"
expect_eq "leaf calls" 1083 "$(r leaf calls)"
expect_eq "loop kind" loop "$(r rtprog.c:23 kind)"
expect_eq "loop function" work "$(r rtprog.c:23 function)"
expect_eq "loop entries" 15 "$(r rtprog.c:23 entries)"
expect_eq "loop iterations" 1083 "$(r rtprog.c:23 iterations)"
expect_eq "trip counts" "{'3': 1, '16-31': 4, '64-127': 10}" "$(r rtprog.c:23 trip_counts)"
expect_eq "main calls" 1 "$(r main calls)"
# Exclusive times add up to the total; inclusive >= exclusive everywhere.
expect_eq "sum excl" True "$(jget rt.json 'abs(sum(r["exclusive_seconds"] for r in d["regions"]) - d["total_seconds"]) < 1e-6')"
expect_eq "incl >= excl" True "$(jget rt.json 'all(r["inclusive_seconds"] >= r["exclusive_seconds"] for r in d["regions"])')"
"$REPORT" --format=folded rt.prof > rt.folded || fail "folded"
grep -q '^main;work;rtprog.c:23;leaf [0-9]*$' rt.folded || { cat rt.folded; fail "folded path main;work;rtprog.c:23;leaf"; }
grep -q '^thread_main;work;rtprog.c:23;leaf [0-9]*$' rt.folded || fail "folded path of the second thread"
for v in --tree --threads --loops; do
	"$REPORT" $v rt.prof > v.txt || fail "$v exit $?"
done
"$REPORT" --loops rt.prof | grep -q 'trips: 3:1 16-31:4 64-127:10' || fail "loop histogram"
# Two runs merge; the diff of a run against itself passes a 1000% gate.
SELINST_OUTPUT=$WORK/rt2.prof ./rtprog || fail "second run"
"$REPORT" --format=json rt.prof rt2.prof > two.json || fail "merge of two runs"
expect_eq "two runs: work calls" 30 "$(jget two.json '[r["calls"] for r in d["regions"] if r["name"] == "work"][0]')"
"$REPORT" --diff rt.prof rt2.prof --fail-above 100000 > /dev/null || fail "diff gate"
echo ok
