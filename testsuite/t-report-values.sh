#!/bin/bash
# SPDX-License-Identifier: MIT
# The reader takes every value the runtime can write and refuses what
# YAML forbids (issue 11, J and K): 64-bit counts up to 2^64 - 1 and the
# top trip-count bucket "9223372036854775808-18446744073709551615" are
# read exactly; 2^64 is too large; a key given twice in one mapping is an
# error naming the file and the line of the second one.
. "$(dirname "$0")/lib.sh"
D=$T/report-data
[ -x "$REPORT" ] || fail "no $REPORT"

# J: the largest values.
for v in 18446744073709551610 18446744073709551615; do
	sed "s/calls: 10, inclusive_ns: 800000/calls: $v, inclusive_ns: 800000/" "$D/loops.yaml" > big.prof
	"$REPORT" --format=json big.prof > out.json 2> err.txt || fail "calls $v refused: $(cat err.txt)"
	expect_eq "calls $v" "$v" "$(jget out.json '[r["calls"] for r in d["regions"] if r["name"] == "loops.c:18"][0]')"
done
sed 's/trip_counts: {"512-1023": 10}/trip_counts: {"512-1023": 9, "9223372036854775808-18446744073709551615": 1}/' \
	"$D/loops.yaml" > bucket.prof
"$REPORT" --format=json bucket.prof > out.json 2> err.txt || fail "top bucket refused: $(cat err.txt)"
expect_eq "top bucket" 1 "$(jget out.json '[r["trip_counts"].get("9223372036854775808-18446744073709551615") for r in d["regions"] if r["name"] == "loops.c:18"][0]')"
sed 's/calls: 10, inclusive_ns: 800000/calls: 18446744073709551616, inclusive_ns: 800000/' "$D/loops.yaml" > over.prof
"$REPORT" over.prof > /dev/null 2> err.txt && fail "2^64 accepted"
expect_eq "2^64" "selinst-report: over.prof:26: 'calls' is too large" "$(cat err.txt)"

# K: duplicate keys, in a block mapping and in a flow mapping.
sed 's/^end: true$/end: true\nend: false/' "$D/loops.yaml" > dup.prof
"$REPORT" dup.prof > out.txt 2> err.txt; rc=$?
expect_eq "duplicate end: status" 2 $rc
expect_eq "duplicate end" "selinst-report: dup.prof:30: duplicate key 'end' (first at line 29)" "$(cat err.txt)"
[ -s out.txt ] && fail "duplicate end: wrote a report"
sed 's/{id: 3, parent: 2, region: 2, calls: 10,/{id: 3, parent: 2, region: 2, calls: 10, calls: 11,/' \
	"$D/loops.yaml" > dup2.prof
"$REPORT" dup2.prof > /dev/null 2> err.txt && fail "duplicate calls accepted"
expect_eq "duplicate calls" "selinst-report: dup2.prof:26: duplicate key 'calls' (first at line 26)" "$(cat err.txt)"
exit 0
