#!/bin/bash
# SPDX-License-Identifier: MIT
# Phases and iterations (issue 15): the profile's size with SELINST_ITERATE
# on the main loop of cg and bt (default selection) at 100, 1,000 and
# 10,000 iterations, next to the whole-run profile alone.  (The cost of
# the body-start test in the instrumented code is in bench/README.md,
# "Phases": measured against the build before it.)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=${SELINST_BUILD:-$root/build}
W=$root/bench/workloads
tmp=$(mktemp -d /tmp/selinst-phases.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
for w in cg bt; do
	gcc -O2 -fplugin="$B/selinst.so" "$W/$w.c" -L"$B" -Wl,-rpath,"$B" -lselinst -lm -o $w
done
cgline=$(grep -n 'for (int it = 1; it <= niter' "$W/cg.c" | cut -d: -f1)
btline=$(grep -n 'for (int s = 1; s <= steps' "$W/bt.c" | cut -d: -f1)
echo "Phases: profile bytes, whole run alone / with SELINST_ITERATE on the main loop"
printf '%-10s %10s %12s %12s %10s %12s %10s %8s\n' workload iterations plain iterate B/iter exact B/iter times
for spec in "cg 2000 cg.c:$cgline" "bt 6 bt.c:$btline"; do
	set -- $spec
	for n in 100 1000 10000; do
		SELINST_OUTPUT=plain.prof ./$1 $2 $n >/dev/null
		SELINST_ITERATE=$3 SELINST_OUTPUT=it.prof ./$1 $2 $n >/dev/null
		SELINST_ITERATE=$3 SELINST_ITERATE_EXACT=1 SELINST_OUTPUT=ex.prof ./$1 $2 $n >/dev/null
		a=$(stat -c %s plain.prof) b=$(stat -c %s it.prof) c=$(stat -c %s ex.prof)
		printf '%-10s %10d %12d %12d %10.1f %12d %10.1f %8.1f\n' "$1 $2" $n $a $b \
			"$(awk -v a=$a -v b=$b -v n=$n 'BEGIN { print (b - a) / n }')" $c \
			"$(awk -v a=$a -v c=$c -v n=$n 'BEGIN { print (c - a) / n }')" \
			"$(awk -v a=$a -v b=$b 'BEGIN { print b / a }')"
	done
done
