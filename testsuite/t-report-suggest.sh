#!/bin/bash
# SPDX-License-Identifier: MIT
# selinst-report --suggest (issue 13): per-region predicted hook cost
# (calls x the runtime's measured hook_pair_ns) and a selection file that,
# fed back with -fplugin-arg-selinst-config=, removes the expensive
# regions and keeps the rest.
. "$(dirname "$0")/lib.sh"
src=$T/programs/throttle.c
si_cc -O2 -pthread -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loops=off "$src" -o thr \
	|| fail "compile"
# tiny(): 301,000 calls of a few ns; costly(): 300 calls of >= 100 us.
SELINST_THROTTLE=off ./thr 150000 300 || fail "run"
pair=$(yget thr.prof "d['hook_pair_ns']") || fail "no hook_pair_ns in the profile"
awk -v p="$pair" 'BEGIN { exit !(p > 0 && p < 10000) }' || fail "hook_pair_ns $pair out of range"
"$REPORT" --suggest --budget 1 --select sel.yaml thr.prof >out.txt || { cat out.txt; fail "--suggest"; }
cat out.txt
grep -q "hook pair $(printf %.2f "$pair") ns, budget 1%" out.txt || fail "header does not give the measured pair cost"
grep -Eq '^ *[0-9.]+% +301000 .* func exclude tiny$' out.txt || fail "tiny not excluded in the table"
grep -Eq '^ *[0-9.]+% +300 .* func +keep costly$' out.txt || fail "costly not kept in the table"
# The table is sorted by cost: tiny first.
expect_eq "first row" tiny "$(awk '/^ *[0-9.]+%/ { print $NF; exit }' out.txt)"
grep -q '^  - function: "tiny"' sel.yaml || { cat sel.yaml; fail "tiny not in the selection file"; }
grep -q 'costly' sel.yaml && { cat sel.yaml; fail "costly in the selection file"; }

# Fed back: tiny is not instrumented (the reason names the file's rule),
# costly still is, and the new profile has no tiny.
si_cc -O2 -pthread -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loops=off \
	-fplugin-arg-selinst-config=sel.yaml -fplugin-arg-selinst-decisions=dec.yaml "$src" -o thr2 \
	|| fail "compile with the suggested file"
line=$(grep -n '"tiny"' sel.yaml | cut -d: -f1)
expect_eq "tiny's reason" "(False, 'config sel.yaml:$line exclude')" \
	"$(yget dec.yaml "[(f['instrument'], f['reason']) for f in d['functions'] if f['name'] == 'tiny'][0]")" \
	|| { cat dec.yaml; fail "decision for tiny does not name sel.yaml:$line"; }
SELINST_THROTTLE=off SELINST_OUTPUT=thr2.prof ./thr2 150000 300 || fail "run 2"
expect_eq "regions after" "['costly', 'late', 'main', 'rows']" "$(yget thr2.prof "sorted(r['name'] for r in d['regions'])")"
"$REPORT" --suggest --select sel2.yaml thr2.prof >out2.txt || fail "--suggest on the second run"
grep -q "^  \[\]" sel2.yaml || { cat sel2.yaml; fail "the second run still has something to exclude"; }

# A throttled region is excluded whatever its measured calls.
SELINST_THROTTLE=1000:50000 SELINST_OUTPUT=thr3.prof ./thr 150000 10 || fail "run 3"
"$REPORT" --suggest --budget 100 --select sel3.yaml thr3.prof >out3.txt || fail "--suggest 3"
grep -q '^  - function: "tiny".*throttled' sel3.yaml || { cat out3.txt sel3.yaml; fail "throttled tiny not excluded"; }

# Without hook_pair_ns (older profiles): the documented fallback, said so.
grep -v '^hook_pair_ns:' thr.prof >old.prof
"$REPORT" --suggest --select sel4.yaml old.prof >out4.txt || fail "--suggest without hook_pair_ns"
grep -q "hook pair 20.00 ns (assumed" out4.txt || { head -3 out4.txt; fail "fallback pair cost not said"; }

# Usage errors: exit 2.
"$REPORT" --budget 5 thr.prof >/dev/null 2>err.txt; expect_eq "--budget alone" 2 $?
"$REPORT" --suggest --format=json thr.prof >/dev/null 2>err.txt; expect_eq "--suggest --format" 2 $?
"$REPORT" --suggest --budget 200 thr.prof >/dev/null 2>err.txt; expect_eq "--budget 200" 2 $?
"$REPORT" --suggest --select /nonexistent/dir/s.yaml thr.prof >/dev/null 2>err.txt
expect_eq "unwritable --select" 2 $?
grep -q "cannot write selection file /nonexistent/dir/s.yaml" err.txt || { cat err.txt; fail "message"; }
exit 0
