#!/bin/bash
# SPDX-License-Identifier: MIT
# Draws the overhead table that bench/overhead.py --tsv wrote as a bar chart:
# per workload, one bar per variant, run time (or instructions) relative to
# the variant's baseline on a log scale, so that +0.1% and +1000% both show.
#   bash bench/plot.sh TABLE.tsv OUT.svg [TITLE]
# Skipped with a message (exit 0) when gnuplot is not installed.
set -eu
tsv=$1 out=$2 title=${3:-overhead}
if ! command -v gnuplot >/dev/null; then
	echo "gnuplot not installed (Debian: gnuplot-nox): plot $out skipped"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Pivot to one row per workload, one column per variant (relative value).
python3 - "$tsv" "$tmp/data" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
wls, vs, val = [], [], {}
for wl, v, _, ov in rows:
    if wl not in wls: wls.append(wl)
    if v not in vs: vs.append(v)
    val[wl, v] = "%.5f" % (1 + float(ov) / 100) if ov else "NaN"
with open(sys.argv[2], "w") as f:
    f.write("workload\t" + "\t".join('"%s"' % v for v in vs) + "\n")
    for wl in wls:
        f.write(wl + "\t" + "\t".join(val.get((wl, v), "NaN") for v in vs) + "\n")
print(len(vs), file=open(sys.argv[2] + ".n", "w"))
PY
n=$(cat "$tmp/data.n")
gnuplot <<GP
set terminal svg size 900,480 dynamic font "sans,11" background rgb "white"
set output "$out"
set title "$title"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set logscale y
set yrange [0.8:*]
set ytics (0.9, 1, 1.01, 1.1, 1.5, 2, 3, 5, 10, 20)
set grid ytics
set ylabel "variant / baseline (log scale; 1 = no overhead)"
set key outside right top vertical
plot for [i=2:$((n + 1))] "$tmp/data" using i:xtic(1) title columnhead(i)
GP
echo "plot: $out"
