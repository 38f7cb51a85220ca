#!/bin/bash
# SPDX-License-Identifier: MIT
# OpenMP wait states with libgomp (runtime/omp.c, selinst-report --omp) on
# programs/omp_waits.c with 4 threads: in the region whose master sleeps
# after its work, the other threads' wait at the region's end shows
# as imbalance and the master's does not; in the contended critical
# section the threads wait a quarter of the time or more on average
# (synchronization), more than at the end; the waits are regions of
# kind omp under the calling context.  All this in the default mode
# (SELINST_OMP unset: the parallel-end wait estimated from each thread's
# end time) and with SELINST_OMP=exact (measured in a barrier).
# SELINST_OMP=0 records none of them, the program's output unchanged.
. "$(dirname "$0")/lib.sh"
si_cc -O2 -fopenmp $T/programs/omp_waits.c -o w || fail "compile"
# Passive waiters sleep: on a loaded machine spinning threads would slow
# the slow thread and blur what it waited for.
export OMP_NUM_THREADS=4 OMP_WAIT_POLICY=passive
# check_waits MODE: run with SELINST_OMP=MODE (empty: unset), check the classes.
check_waits() {
local p=p$1
env ${1:+SELINST_OMP=$1} SELINST_OUTPUT=$p.prof ./w 8 > $p.txt || fail "run $1"
expect_eq "output" "critical entries 160" "$(cat $p.txt)"
$REPORT --omp $p.prof > $p.omp.txt || fail "--omp"
cat $p.omp.txt
$REPORT --format=json $p.prof > $p.json || fail "json"
rows() { jget $p.json "[[t['thread'], t['$2']] for r in d['omp'] if r['name'].startswith('$1 [omp parallel') for t in r['threads']]"; }
imb=$(rows imbalanced imbalance)
sync=$(rows contended synchronization)
cimb=$(rows contended imbalance)
echo "imbalance: $imb"; echo "synchronization: $sync"
python3 - "$imb" "$sync" "$cimb" <<'PY' || fail "classes (SELINST_OMP=$1)"
import ast, sys
imb, sync, cimb = (dict(ast.literal_eval(a)) for a in sys.argv[1:])
assert sorted(imb) == [0, 1, 2, 3] and sorted(sync) == [0, 1, 2, 3], (imb, sync)
# The slow master waited for nobody; the others, for most of the
# region alone (the master's sleep, 4/5 of it), less when they share the cores with other
# jobs (0.24 seen with three runs at once on 2 cores).
others = [imb[t] for t in (1, 2, 3)]
assert min(others) > 0.1, imb
assert imb[0] < min(others) / 3, imb
# Four threads queueing for one section wait about 3/4 of the time each
# on average; a thread that got the lock often in a row finishes early
# and waits at the end instead (imbalance), so the test is on the mean.
mean = sum(sync.values()) / 4
assert mean > 0.25, sync
assert mean > sum(cimb.values()) / 4, (sync, cimb)
PY
grep -q "^ *thread .*imbalance .*sync .*limited .*management" $p.omp.txt || fail "--omp columns"
# The waits are omp regions under their calling context.
$REPORT --tree --wide $p.prof > $p.tree.txt || fail "tree"
grep -q "^ .* imbalanced$" $p.tree.txt || fail "no imbalanced in tree"
awk '/ imbalanced$/ { f = 1 } f && /omp implicit barrier \(parallel end\)/ { ok = 1 } END { exit !ok }' \
	$p.tree.txt || fail "the end barrier is not under imbalanced"
jget $p.json "sorted(set(r['kind'] for r in d['regions']))" | grep -q "'omp'" || fail "kind omp"
python3 "$T/rt/check.py" $p.prof 'consistent()' || fail "$p.prof inconsistent"
}
check_waits ""
check_waits exact
cp p.txt out.txt

SELINST_OMP=0 SELINST_OUTPUT=off.prof ./w 8 > out0.txt || fail "run off"
cmp out.txt out0.txt || fail "output changed"
$REPORT --format=json off.prof > off.json || fail "json off"
expect_eq "omp regions when off" "[]" "$(jget off.json "[r['name'] for r in d['regions'] if r['kind'] == 'omp']")"
$REPORT --omp off.prof | grep -q "no OpenMP parallel regions" || fail "--omp off"

# Every construct that waits in libgomp, once per thread (4 threads; a
# static loop's end and the explicit barrier are both GOMP_barrier), and
# the forks' end barriers (GOMP_parallel, GOMP_parallel_sections,
# GOMP_parallel_reductions, and 2 x 2 nested: measured in a barrier in
# both modes, the nested team's threads ending at its join) and the host
# teams region, in both modes, every profile consistent; the program's
# results unchanged (the task reduction's, the teams' and the nested's).
si_cc -O2 -fopenmp $T/programs/omp_constructs.c -o c || fail "compile constructs"
SELINST_OMP=0 SELINST_OUTPUT=c0.prof ./c > c0.txt || fail "run constructs off"
for m in "" exact; do
	env ${m:+SELINST_OMP=$m} SELINST_OUTPUT=c.prof ./c > c.txt || fail "run constructs $m"
	cmp c.txt c0.txt || fail "constructs: output changed"
	python3 "$T/rt/check.py" c.prof 'consistent()' || fail "c.prof inconsistent ($m)"
	$REPORT --format=json c.prof > c.json || fail "json constructs"
	expect_eq "waits and calls ($m)" "[('omp barrier', 8), ('omp critical (entry)', 4), \
('omp implicit barrier (loop end)', 4), ('omp implicit barrier (parallel end)', 18), \
('omp implicit barrier (sections end)', 4), ('omp implicit barrier (single end)', 4), \
('omp lock (set)', 4), ('omp parallel', 2), ('omp parallel', 4), ('omp parallel', 4), \
('omp parallel', 4), ('omp parallel', 4), ('omp taskwait', 4), ('omp teams', 1)]" \
		"$(jget c.json "sorted((r['name'].split(' c+')[0], r['calls']) for r in d['regions'] if r['kind'] == 'omp')")"
done

# A program without OpenMP: no omp region, and the --omp view says so.
si_cc -O2 $T/programs/loop_counts.c -o plain || fail "compile plain"
SELINST_OUTPUT=plain.prof ./plain > /dev/null || fail "run plain"
$REPORT --format=json plain.prof > plain.json || fail "json plain"
expect_eq "omp regions without OpenMP" "[]" \
	"$(jget plain.json "[r['name'] for r in d['regions'] if r['kind'] == 'omp'] + d.get('omp', [])")"
$REPORT --omp plain.prof | grep -q "no OpenMP parallel regions" || fail "--omp plain"
exit 0
