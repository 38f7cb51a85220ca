#!/bin/bash
# SPDX-License-Identifier: MIT
# The plugin's compile-time cost on one large generated translation unit
# (bench/gen-large-tu.py, ~52,000 lines, 1,200 functions): gcc -O2 -c
# without the plugin, with it above every score (analysis only: no code
# added), at the default threshold, and at the default with loops=off.
# Runs alternate A B C D A B C D ...;
# medians of RUNS (default 5) user+sys CPU seconds.  Also the plugin's own
# pass time, from -ftime-report's "plugin execution" line, which leaves out
# the cost of compiling the code the hooks add.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
plugin=$root/build/selinst.so
runs=${RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$root/bench/gen-large-tu.py" > "$tmp/large.c"
lines=$(wc -l < "$tmp/large.c")

cpu() { local TIMEFORMAT='%U %S'; { time "$@" >/dev/null 2>&1; } 2>&1 | awk '{print $1 + $2}'; }
over() { awk -v a="$1" -v p="$2" 'BEGIN{print (a/p-1)*100}'; }	# percent of A over P
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

: > "$tmp/plain"; : > "$tmp/analysis"; : > "$tmp/default"; : > "$tmp/noloops"
for i in $(seq "$runs"); do
	cpu gcc -O2 -c "$tmp/large.c" -o "$tmp/a.o" >> "$tmp/plain"
	cpu gcc -O2 -fplugin="$plugin" -fplugin-arg-selinst-threshold=1000000000000000000000 \
		-c "$tmp/large.c" -o "$tmp/b.o" >> "$tmp/analysis"
	cpu gcc -O2 -fplugin="$plugin" -fplugin-arg-selinst-decisions="$tmp/d.yaml" \
		-c "$tmp/large.c" -o "$tmp/c.o" >> "$tmp/default"
	cpu gcc -O2 -fplugin="$plugin" -fplugin-arg-selinst-loops=off \
		-c "$tmp/large.c" -o "$tmp/e.o" >> "$tmp/noloops"
	rm -f "$tmp/d.yaml"
done
gcc -O2 -fplugin="$plugin" -fplugin-arg-selinst-decisions="$tmp/d.yaml" -c "$tmp/large.c" -o "$tmp/c.o"
counts=$(python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
f, l = d["functions"], d["loops"]
print(sum(x["instrument"] for x in f), len(f), sum(x["instrument"] for x in l), len(l))' "$tmp/d.yaml")
read -r selected total lsel ltotal <<< "$counts"
p=$(median < "$tmp/plain"); a=$(median < "$tmp/analysis"); d=$(median < "$tmp/default")
n=$(median < "$tmp/noloops")
echo "compile time, gcc -O2 -c, $lines lines, $total functions, median of $runs (CPU s):"
printf '  %-44s %7.2f s\n' "without the plugin" "$p"
printf '  %-44s %7.2f s  %+6.1f%%\n' "plugin, threshold above every score" "$a" "$(over "$a" "$p")"
printf '  %-44s %7.2f s  %+6.1f%%  (%s of %s functions, %s of %s loops)\n' "plugin, default threshold 204800" "$d" "$(over "$d" "$p")" "$selected" "$total" "$lsel" "$ltotal"
printf '  %-44s %7.2f s  %+6.1f%%\n' "plugin, default threshold, loops=off" "$n" "$(over "$n" "$p")"
pass=$(gcc -O2 -fplugin="$plugin" -ftime-report -c "$tmp/large.c" -o "$tmp/c.o" 2>&1 \
	| awk '/plugin execution/ {print $4}')
printf '  %-44s %7.2f s  %+6.1f%% of the plain compile\n' "plugin pass itself (-ftime-report)" "$pass" \
	"$(awk -v a="$pass" -v p="$p" 'BEGIN{print a/p*100}')"
