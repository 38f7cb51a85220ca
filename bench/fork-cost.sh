#!/bin/bash
# SPDX-License-Identifier: MIT
# fork-cost.sh - what fork() costs an instrumented process: fork-cost.c's
# loop of fork + _exit(0) + waitpid, built plain, run plain, with
# LD_PRELOAD=libselinst.so (no hooks: no thread profile to copy), and
# built at threshold 0 (main and fork_some open in every child), and that
# build again with a child that calls an instrumented function (which
# makes the child's profile) before it exits.  Prints
# per fork the median of RUNS runs (default 5) of wall us, the parent's
# CPU us and the children's CPU us, under nice -n 10.
#   bash bench/fork-cost.sh [N]       (N forks per run, default 2000)
# BUILD=DIR takes selinst.so and libselinst.so from DIR (another build, to
# compare), not build/.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${BUILD:-$ROOT/build}
N=${1:-2000}
RUNS=${RUNS:-5}
W=${WORK:-$(mktemp -d /tmp/selinst-fork-cost.XXXXXX)}
mkdir -p "$W" && cd "$W" || exit 1
gcc -O2 "$ROOT/bench/fork-cost.c" -o plain || exit 1
gcc -O2 -fplugin="$B/selinst.so" -fplugin-arg-selinst-threshold=0 -I"$ROOT/include" \
	"$ROOT/bench/fork-cost.c" -o t0 -L"$B" -lselinst -Wl,-rpath,"$B" || exit 1
# Median of each column over RUNS runs of the command.
median_runs() {
	for _ in $(seq "$RUNS"); do
		SELINST_OUTPUT=$W/out.prof nice -n 10 "$@" "$N" ${CALL:+call} || exit 1
	done | python3 -c '
import sys, statistics
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
print("\t".join("%.1f" % statistics.median(c) for c in zip(*rows)))'
}
printf 'variant\twall us\tparent CPU us\tchild CPU us\t(per fork, median of %s runs of %s forks)\n' "$RUNS" "$N"
printf 'plain\t%s\n' "$(median_runs ./plain)"
printf 'preload\t%s\n' "$(median_runs env LD_PRELOAD="$B/libselinst.so" ./plain)"
printf 'threshold=0\t%s\n' "$(median_runs ./t0)"
printf 'threshold=0, child calls\t%s\n' "$(CALL=1 median_runs ./t0)"
