#!/bin/bash
# SPDX-License-Identifier: MIT
# Cost of the OpenMP wait recording (issue 16, runtime/omp.c): the NAS-like
# kernels cg and mg (bench/workloads) built with -fopenmp two ways: plain
# gcc -O2 -fopenmp, and the default selinst build (plugin at its default
# threshold, -lselinst).  The selinst binary runs with SELINST_OMP=0
# (libgomp's calls pass straight through: the default build's cost) and
# with the recording on (the default).  Time: median wall seconds of
# ROUNDS (default 5) runs, OMP_NUM_THREADS (default 2) threads, rounds
# interleaving the variants.  Instructions: valgrind (callgrind) over the
# whole run, size small.  Waiting is passive (OMP_WAIT_POLICY, unless
# set): a spinning waiter's time and instructions are the load's noise on
# a shared machine.  Parallel regions: per run, from the profile.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=$root/build
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
run() {	# run VARIANT ARGS...: wall seconds of one run
	local v=$1 bin=$1 s e
	shift
	[ "$v" = plain ] || bin=sel
	s=$(date +%s.%N)
	SELINST_OMP=$([ "$v" = off ] && echo 0 || echo 1) SELINST_OUTPUT=$tmp/p.prof \
		"./$w.$bin" "$@" >/dev/null
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f\n", e - s }'
}
instr() {	# instr VARIANT: instructions of the whole run
	local v=$1 bin=$1
	[ "$v" = plain ] || bin=sel
	SELINST_OMP=$([ "$v" = off ] && echo 0 || echo 1) SELINST_OUTPUT=$tmp/vg.prof \
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
		"./$w.$bin" small >/dev/null 2>"$tmp/vg.log"
	awk '/^summary:/ { print $2 }' "$tmp/cg.out"
}
echo "== OpenMP wait recording cost (bench/omp.sh): $OMP_NUM_THREADS threads, $OMP_WAIT_POLICY =="
printf "%-4s %-6s %9s %8s %13s %8s %9s\n" kernel variant "time s" x_plain instructions x_plain regions
for w in cg mg; do
	src=$root/bench/workloads/$w.c
	gcc -O2 -fopenmp "$src" -o "$w.plain" -lm
	gcc -O2 -fopenmp -fplugin="$B/selinst.so" -I"$root/include" "$src" -o "$w.sel" \
		-L"$B" -lselinst -Wl,-rpath,"$B" -lm
	for _ in $(seq "${ROUNDS:-5}"); do
		for v in plain off on; do run "$v" small >>"$tmp/t.$w.$v"; done
	done
	SELINST_OUTPUT=$tmp/r.prof "./$w.sel" small >/dev/null
	regions=$("$B/selinst-report" --format=json "$tmp/r.prof" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sum(r["calls"] for r in d["regions"] if r["kind"] == "omp" and r["name"].startswith("omp parallel ")))')
	for v in plain off on; do instr "$v" >"$tmp/i.$w.$v"; done
	for v in plain off on; do
		t=$(median <"$tmp/t.$w.$v")
		i=$(cat "$tmp/i.$w.$v")
		printf "%-4s %-6s %9s %8s %13s %8s %9s\n" "$w" "$v" "$t" \
			"$(ratio "$t" "$(median <"$tmp/t.$w.plain")")" "$i" \
			"$(ratio "$i" "$(cat "$tmp/i.$w.plain")")" "$([ "$v" = on ] && echo "$regions" || echo -)"
	done
done
echo "(plain: gcc -O2 -fopenmp; off: the default selinst build, SELINST_OMP=0;"
echo " on: the same binary recording libgomp's waits, the default; regions: omp parallel"
echo " entries over all threads in one run of size small)"
