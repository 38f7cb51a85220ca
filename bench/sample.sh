#!/bin/bash
# SPDX-License-Identifier: MIT
# Hybrid sampling (issue 14): accuracy of the default build with
# SELINST_SAMPLE against full instrumentation and callgrind
# (sample-accuracy.py), and its CPU-time cost (sample-overhead.py).
# BENCH_SIZE (default medium), BENCH_WORKLOADS (default all), BENCH_RUNS
# (pairs for the cost, default 15).  Needs valgrind for the callgrind
# reference.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
wl=${BENCH_WORKLOADS:-bt,cg,ft,mg,interp}
echo "== hybrid sampling: accuracy (bench/sample-accuracy.py) =="
python3 "$here/sample-accuracy.py" --workloads "$wl" --size "${BENCH_SIZE:-medium}"
echo "== hybrid sampling: CPU-time cost (bench/sample-overhead.py) =="
python3 "$here/sample-overhead.py" --workloads "$wl" --size "${BENCH_SIZE:-medium}" --runs "${BENCH_RUNS:-15}"
