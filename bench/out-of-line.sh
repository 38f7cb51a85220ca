#!/bin/bash
# SPDX-License-Identifier: MIT
# out-of-line.sh - calibrates the prediction's per-call terms
# (include/selinst-predict.h): what a call of a function region costs
# besides its calibrated hook pair, and the share of a pair that sampling
# finds inside the hooks.  Builds bench/out-of-line.c plain (inlined),
# plain noinline, and with the plugin at threshold 0 without loop regions,
# inline=on and inline=off (the hooked function is the only region
# called in the loop); runs each RUNS times alternating (default 7) with
# N calls (default 100 million), SELINST_THROTTLE=off, and prints the
# median user + system CPU time of each, per call over the inlined
# build, and for the hooked builds that less the profile's hook_pair_ns
# (the out-of-line term).  Then one run of the inline=on build with
# SELINST_SAMPLE=5000: samples_in_runtime / samples x CPU time / calls,
# over the pair's measured cost, is SELINST_PREDICT_INSIDE_SHARE.  With
# CALLGRIND=1 also the instructions per call of each build (1 and 2
# million calls: the difference).
#   bash bench/out-of-line.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=$root/build
out=$B/bench/out-of-line
mkdir -p "$out"
n=${N:-100000000}
src=$root/bench/out-of-line.c
gcc -O2 "$src" -o "$out/inlined"
gcc -O2 -DOUT_OF_LINE "$src" -o "$out/noinline"
for m in on off; do
	gcc -O2 -fplugin="$B/selinst.so" -fplugin-arg-selinst-threshold=0 \
		-fplugin-arg-selinst-loops=off -fplugin-arg-selinst-inline=$m \
		"$src" -o "$out/hooked-$m" -L"$B" -lselinst -Wl,-rpath,"$B"
done
python3 - "${RUNS:-7}" "$n" "$out" <<'PY'
import os, resource, statistics, subprocess, sys, yaml
runs, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
names = ["inlined", "noinline", "hooked-on", "hooked-off"]
cpu = {e: [] for e in names}
env = dict(os.environ, SELINST_THROTTLE="off")
for _ in range(runs):
    for e in names:
        env["SELINST_OUTPUT"] = os.path.join(out, e + ".prof")
        a = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([os.path.join(out, e), str(n)], env=env, stdout=subprocess.DEVNULL, check=True)
        b = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[e].append(b.ru_utime + b.ru_stime - a.ru_utime - a.ru_stime)
m = {e: statistics.median(cpu[e]) for e in names}
for e in names:
    per = 1e9 * (m[e] - m["inlined"]) / n
    line = "%-10s %.3f s, %+.2f ns a call over inlined" % (e, m[e], per)
    if e.startswith("hooked"):
        pair = yaml.safe_load(open(os.path.join(out, e + ".prof")))["hook_pair_ns"]
        line += ", %+.2f ns beside the calibrated pair (%.2f ns)" % (per - pair, pair)
    print(line)
env["SELINST_SAMPLE"] = "5000"
env["SELINST_OUTPUT"] = os.path.join(out, "sampled.prof")
subprocess.run([os.path.join(out, "hooked-on"), str(n)], env=env, stdout=subprocess.DEVNULL, check=True)
t = yaml.safe_load(open(env["SELINST_OUTPUT"]))["threads"][0]
inside = t["cpu_ns"] * t["samples_in_runtime"] / t["samples"] / n
per = 1e9 * (m["hooked-on"] - m["inlined"]) / n
print("sampled: %d of %d samples in the hooks, %.2f ns of a %.2f ns pair: share %.3f"
      % (t["samples_in_runtime"], t["samples"], inside, per, inside / per))
PY
if [ -n "${CALLGRIND:-}" ]; then
	for e in inlined noinline hooked-on hooked-off; do
		c=()
		for k in 1000000 2000000; do
			c+=("$(SELINST_THROTTLE=off SELINST_OUTPUT=/dev/null valgrind --tool=callgrind \
				--callgrind-out-file=/dev/null "$out/$e" $k 2>&1 >/dev/null |
				sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')")
		done
		echo "$e: $(( (c[1] - c[0]) / 1000000 )) instructions a call"
	done
fi
