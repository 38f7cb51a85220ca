#!/bin/bash
# SPDX-License-Identifier: MIT
# quiet-timings.sh - wall-time figures that a loaded machine cannot
# resolve, for a quiet one (run by hand; bench/README.md has the figures
# of one such run): trace and flight mode's hook pair cost over profile
# mode (trace-pair.c), the hook pair's thread scaling (rt-pair.c, up to 16
# threads), and OpenMP recording's cost per fork (omp-forks.c) by wait
# policy and team size, plain / SELINST_OMP=0 / default / exact; and
# threshold 0 with inline=on against inline=off (bt, mg, interp).
#
#   bash bench/quiet-timings.sh [DIR]     builds into DIR (default a
#       temporary one) and runs there; `DIR/run.sh` runs again without
#       building (copy DIR to another machine: the binaries find
#       libselinst.so and libgomp.so.1 beside them)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=$root/build
d=${1:-$(mktemp -d)}
mkdir -p "$d"
gcc -O2 -I"$root/include" "$root/bench/trace-pair.c" -L"$B" -lselinst -Wl,-rpath,'$ORIGIN' -o "$d/pair"
gcc -O2 -I"$root/include" "$root/bench/rt-pair.c" -L"$B" -lselinst -Wl,-rpath,'$ORIGIN' -pthread -o "$d/rt-pair"
gcc -O2 -fopenmp "$root/bench/omp-forks.c" -Wl,-rpath,'$ORIGIN' -o "$d/forks.plain"
gcc -O2 -fopenmp "$root/bench/omp-forks.c" -L"$B" -lselinst -Wl,-rpath,'$ORIGIN' -o "$d/forks.sel"
cp "$B/libselinst.so" "$(gcc -print-file-name=libgomp.so.1)" "$d/"
# Threshold 0 with the default throttle, inline=on against inline=off
# (bench/README.md, "Inlining instrumented bodies"): bt, mg, interp.
for w in bt mg interp; do
	gcc -O2 -Wno-unknown-pragmas "$root/bench/workloads/$w.c" -lm -o "$d/$w.plain"
	for m in on off; do
		gcc -O2 -Wno-unknown-pragmas -fplugin="$B/selinst.so" -fplugin-arg-selinst-threshold=0 \
			-fplugin-arg-selinst-inline=$m "$root/bench/workloads/$w.c" -lm -L"$B" -lselinst \
			-Wl,-rpath,'$ORIGIN' -o "$d/$w.$m"
	done
done
cat >"$d/run.sh" <<'RUN'
# bench/quiet-timings.sh wrote this: run it where the machine is quiet.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD
uname -r; ldd --version | head -1; nproc; uptime
echo "== trace pair (ns: off on delta  min-off min-on min-delta), 5 runs x 9 rounds of 500000"
for r in 1 2 3 4 5; do for m in trace flight; do for c in wall cpu; do
	printf "%s %s " $m $c; SELINST_MODE=$m SELINST_OUTPUT=/tmp/p.prof ./pair 500000 9 $c 2>/dev/null; rm -rf /tmp/p.prof /tmp/p.trace
done; done; done
echo "== rt-pair thread scaling"
SELINST_OUTPUT=/tmp/r.prof ./rt-pair 5000000 5 --threads=1,2,4,8,16 2>&1 | tail -12
echo "== OpenMP us/fork, passive and active wait: plain / SELINST_OMP=0 / default / exact; 9 interleaved runs of 20000 forks"
for pol in passive active; do for th in 2 4 8 16; do
	for r in 1 2 3 4 5 6 7 8 9; do
		a=$(OMP_WAIT_POLICY=$pol OMP_NUM_THREADS=$th ./forks.plain 20000)
		b=$(OMP_WAIT_POLICY=$pol OMP_NUM_THREADS=$th SELINST_OMP=0 SELINST_OUTPUT=/tmp/f.prof ./forks.sel 20000)
		c=$(OMP_WAIT_POLICY=$pol OMP_NUM_THREADS=$th SELINST_OUTPUT=/tmp/f.prof ./forks.sel 20000)
		d=$(OMP_WAIT_POLICY=$pol OMP_NUM_THREADS=$th SELINST_OMP=exact SELINST_OUTPUT=/tmp/f.prof ./forks.sel 20000)
		echo "$pol $th $a $b $c $d"
	done
done; done
echo "== threshold 0, inline=on|off: wall s of plain / on / off, 7 interleaved runs (medium size)"
for w in "bt 32 50" "mg 7 18" "interp 90"; do
	set -- $w; n=$1; shift
	for r in 1 2 3 4 5 6 7; do
		t=""
		for v in plain on off; do
			s=$(date +%s.%N); SELINST_OUTPUT=/tmp/w.prof ./$n.$v "$@" >/dev/null; e=$(date +%s.%N)
			t="$t $(echo "$e - $s" | bc)"
		done
		echo "$n$t"
	done
done
RUN
bash "$d/run.sh"
