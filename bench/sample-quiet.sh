#!/bin/bash
# SPDX-License-Identifier: MIT
# sample-quiet.sh - the cost of SELINST_SAMPLE in wall and CPU time on a
# quiet machine (issue 14, point 4: at most 1% over the same build without
# sampling at the recommended 1000 Hz), which a loaded 2-core machine
# cannot resolve.  Each bench workload's default selective build (the
# medium size of bench/overhead.py), run without sampling and with
# SELINST_SAMPLE=1000 and 100, interleaved, RUNS rounds (default 11);
# prints each run and then, per workload and rate, the median wall and
# CPU seconds and the median of the per-round ratios to the run without.
# Then (point 3) the profiles for bench/sample-accuracy.py, whose full
# references measure elapsed time and so suffer most from a loaded
# machine: per workload three sampled runs of the default build, the full
# build (threshold=0 loop-threshold=0) and the functions-only full build,
# into DIR/acc/WORKLOAD/ (and $OUT/acc when $OUT is set).
#
#   bash bench/sample-quiet.sh [DIR [--build-only]]   builds into DIR
#       (default a temporary one) and runs there (not with --build-only,
#       for a run on another machine); `bash DIR/run.sh [RUNS [PART]]`
#       runs again without building (PART: cost, accuracy or all, the
#       default).  DIR holds everything a machine without the project's
#       packages needs: the programs and libselinst.so, found beside the
#       programs (the runtime names no samples: profile version 3).  With
#       $OUT the sampled programs and their libraries go beside the
#       profiles, where selinst-report finds them by build-id.  Back on
#       the build machine, with the profiles in
#       DIR/acc: python3 bench/sample-accuracy.py --keep DIR/acc --reuse
#       --runs 3 (runs callgrind there, where it is missing).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=$root/build
d=${1:-$(mktemp -d)}
mkdir -p "$d"
sizes=$(cd "$root/bench" && python3 -c 'from overhead import MEDIUM, WORKLOADS
for w in WORKLOADS: print(w, " ".join(MEDIUM[w]))')
echo "$sizes" >"$d/sizes"
while read -r wl args; do
	gcc -O2 -g "$root/bench/workloads/$wl.c" -o "$d/$wl" -lm -fplugin="$B/selinst.so" \
		-fplugin-arg-selinst-threshold=204800 -L"$B" -lselinst -Wl,-rpath,'$ORIGIN'
done <"$d/sizes"
python3 "$root/bench/sample-accuracy.py" --keep "$d/acc" --build-only >/dev/null
cp "$B/libselinst.so" "$d/"
cat >"$d/run.sh" <<'RUN'
# bench/sample-quiet.sh wrote this: run it where the machine is quiet.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD
runs=${1:-11}
part=${2:-all}
uname -r; nproc; uptime
if [ "$part" != cost ]; then
	echo "== accuracy profiles into acc/"
	while read -r wl args; do
		for i in 0 1 2; do
			p=acc/$wl/sel.prof; [ $i = 0 ] || p=acc/$wl/sel.$i.prof
			SELINST_SAMPLE=1000 SELINST_OUTPUT=$p acc/$wl/sel $args >/dev/null
		done
		SELINST_THROTTLE=off SELINST_OUTPUT=acc/$wl/full.prof acc/$wl/full $args >/dev/null
		SELINST_THROTTLE=off SELINST_OUTPUT=acc/$wl/fullfn.prof acc/$wl/fullfn $args >/dev/null
		echo "$wl done"
	done <sizes
	if [ -n "${OUT:-}" ]; then
		mkdir -p "$OUT/acc"
		for f in acc/*/*.prof; do mkdir -p "$OUT/$(dirname "$f")"; cp "$f" "$OUT/$f"; done
		# selinst-report names the samples from the programs and the
		# libraries they ran with: found beside the profiles (same
		# base name and build-id) when not at the paths of this machine.
		while read -r wl args; do
			cp acc/$wl/sel "$OUT/acc/$wl/"
			ldd acc/$wl/sel | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
				cp -L "$lib" "$OUT/acc/$wl/"
			done
		done <sizes
	fi
	[ "$part" = accuracy ] && exit 0
fi
TIMEFORMAT='%R %U %S'
one() {	# RATE PROGRAM ARGS...: "wall cpu" of one run
	local rate=$1 t
	shift
	if [ "$rate" = off ]; then
		t=$( { time SELINST_OUTPUT=/tmp/sq.prof "$@" >/dev/null 2>&1; } 2>&1 )
	else
		t=$( { time SELINST_SAMPLE=$rate SELINST_OUTPUT=/tmp/sq.prof "$@" >/dev/null 2>&1; } 2>&1 )
	fi
	echo "$t" | awk '{printf "%s %.3f", $1, $2 + $3}'
}
echo "== runs: workload round rate wall_s cpu_s"
while read -r wl args; do
	SELINST_OUTPUT=/tmp/sq.prof ./$wl $args >/dev/null	# warm the page cache
	for r in $(seq "$runs"); do
		for rate in off 1000 100; do
			echo "$wl $r $rate $(one $rate ./$wl $args)"
		done
	done
done <sizes | tee runs.txt
rm -f /tmp/sq.prof
echo "== per workload and rate: median wall, median CPU, median of the rounds' ratios to off (wall, CPU)"
awk '
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
{ w[$1 " " $2 " " $3] = $4; c[$1 " " $2 " " $3] = $5; if (!($1 in seen)) { seen[$1] = 1; order[++nw] = $1 } if ($2 > nr) nr = $2 }
END {
	for (k = 1; k <= nw; k++) for (q = 1; q <= 3; q++) {
		wl = order[k]; rate = q == 1 ? "off" : q == 2 ? "1000" : "100"
		delete a; delete b; delete ra; delete rb; n = 0
		for (r = 1; r <= nr; r++) {
			key = wl " " r " " rate; off = wl " " r " off"
			if (!(key in w)) continue
			n++; a[n] = w[key]; b[n] = c[key]
			ra[n] = w[key] / w[off] - 1; rb[n] = c[key] / c[off] - 1
		}
		if (n) printf "%-7s %-5s wall %.3f s  cpu %.3f s  wall %+.2f%%  cpu %+.2f%%\n", wl, rate,
			median(a, n), median(b, n), 100 * median(ra, n), 100 * median(rb, n)
	}
}' runs.txt
RUN
[ "${2:-}" = --build-only ] || bash "$d/run.sh" "${RUNS:-11}"
