#!/bin/bash
# The plugin's compile-time cost on one large generated translation unit
# (bench/gen-large-tu.py, ~52,000 lines, 1,200 functions): gcc -O2 -c
# without the plugin, with it above every score (analysis only: no code
# added) and at the default threshold.  Runs alternate A B C A B C ...;
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
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

: > "$tmp/plain"; : > "$tmp/analysis"; : > "$tmp/default"
for i in $(seq "$runs"); do
	cpu gcc -O2 -c "$tmp/large.c" -o "$tmp/a.o" >> "$tmp/plain"
	cpu gcc -O2 -fplugin="$plugin" -fplugin-arg-selinst-threshold=1000000000000000000000 \
		-c "$tmp/large.c" -o "$tmp/b.o" >> "$tmp/analysis"
	cpu gcc -O2 -fplugin="$plugin" -fplugin-arg-selinst-decisions="$tmp/d.yaml" \
		-c "$tmp/large.c" -o "$tmp/c.o" >> "$tmp/default"
	rm -f "$tmp/d.yaml"
done
gcc -O2 -fplugin="$plugin" -fplugin-arg-selinst-decisions="$tmp/d.yaml" -c "$tmp/large.c" -o "$tmp/c.o"
selected=$(grep -c 'instrument: true' "$tmp/d.yaml")
total=$(grep -c '^- name:' "$tmp/d.yaml")
p=$(median < "$tmp/plain"); a=$(median < "$tmp/analysis"); d=$(median < "$tmp/default")
echo "compile time, gcc -O2 -c, $lines lines, $total functions, median of $runs (CPU s):"
printf '  %-44s %7.2f s\n' "without the plugin" "$p"
printf '  %-44s %7.2f s  %+6.1f%%\n' "plugin, threshold above every score" "$a" "$(awk -v a="$a" -v p="$p" 'BEGIN{print (a/p-1)*100}')"
printf '  %-44s %7.2f s  %+6.1f%%  (%s of %s functions instrumented)\n' "plugin, default threshold 204800" "$d" "$(awk -v a="$d" -v p="$p" 'BEGIN{print (a/p-1)*100}')" "$selected" "$total"
pass=$(gcc -O2 -fplugin="$plugin" -ftime-report -c "$tmp/large.c" -o "$tmp/c.o" 2>&1 \
	| awk '/plugin execution/ {print $4}')
printf '  %-44s %7.2f s  %+6.1f%% of the plain compile\n' "plugin pass itself (-ftime-report)" "$pass" \
	"$(awk -v a="$pass" -v p="$p" 'BEGIN{print a/p*100}')"
