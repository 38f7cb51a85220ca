#!/bin/bash
# SPDX-License-Identifier: MIT
# Cost of the OpenMP wait recording (issue 16, runtime/omp.c): the NAS-like
# kernels cg and mg (bench/workloads) built with -fopenmp two ways: plain
# gcc -O2 -fopenmp, and the default selinst build (plugin at its default
# threshold, -lselinst).  The selinst binary runs three ways: off
# (SELINST_OMP=0: libgomp's calls pass straight through), on (the
# default: waits recorded, the parallel-end wait estimated from each
# thread's end time) and exact (SELINST_OMP=exact: that wait measured in
# a barrier of ours).  Time: median wall seconds of ROUNDS (default 5)
# runs, OMP_NUM_THREADS (default 2) threads, rounds interleaving the
# variants.  Instructions: valgrind (callgrind) over the whole run, size
# small.  Waiting is passive (OMP_WAIT_POLICY, unless set): a spinning
# waiter's time and instructions are the load's noise on a shared
# machine.  Forks: parallel regions per run, from the profile; per fork:
# the variant's time and instructions over off's, divided by the forks.
# First the cost per fork alone on a program that does nothing else,
# with 2 and 4 threads (FORK_THREADS); `omp.sh forks`: that part only.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=$root/build
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
variants="plain off on exact"
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
omp_env() {	# omp_env VARIANT: its SELINST_OMP setting for env
	case $1 in off) echo SELINST_OMP=0 ;; exact) echo SELINST_OMP=exact ;; *) echo SELINST_OMP=1 ;; esac
}
run() {	# run VARIANT ARGS...: wall seconds of one run
	local v=$1 bin=$1 s e
	shift
	[ "$v" = plain ] || bin=sel
	s=$(date +%s.%N)
	env "$(omp_env "$v")" SELINST_OUTPUT=$tmp/p.prof "./$w.$bin" "$@" >/dev/null
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f\n", e - s }'
}
instr() {	# instr VARIANT: instructions of the whole run
	local v=$1 bin=$1
	[ "$v" = plain ] || bin=sel
	env "$(omp_env "$v")" SELINST_OUTPUT=$tmp/vg.prof \
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
		"./$w.$bin" small >/dev/null 2>"$tmp/vg.log"
	awk '/^summary:/ { print $2 }' "$tmp/cg.out"
}
# per_fork A B FORKS SCALE: (A - B) / FORKS * SCALE
per_fork() { awk -v a="$1" -v b="$2" -v n="$3" -v k="$4" 'BEGIN { printf "%.2f", (a - b) / n * k }'; }
# forks THREADS: the cost per fork alone (bench/omp-forks.c: FORKS, default
# 20000, regions of one store per thread), median and minimum of ROUNDS
# interleaved runs, and instructions per fork (callgrind, 3000 forks less
# 1000, over 2000).
forks() {
	local th=$1 v n i a b
	for _ in $(seq "${ROUNDS:-5}"); do
		for v in $variants; do
			bin=sel; [ "$v" = plain ] && bin=plain
			env "$(omp_env "$v")" OMP_NUM_THREADS="$th" SELINST_OUTPUT=$tmp/f.prof \
				"./forks.$bin" "${FORKS:-20000}" >>"$tmp/f.$th.$v"
		done
	done
	for v in $variants; do
		bin=sel; [ "$v" = plain ] && bin=plain
		for n in 1000 3000; do
			env "$(omp_env "$v")" OMP_NUM_THREADS="$th" SELINST_OUTPUT=$tmp/vg.prof \
				valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
				"./forks.$bin" $n >/dev/null 2>"$tmp/vg.log"
			awk '/^summary:/ { print $2 }' "$tmp/cg.out" >"$tmp/fi.$n"
		done
		i=$(awk -v a="$(cat "$tmp/fi.1000")" -v b="$(cat "$tmp/fi.3000")" \
			'BEGIN { printf "%.0f", (b - a) / 2000 }')
		printf "%-7s %-6s %10s %10s %12s\n" "$th" "$v" "$(median <"$tmp/f.$th.$v")" \
			"$(sort -g "$tmp/f.$th.$v" | head -1)" "$i"
	done
}
gcc -O2 -fopenmp "$root/bench/omp-forks.c" -o forks.plain
gcc -O2 -fopenmp "$root/bench/omp-forks.c" -o forks.sel -L"$B" -lselinst -Wl,-rpath,"$B"
echo "== OpenMP cost per fork (bench/omp.sh, bench/omp-forks.c): $OMP_WAIT_POLICY =="
printf "%-7s %-6s %10s %10s %12s\n" threads variant "median us" "min us" "instr/fork"
for th in ${FORK_THREADS:-2 4}; do forks "$th"; done
[ "${1:-}" = forks ] && exit 0
echo
echo "== OpenMP wait recording cost (bench/omp.sh): $OMP_NUM_THREADS threads, $OMP_WAIT_POLICY =="
printf "%-4s %-6s %9s %8s %13s %8s %6s %10s %12s\n" kernel variant "time s" x_plain instructions \
	x_plain forks "us/fork" "instr/fork"
for w in cg mg; do
	src=$root/bench/workloads/$w.c
	gcc -O2 -fopenmp "$src" -o "$w.plain" -lm
	gcc -O2 -fopenmp -fplugin="$B/selinst.so" -I"$root/include" "$src" -o "$w.sel" \
		-L"$B" -lselinst -Wl,-rpath,"$B" -lm
	for _ in $(seq "${ROUNDS:-5}"); do
		for v in $variants; do run "$v" small >>"$tmp/t.$w.$v"; done
	done
	SELINST_OUTPUT=$tmp/r.prof "./$w.sel" small >/dev/null
	# forks: omp parallel entries over all threads, over the team's size
	forks=$("$B/selinst-report" --format=json "$tmp/r.prof" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sum(r["calls"] for r in d["regions"]
          if r["kind"] == "omp" and r["name"].startswith("omp parallel ")) // int(sys.argv[1]))' \
		"$OMP_NUM_THREADS")
	for v in $variants; do instr "$v" >"$tmp/i.$w.$v"; done
	toff=$(median <"$tmp/t.$w.off")
	ioff=$(cat "$tmp/i.$w.off")
	for v in $variants; do
		t=$(median <"$tmp/t.$w.$v")
		i=$(cat "$tmp/i.$w.$v")
		pf=- pi=-
		case $v in on | exact) pf=$(per_fork "$t" "$toff" "$forks" 1e6)
			pi=$(per_fork "$i" "$ioff" "$forks" 1) ;; esac
		printf "%-4s %-6s %9s %8s %13s %8s %6s %10s %12s\n" "$w" "$v" "$t" \
			"$(ratio "$t" "$(median <"$tmp/t.$w.plain")")" "$i" \
			"$(ratio "$i" "$(cat "$tmp/i.$w.plain")")" "$forks" "$pf" "$pi"
	done
done
echo "(plain: gcc -O2 -fopenmp; off: the default selinst build, SELINST_OMP=0;"
echo " on: the same binary recording libgomp's waits, the default (parallel-end"
echo " wait estimated); exact: SELINST_OMP=exact (measured in a barrier); forks:"
echo " parallel regions in one run of size small; per fork: over off)"
