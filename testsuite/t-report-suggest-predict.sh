#!/bin/bash
# SPDX-License-Identifier: MIT
# selinst-report --suggest predicts what the plugin's feedback predicts
# for the same profile (issue 13 point 4; include/selinst-predict.h): hook
# pairs, loop iterations, call-tree nodes (the write at exit), the
# start-up of each process, over the CPU time less the measured hooks,
# the pairs measured in situ where the samples say so.  Before, --suggest
# counted calls x the pair over the exclusive time alone: 17.5% here
# where the plugin predicted 49.0%.
. "$(dirname "$0")/lib.sh"
src=$T/programs/throttle.c
flags=(-O2 -pthread -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0)
si_cc "${flags[@]}" "$src" -o thr || fail "compile"
# tiny(): 301,000 calls of a few ns; costly(): 300 calls of >= 100 us.
SELINST_SAMPLE=off SELINST_THROTTLE=off SELINST_OUTPUT=thr.prof ./thr 150000 300 || fail "run"
grep -q "iterations:" thr.prof || fail "no loop iterations in the profile"

# Thread 0 with 1000 samples, 400 in the hooks.
with_samples thr.prof sampled.prof 1000 400
grep -q "samples_in_runtime: 400" sampled.prof || fail "could not add samples"

for prof in thr.prof sampled.prof; do
	rm -f fb.yaml
	si_cc "${flags[@]}" -fplugin-arg-selinst-decisions=fb.yaml -fplugin-arg-selinst-budget=100 \
		-fplugin-arg-selinst-profile="$prof" "$src" -o fb || fail "feedback build ($prof)"
	plugin=$(yget fb.yaml "d['feedback']['predicted_all']") || fail "no predicted_all"
	"$REPORT" --suggest --budget 100 --select sel.yaml "$prof" >out.txt || fail "--suggest $prof"
	report=$(sed -n 's/^predicted hook cost: \([0-9.]*\)% of the run.*/\1/p' out.txt)
	[ -n "$report" ] || { cat out.txt; fail "no predicted hook cost in --suggest's output"; }
	ok=$(python3 -c 'import sys; p, r = map(float, sys.argv[1:]); print(abs(p - r) <= 0.006 + 0.001 * p)' \
		"$plugin" "$report")
	expect_eq "$prof: --suggest $report% against the plugin's $plugin%" True "$ok"
done
# The sampled profile's pairs were measured in situ, and said so.
grep -q "measured in situ" out.txt || { head -3 out.txt; fail "in situ pair not said"; }
exit 0
