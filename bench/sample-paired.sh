#!/bin/bash
# SPDX-License-Identifier: MIT
# sample-paired.sh - the CPU-time cost of SELINST_SAMPLE (issue 14, point
# 4: at most 1% at the recommended 1000 Hz) measured in pairs that run at
# the same moment.  Run one after the other (sample-quiet.sh), identical
# runs on the 16-core lent machine took 1.0 to 2.3 s: the machine's speed
# drifts faster than a run lasts.  Here the run without sampling and the
# run with it start together, each pinned to its own CPU (no two of a
# pair on SMT siblings where the topology says so), so a drift hits both;
# the two swap CPUs every batch, and PAIRS pairs run side by side per
# batch.  A control pairs the build without sampling with itself: its
# spread is the method's own.  Prints, per workload and rate, the median
# and quartiles of the per-pair CPU ratios (user + system, the write at
# exit included).
#
#   bash bench/sample-paired.sh DIR [BATCHES [PAIRS]]
#
# DIR: a folder bench/sample-quiet.sh DIR --build-only wrote (programs,
# libselinst.so, sizes).  Defaults: 6 batches of 4 pairs per workload and
# rate.  Needs taskset (util-linux); without it the pairs are not pinned.
set -eu
d=$(cd "${1:?usage: sample-paired.sh DIR [BATCHES [PAIRS]]}" && pwd)
batches=${2:-6}
pairs=${3:-4}
cd "$d"
export LD_LIBRARY_PATH=$d
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One CPU per core, in order: pairs never share a core.
cpus=()
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}
	sib=$(cat "$c/topology/thread_siblings_list" 2>/dev/null || echo "$n")
	first=${sib%%[,-]*}
	[ "$first" = "$n" ] && cpus+=("$n")
done
IFS=$'\n' cpus=($(printf '%s\n' "${cpus[@]}" | sort -n)); unset IFS
# CPU 0 takes the machine's interrupts and timers: leave it out when
# there are enough.
[ "${#cpus[@]}" -gt $((2 * pairs + 1)) ] && cpus=("${cpus[@]:1}")
[ "${#cpus[@]}" -ge $((2 * pairs)) ] || pairs=$(( ${#cpus[@]} / 2 ))
[ "$pairs" -ge 1 ] || { echo "sample-paired: needs two cores" >&2; exit 1; }
pin() { if command -v taskset >/dev/null; then taskset -c "$@"; else shift; "$@"; fi; }

# RATE CPU OUTFILE PROGRAM ARGS...: CPU seconds of one run into OUTFILE.
one() {
	local rate=$1 cpu=$2 out=$3
	shift 3
	local env=(SELINST_OUTPUT="$out.prof")
	[ "$rate" = off ] || env+=(SELINST_SAMPLE="$rate")
	( TIMEFORMAT='%U %S'
	  { time pin "$cpu" env "${env[@]}" "$@" >/dev/null 2>&1; } 2>"$out.t" )
	awk '{printf "%.4f\n", $1 + $2}' "$out.t" >"$out"
}

uname -r; nproc; uptime
echo "cores used: ${cpus[*]:0:$((2 * pairs))}; $batches batches of $pairs pairs"
echo "== pairs: workload rate batch pair cpu_off_s cpu_rate_s"
while read -r wl args; do
	SELINST_OUTPUT=$tmp/warm.prof ./$wl $args >/dev/null	# the page cache
	for rate in 1000 off 100; do	# "off": the control, off against off
		for b in $(seq "$batches"); do
			for p in $(seq 0 $((pairs - 1))); do
				c1=${cpus[$((2 * p))]} c2=${cpus[$((2 * p + 1))]}
				[ $((b % 2)) = 0 ] && { t=$c1; c1=$c2; c2=$t; }
				one off "$c1" "$tmp/a$p" ./$wl $args &
				one "$rate" "$c2" "$tmp/b$p" ./$wl $args &
			done
			wait
			for p in $(seq 0 $((pairs - 1))); do
				echo "$wl $rate $b $p $(cat "$tmp/a$p") $(cat "$tmp/b$p")"
			done
		done
	done
done <sizes | tee "$d/pairs.txt"
echo "== per workload and rate: pairs, median CPU ratio to the run without sampling (quartiles)"
awk '
function sort(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
}
function q(a, n, f,   x, i) { x = 1 + f * (n - 1); i = int(x); return i >= n ? a[n] : a[i] + (x - i) * (a[i+1] - a[i]) }
{ k = $1 " " $2; if (!(k in n)) order[++nk] = k; r[k, ++n[k]] = $6 / $5 - 1 }
END {
	for (i = 1; i <= nk; i++) {
		k = order[i]; m = n[k]; delete a
		for (j = 1; j <= m; j++) a[j] = r[k, j]
		sort(a, m)
		split(k, w, " ")
		printf "%-7s %-12s %3d pairs  median %+.2f%%  (%+.2f%% .. %+.2f%%)\n", w[1],
			w[2] == "off" ? "off vs off" : w[2] " Hz", m, 100 * q(a, m, 0.5),
			100 * q(a, m, 0.25), 100 * q(a, m, 0.75)
	}
}' "$d/pairs.txt"
