#!/bin/bash
# SPDX-License-Identifier: MIT
# --tree, --threads, --loops on hand-written profiles with known numbers.
. "$(dirname "$0")/lib.sh"
D=$T/report-data
[ -x "$REPORT" ] || fail "no $REPORT"

"$REPORT" --tree "$D/simple.yaml" "$D/simple-r1.yaml" > tree.txt || fail "tree exit $?"
cat tree.txt
# incl, %, excl, calls, indented name; merged over the two ranks
expect_eq "tree" "18.000 81.8% 3.000 2 main|12.000 54.5% 4.000 8   compute|5.000 22.7% 2.000 4     [loop a.c:30] 40 it|3.000 13.6% 3.000 40       leaf|3.000 13.6% 3.000 10     leaf|3.000 13.6% 1.000 2   rec|2.000 9.1% 2.000 3     rec|4.000 18.2% 1.000 2 compute|3.000 13.6% 1.000 2   [loop a.c:30] 100 it|2.000 9.1% 2.000 100     leaf" \
	"$(awk 'NR>4 { sub(/^ +/, ""); n=split($0, a, / +/); printf "%s%s %s %s %s %s", sep, a[1], a[2], a[3], a[4], substr($0, index($0, a[4]" ") + length(a[4]) + 1); sep="|" }' tree.txt)"
# --prune: 10% hides the two subtrees under 2.2 s (rec 2.0, leaf 2.0)
"$REPORT" --tree --prune 10 "$D/simple.yaml" "$D/simple-r1.yaml" > pruned.txt
expect_eq "pruned rows" 8 "$(awk 'NR>4 && !/^\(/' pruned.txt | wc -l)"
grep -q '^(2 subtrees below 10% not shown; --prune 0 shows all)$' pruned.txt || fail "no prune note"

"$REPORT" --threads "$D/simple.yaml" > thr.txt || fail "threads exit $?"
cat thr.txt
expect_eq "t0" "t0 4242 10.000 71.4% -" "$(grep '^t0 ' thr.txt | xargs)"  # no cpu_ns in this profile: "-"
expect_eq "t1" "t1 4243 4.000 28.6% -" "$(grep '^t1 ' thr.txt | xargs)"
# leaf: 3 s on t0, 2 s on t1: mean 2.5, imbalance 3/2.5 = 1.20
expect_eq "leaf imbalance" "2 2.000 2.500 3.000 1.20 leaf" "$(awk '/^Top regions/ {p=1} /^Exclusive seconds by/ {p=0} p && $NF == "leaf"' thr.txt | xargs)"
expect_eq "leaf by thread" "3.000 2.000 leaf" "$(awk '/^Exclusive seconds by thread/ {p=1} p && $NF == "leaf"' thr.txt | xargs)"
expect_eq "rec by thread" "3.000 - rec" "$(awk '/^Exclusive seconds by thread/ {p=1} p && $NF == "rec"' thr.txt | xargs)"
"$REPORT" --threads "$D/simple.yaml" "$D/simple-r1.yaml" > thr2.txt
grep -q '^r1.t0 ' thr2.txt || fail "rank-qualified thread names missing"
# Odd but accepted values (children's inclusive above the parent's, as on
# folded cycles; counts near 2^64) keep every column aligned within 80.
{
	printf 'format: selinst-profile\nversion: 1\nregions:\n'
	printf '  - {id: 0, name: f, kind: function, file: a.c, line: 1}\n'
	printf '  - {id: 1, name: g, kind: function, file: a.c, line: 2}\n'
	printf '  - {id: 2, name: "a.c:3", kind: loop, file: a.c, line: 3, function: f}\n'
	printf 'threads:\n  - index: 0\n    tid: 99999999999999\n    nodes:\n'
	printf '      - {id: 1, parent: 0, region: 0, calls: 1, inclusive_ns: 1000, exclusive_ns: 10}\n'
	printf '      - {id: 2, parent: 1, region: 1, calls: 9999999999999999999, inclusive_ns: 2000000000000, exclusive_ns: 1}\n'
	printf '      - {id: 3, parent: 1, region: 2, calls: 3, inclusive_ns: 9000000000000000000, exclusive_ns: 2, iterations: 9999999999999999999}\n'
	printf 'end: true\n'
} > odd.prof
"$REPORT" --tree --prune 0 odd.prof > odd-tree.txt || fail "odd tree exit $?"
cat odd-tree.txt
expect_eq "odd tree: % column" "16 16 16" "$(awk 'rows { printf "%s%d", s, index($0, "%"); s=" " } / region$/ { rows=1 }' odd-tree.txt)"
"$REPORT" odd.prof > odd-flat.txt || fail "odd flat exit $?"
cat odd-flat.txt
expect_eq "odd flat: % column" "26 26 26" "$(awk 'rows { printf "%s%d", s, index($0, "%"); s=" " } / region$/ { rows=1 }' odd-flat.txt)"
expect_eq "odd flat: kind column" "func func loop" "$(awk 'rows { print substr($0, 50, 4) } / region$/ { rows=1 }' odd-flat.txt | sort | xargs)"
"$REPORT" --loops odd.prof > odd-loops.txt || fail "odd loops exit $?"
"$REPORT" --threads odd.prof > odd-thr.txt || fail "odd threads exit $?"
cat odd-loops.txt odd-thr.txt
for f in odd-tree.txt odd-flat.txt odd-loops.txt odd-thr.txt; do
	expect_eq "$f: lines over 80 columns" "" "$(awk 'length($0) > 80' $f)"
