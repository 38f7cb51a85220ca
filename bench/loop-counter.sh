#!/bin/bash
# SPDX-License-Identifier: MIT
# loop-counter.sh - what a loop region's iteration counter costs an
# iteration (include/selinst-predict.h, SELINST_PREDICT_ITER_INSNS): four
# loop shapes (bench/loop-counter/loops.c: a pointer do-while, a counted
# for, a pointer while, a data-dependent while), built plain and at
# threshold 0, each function's instructions under callgrind against
# plain's, over the loop's iterations from the profile, and the plugin's
# verdict (plugin/loopcounter.cc: the profile's "counter: folded", which
# the prediction charges 0 an iteration; else "kept", charged 3).  On
# GCC 12 the first three cost nothing (the counter is replaced by a
# closed form at the exit) and the data-dependent one 2 instructions an
# iteration; in zstd, loops with computable trip counts cost 3 to 5
# (bench/README.md).
#   bash bench/loop-counter.sh
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=$ROOT/build
W=$(mktemp -d /tmp/selinst-loop-counter.XXXXXX)
cd "$W"
src=$ROOT/bench/loop-counter/loops.c
gcc -O2 "$src" -o plain
gcc -O2 -fplugin="$B/selinst.so" -I"$ROOT/include" -fplugin-arg-selinst-threshold=0 \
	-fplugin-arg-selinst-loop-threshold=0 "$src" -o inst -L"$B" -lselinst -Wl,-rpath,"$B"
SELINST_OUTPUT=$W/inst.prof ./inst >/dev/null
for x in plain inst; do
	SELINST_OUTPUT=/dev/null valgrind --tool=callgrind --callgrind-out-file=$x.cg ./$x >/dev/null 2>&1
	callgrind_annotate --threshold=100 $x.cg > $x.txt
done
python3 - inst.prof plain.txt inst.txt <<'PY'
import re, sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
regs = {r["id"]: r for r in d["regions"]}
iters = {}
verdict = {r["function"]: r.get("counter", "kept") for r in d["regions"] if r["kind"] == "loop"}
for t in d["threads"]:
    for n in t["nodes"]:
        r = regs[n["region"]]
        if r["kind"] == "loop":
            iters[r["function"]] = iters.get(r["function"], 0) + n.get("iterations", 0)
def ir(path):
    out = {}
    for line in open(path):
        m = re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+\S+?:(\w+)", line)
        if m:
            out[m.group(2)] = out.get(m.group(2), 0) + int(m.group(1).replace(",", ""))
    return out
a, b = ir(sys.argv[2]), ir(sys.argv[3])
print("function\titerations\tinstructions over plain\ta iteration\tcounter")
for f in ("dowhile", "fortop", "whiletop", "datadep"):
    dv = b.get(f, 0) - a.get(f, 0)
    print("%s\t%d\t%+d\t%.2f\t%s" % (f, iters.get(f, 0), dv, dv / max(iters.get(f, 1), 1),
                                    verdict.get(f, "-")))
PY
