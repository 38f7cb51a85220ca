#!/bin/bash
# SPDX-License-Identifier: MIT
# out-of-line.sh - calibrates the feedback's FB_OUT_OF_LINE_NS
# (plugin/feedback.cc): what one call costs when a small function GCC
# would inline is made uninlinable, as the plugin does to every chosen
# function.  Plain builds of bench/out-of-line.c, inlined and noinline,
# RUNS runs each alternating (default 7), N calls (default 200 million);
# prints the median user CPU time of each and the difference per call.
#   bash bench/out-of-line.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build/bench/out-of-line
mkdir -p "$out"
n=${N:-200000000}
gcc -O2 "$root/bench/out-of-line.c" -o "$out/inlined"
gcc -O2 -DOUT_OF_LINE "$root/bench/out-of-line.c" -o "$out/noinline"
python3 - "${RUNS:-7}" "$n" "$out/inlined" "$out/noinline" <<'PY'
import resource, statistics, subprocess, sys
runs, n, exes = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
cpu = {e: [] for e in exes}
for _ in range(runs):
    for e in exes:
        a = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([e, str(n)], stdout=subprocess.DEVNULL, check=True)
        b = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[e].append(b.ru_utime - a.ru_utime)
m = [statistics.median(cpu[e]) for e in exes]
print("inlined %.3f s, noinline %.3f s: %.2f ns per call out of line" % (m[0], m[1], 1e9 * (m[1] - m[0]) / n))
PY
