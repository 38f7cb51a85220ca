#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime hot path (issue 3): cost of a timed enter/exit pair next to the
# bare clock read, 1 vs 2 threads, bytes per call-path node.  Builds
# bench/rt-pair.c against build/libselinst.so and runs it once per clock.
# PAIRS (default 10000000) pairs per round, ROUNDS (default 5) rounds.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -I"$root/include" "$root/bench/rt-pair.c" -L"$root/build" -lselinst \
	-Wl,-rpath,"$root/build" -pthread -o "$tmp/rt-pair"
cd "$tmp"
for clk in tsc monotonic; do
	SELINST_CLOCK=$clk SELINST_OUTPUT=$tmp/rt-pair.prof ./rt-pair "${PAIRS:-10000000}" "${ROUNDS:-5}"
done
