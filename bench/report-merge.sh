#!/bin/bash
# SPDX-License-Identifier: MIT
# selinst-report merge speed (issue 4, item 8): N rank profiles of ~28,000
# call paths each, merged and printed as JSON.  Target: 64 files <= 3 s.
# Files 64.. are copies of the first 64 under other names (the cost of a
# file does not depend on its numbers), so generation stays quick.
# Prints medians of 5 runs for 64, 128 and 256 files and a linear estimate
# for 1,000 (time = a + b * files, fitted to the three medians).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
report=$root/build/selinst-report
gen=$root/testsuite/report-data/gen-profile.py
dir=${BENCH_REPORT_DIR:-$root/build/bench-report}
paths=${BENCH_REPORT_PATHS:-28000}
mkdir -p "$dir/64"
echo "== selinst-report: merge of rank profiles ($paths call paths each) =="
if [ ! -f "$dir/64/r63.prof" ] || [ "$(cat "$dir/paths" 2>/dev/null)" != "$paths" ]; then
	rm -f "$dir"/64/*.prof
	for i in $(seq 0 63); do
		python3 "$gen" --flow --paths "$paths" --rank "$i" --size 64 --seed "$i" \
			-o "$dir/64/r$i.prof" &
		(( i % 2 == 1 )) && wait
	done
	wait
	echo "$paths" > "$dir/paths"
fi
for n in 128 256; do
	mkdir -p "$dir/$n"
	for i in $(seq 0 $((n - 1))); do
		[ -e "$dir/$n/r$i.prof" ] || ln "$dir/64/r$((i % 64)).prof" "$dir/$n/r$i.prof"
	done
done
echo "one file: $(du -h "$dir/64/r0.prof" | cut -f1), $(grep -c 'parent:' "$dir/64/r0.prof") nodes; $(nproc) cores"
declare -A med
for n in 64 128 256; do
	ts=()
	for rep in 1 2 3 4 5; do
		s=$(date +%s%N)
		"$report" --format=json "$dir/$n"/r*.prof > "$dir/out-$n.json"
		ts+=($(( ($(date +%s%N) - s) / 1000000 )))
	done
	med[$n]=$(printf '%s\n' "${ts[@]}" | sort -n | sed -n 3p)
	printf '%4d files: median %5d ms  (runs: %s ms)  %s call paths merged\n' "$n" "${med[$n]}" \
		"${ts[*]}" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["call_paths"])' "$dir/out-$n.json")"
done
python3 - "${med[64]}" "${med[128]}" "${med[256]}" <<'PY'
import sys
xs = [64, 128, 256]; ys = [float(v) for v in sys.argv[1:]]
mx = sum(xs) / 3; my = sum(ys) / 3
b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
a = my - b * mx
print("fit: %.0f ms + %.2f ms/file; estimate for 1000 files: %.1f s" % (a, b, (a + b * 1000) / 1000))
print("64 files: %s (target <= 3 s)" % ("PASS" if ys[0] <= 3000 else "FAIL"))
PY
