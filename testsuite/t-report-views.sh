#!/bin/bash
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
expect_eq "t0" "t0 4242 10.000 71.4%" "$(grep '^t0 ' thr.txt | xargs)"
expect_eq "t1" "t1 4243 4.000 28.6%" "$(grep '^t1 ' thr.txt | xargs)"
# leaf: 3 s on t0, 2 s on t1: mean 2.5, imbalance 3/2.5 = 1.20
expect_eq "leaf imbalance" "2 2.000 2.500 3.000 1.20 leaf" "$(awk '/^Top regions/ {p=1} /^Exclusive seconds by/ {p=0} p && $NF == "leaf"' thr.txt | xargs)"
expect_eq "leaf by thread" "3.000 2.000 leaf" "$(awk '/^Exclusive seconds by thread/ {p=1} p && $NF == "leaf"' thr.txt | xargs)"
expect_eq "rec by thread" "3.000 - rec" "$(awk '/^Exclusive seconds by thread/ {p=1} p && $NF == "rec"' thr.txt | xargs)"
"$REPORT" --threads "$D/simple.yaml" "$D/simple-r1.yaml" > thr2.txt
grep -q '^r1.t0 ' thr2.txt || fail "rank-qualified thread names missing"

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
