#!/bin/bash
# SPDX-License-Identifier: MIT
# --diff BASE NEW and the CI gate --fail-above PCT: exit 1 only when a
# region with >= 1% of BASE's total exclusive time got slower by more than
# PCT percent.
. "$(dirname "$0")/lib.sh"
[ -x "$REPORT" ] || fail "no $REPORT"

# mk FILE MAIN_NS WORK_NS TINY_NS: main > work, main > tiny (exclusive times)
mk() {
	cat > "$1" <<EOP
format: selinst-profile
version: 1
program: ./app
pid: 1
rank: ~
regions:
  - {id: 0, name: main, kind: function, file: m.c, line: 1}
  - {id: 1, name: work, kind: function, file: m.c, line: 5}
  - {id: 2, name: tiny, kind: function, file: m.c, line: 9}
threads:
  - index: 0
    tid: 1
    nodes:
      - {id: 1, parent: 0, region: 0, calls: 1, inclusive_ns: $(( $2 + $3 + $4 )), exclusive_ns: $2}
      - {id: 2, parent: 1, region: 1, calls: 10, inclusive_ns: $3, exclusive_ns: $3}
      - {id: 3, parent: 1, region: 2, calls: 5, inclusive_ns: $4, exclusive_ns: $4}
end: true
EOP
}
# base: main 1 s, work 9 s, tiny 0.05 s (0.5% of the total, below the 1% floor)
mk base.prof 1000000000 9000000000 50000000
mk same.prof 1000000000 9000000000 50000000
mk work10.prof 1000000000 9900000000 50000000     # work +10%
mk tiny3x.prof 1000000000 9000000000 150000000    # tiny +200%, but < 1% of base
mk faster.prof 500000000 4500000000 50000000      # everything faster

gate() { "$REPORT" --diff "$1" "$2" --fail-above "$3" > out.txt; echo $?; }
expect_eq "same, 0%" 0 "$(gate base.prof same.prof 0)"
expect_eq "work +10%, limit 5" 1 "$(gate base.prof work10.prof 5)"
grep -q '^FAIL: work: 9.000 s -> 9.900 s (+10.0%), more than 5% slower$' out.txt || { cat out.txt; fail "no FAIL line"; }
expect_eq "work +10%, limit 10 (not more than)" 0 "$(gate base.prof work10.prof 10)"
expect_eq "work +10%, limit 15" 0 "$(gate base.prof work10.prof 15)"
expect_eq "tiny region below 1% floor" 0 "$(gate base.prof tiny3x.prof 5)"
expect_eq "faster" 0 "$(gate base.prof faster.prof 1)"
expect_eq "reversed: slower everywhere" 1 "$(gate faster.prof base.prof 50)"

# The table without the gate: exit 0, rows sorted by absolute change.
"$REPORT" --diff base.prof work10.prof > d.txt || fail "diff exit $?"
cat d.txt
expect_eq "first row" "9.000 9.900 +0.900 +10.0% 89.6% work" "$(sed -n 4p d.txt | xargs)"
expect_eq "header" "Exclusive time: base.prof (10.050 s) -> work10.prof (10.950 s), total +9.0%" "$(head -1 d.txt)"

# A tripped gate is still a valid report: -o FILE gets it (exit 1).
echo old > gate.txt
"$REPORT" --diff base.prof work10.prof --fail-above 5 -o gate.txt > out.txt
expect_eq "-o with the gate tripped: exit" 1 $?
[ ! -s out.txt ] || fail "-o: diff went to stdout"
grep -q '^FAIL: work: ' gate.txt || { cat gate.txt; fail "-o: no FAIL line in FILE"; }
expect_eq "-o: diff header" "$(head -1 d.txt)" "$(head -1 gate.txt)"
expect_eq "-o: no temporary file" "gate.txt" "$(ls gate.txt*)"

# Long file names are cut with '+' to keep the header in 80 columns, the
# room shared between the two names; --wide prints them whole.
long=ci-artifacts/nightly-build-with-a-long-name/profiles
mkdir -p $long
cp base.prof $long/baseline-of-the-reference-run.prof
cp work10.prof $long/candidate-of-this-change.prof
"$REPORT" --diff $long/baseline-of-the-reference-run.prof $long/candidate-of-this-change.prof > long.txt || fail "long: exit $?"
awk 'length > 80 { exit 1 }' long.txt || { head -1 long.txt; fail "diff wider than 80 columns"; }
awk 'length > 80 { exit 1 }' d.txt || { head -1 d.txt; fail "diff of short names wider than 80 columns"; }
expect_eq "long header" "Exclusive time: ci-artifact+ (10.050 s) -> ci-artifacts+ (10.950 s), total +9.0%" "$(head -1 long.txt)"
"$REPORT" --diff base.prof $long/candidate-of-this-change.prof > long2.txt
expect_eq "one long name takes the room the short one leaves" \
	"Exclusive time: base.prof (10.050 s) -> ci-artifacts/ni+ (10.950 s), total +9.0%" "$(head -1 long2.txt)"
"$REPORT" --wide --diff base.prof $long/candidate-of-this-change.prof > wide.txt
expect_eq "--wide header" "Exclusive time: base.prof (10.050 s) -> $long/candidate-of-this-change.prof (10.950 s), total +9.0%" "$(head -1 wide.txt)"

# New and vanished regions.
sed 's/name: tiny/name: other/' base.prof > renamed.prof
"$REPORT" --diff base.prof renamed.prof > r.txt || fail "exit $?"
grep -q ' new .* other$' r.txt || fail "no 'new' row"
grep -q ' gone .* tiny$' r.txt || fail "no 'gone' row"

# Bad input in a diff is exit 2, not 1.
"$REPORT" --diff base.prof missing.prof --fail-above 5 > /dev/null 2> err.txt
expect_eq "missing NEW exit" 2 $?
expect_eq "missing NEW msg" "selinst-report: missing.prof: cannot open: No such file or directory" "$(cat err.txt)"
"$REPORT" --fail-above 5 base.prof > /dev/null 2>&1
expect_eq "--fail-above without --diff" 2 $?
echo ok
