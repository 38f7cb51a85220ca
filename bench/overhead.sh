#!/bin/bash
# SPDX-License-Identifier: MIT
# Run-time overhead (issue 6): every workload as plain, selinst (default
# threshold, full, loops off, loop threshold 0), -finstrument-functions and
# XRay; wall time, runs alternating, medians.  BENCH_RUNS (default 5),
# BENCH_SIZE (default medium: about 1 s plain;
# large takes over an hour), BENCH_WORKLOADS (default all).  Writes the
# table to build/bench/time.tsv and, with gnuplot, build/bench/overhead.svg.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$root/build/bench"
echo "== run-time overhead per variant (bench/overhead.py --mode time) =="
python3 "$root/bench/overhead.py" --mode time --runs "${BENCH_RUNS:-5}" --size "${BENCH_SIZE:-medium}" \
	--workloads "${BENCH_WORKLOADS:-bt,cg,ft,mg,interp}" --tsv "$root/build/bench/time.tsv" "$@"
bash "$root/bench/plot.sh" "$root/build/bench/time.tsv" "$root/build/bench/overhead.svg" \
	"selinst overhead: wall time, size ${BENCH_SIZE:-medium}, median of ${BENCH_RUNS:-5}"
