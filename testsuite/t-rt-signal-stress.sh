#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime (issue 11 D, E), stress: the signal-window cases of
# t-rt-signal-window.sh repeated so that a failure in 1 of 30 tries shows
# with near certainty (E's crash was seen in 7 of 200 runs): D 10 runs of
# 2000 jumps each (20,000 jumps), E 25 runs of 40 threads (1,000 handlers
# that grow a fresh thread's stack) and 100 runs on the main thread, all
# profiles checked for consistent times; every other run with
# SELINST_SAMPLE=20000 (issue 14, point 4: the sample timer's signal in
# the same windows).  Under a minute on 2 cores.
. "$(dirname "$0")/lib.sh"
# Every call counted (the default throttle would switch the hot
# regions off after 100,000 calls: t-rt-throttle.sh).
export SELINST_THROTTLE=off
command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml missing"
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loops=off -pthread \
	"$T/programs/signal_window.c" -o sw || fail "compile"
# smp I: SELINST_SAMPLE's value for run I (odd runs sampled)
smp() { [ $(($1 % 2)) = 1 ] && echo 20000; }
for i in $(seq 1 10); do
	line=$(SELINST_SAMPLE=$(smp $i) SELINST_OUTPUT=$WORK/jump.$i.prof ./sw jump 2000) || fail "D run $i: exit status $?"
	python3 "$T/rt/sigcheck.py" --jump "$line" jump.$i.prof || fail "D run $i: see above"
done
for i in $(seq 1 25); do
	out=$(SELINST_SAMPLE=$(smp $i) SELINST_OUTPUT=$WORK/grow.$i.prof ./sw grow 40) || fail "E run $i: exit status $?"
	expect_eq "E run $i" "handled 40" "$out"
done
for i in $(seq 1 100); do
	out=$(SELINST_SAMPLE=$(smp $i) SELINST_OUTPUT=$WORK/growmain.$i.prof ./sw growmain 0) || fail "E main run $i: exit status $?"
	expect_eq "E main run $i" "handled 1" "$out"
	mv signal_window.snap.prof snap.$i.prof || fail "E main run $i: no snapshot"
done
# Over all sampled runs (one jump run may see none: the CPU timer stalls
# while it jumps out of its handlers; growmain runs briefly).
[ "$(samples_total jump.*.prof grow.*.prof)" -gt 0 ] || fail "no samples taken"
python3 "$T/rt/sigcheck.py" jump.*.prof grow.*.prof growmain.*.prof snap.*.prof || fail "inconsistent times"
exit 0
