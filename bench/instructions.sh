#!/bin/bash
# SPDX-License-Identifier: MIT
# Deterministic overhead (issue 6): the same variants as bench/overhead.sh,
# instructions counted by valgrind --tool=callgrind, one run each, size
# BENCH_SIZE (default small).  Table also in build/bench/instructions.tsv;
# with gnuplot, build/bench/instructions.svg.  Extra arguments go to
# bench/overhead.py (e.g. --gate, --variants).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$root/build/bench"
echo "== instruction overhead per variant (bench/overhead.py --mode instructions) =="
python3 "$root/bench/overhead.py" --mode instructions --size "${BENCH_SIZE:-small}" \
	--workloads "${BENCH_WORKLOADS:-bt,cg,ft,mg,interp}" --tsv "$root/build/bench/instructions.tsv" "$@"
bash "$root/bench/plot.sh" "$root/build/bench/instructions.tsv" "$root/build/bench/instructions.svg" \
	"selinst overhead: instructions (callgrind), size ${BENCH_SIZE:-small}"