done
expect_eq "odd loops: % column" 16 "$(awk '/ a.c:3$/ { print index($0, "%") }' odd-loops.txt)"
expect_eq "odd threads: t0 row" 50 "$(grep '^t0 ' odd-thr.txt | awk '{ print length($0) }')"
# --threads lists 10 regions by default; --top 0 lists all, --top N N.
python3 "$D/gen-profile.py" --paths 200 --regions 40 -o many.prof
nreg=$(python3 -c 'import sys,yaml; d=yaml.safe_load(open(sys.argv[1])); print(len({n["region"] for t in d["threads"] for n in t["nodes"]}))' many.prof)
[ "$nreg" -gt 10 ] || fail "many.prof has only $nreg regions"
thr_rows() { "$REPORT" --threads "$@" many.prof | awk '/^Top regions/ {p=1; getline; next} p && NF' | wc -l; }
expect_eq "threads default rows" 10 "$(thr_rows)"
expect_eq "threads --top 0 rows" "$nreg" "$(thr_rows --top 0)"
expect_eq "threads --top 3 rows" 3 "$(thr_rows --top 3)"

"$REPORT" --loops "$D/loops.yaml" > loops.txt || fail "loops exit $?"
cat loops.txt
expect_eq "loop rows" "900us 90.0% 100us 1 10 10.0 loops.c:16|in main; trips: 10:1|800us 80.0% 300us 10 10000 1000.0 loops.c:18|in main; trips: 512-1023:10" \
	"$(awk 'NR>5' loops.txt | xargs -L1 | paste -sd'|')"
"$REPORT" --loops "$D/simple.yaml" > l2.txt
expect_eq "simple loop" "8.00s 57.1% 3.00s 6 140 23.3 a.c:30|in compute; trips: 10:4 16-31:1 64-127:1" "$(awk 'NR>5' l2.txt | xargs -L1 | paste -sd'|')"
"$REPORT" --loops "$D/simple-r1.yaml" > l3.txt
grep -q '^(no loop regions in the profile)$' l3.txt || fail "no-loops note"

for f in tree.txt thr.txt loops.txt; do
	awk 'length > 80 { exit 1 }' $f || fail "$f wider than 80 columns"
done
echo ok
