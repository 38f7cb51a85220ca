#!/bin/bash
# SPDX-License-Identifier: MIT
# selinst-report's default flat view and its JSON on a hand-written profile
# whose totals are worked out by hand (testsuite/report-data/README).
. "$(dirname "$0")/lib.sh"
D=$T/report-data
[ -x "$REPORT" ] || fail "no $REPORT"

"$REPORT" "$D/simple.yaml" > flat.txt || fail "flat view exit $?"
cat flat.txt
# Sorted by exclusive time; ties by name.  leaf: 3+2 s excl, 40+100 calls.
expect_eq "header" "Flat profile: 1 process, 2 threads, 14.000 s total" "$(head -1 flat.txt)"
expect_eq "row order" "leaf a.c:30 rec compute main" "$(awk 'NR>3 {printf "%s%s", sep, $NF; sep=" "}' flat.txt)"
expect_eq "leaf row" "5.000 5.000 35.7% 140 35.7ms func leaf" "$(grep ' leaf$' flat.txt | xargs)"
# rec recurses (rec > rec): inclusive counts the outer interval once.
expect_eq "rec row" "3.000 3.000 21.4% 5 600ms func rec" "$(grep ' rec$' flat.txt | xargs)"
expect_eq "loop row" "3.000 8.000 21.4% 6 1.33s loop a.c:30" "$(grep ' a.c:30$' flat.txt | xargs)"
awk 'length > 80 { exit 1 }' flat.txt || fail "flat view wider than 80 columns"

"$REPORT" --top 2 "$D/simple.yaml" > top.txt
expect_eq "--top 2 rows" 2 "$(awk 'NR>3' top.txt | wc -l)"
"$REPORT" --filter '^(main|rec)$' "$D/simple.yaml" > filt.txt
expect_eq "--filter rows" "rec main" "$(awk 'NR>3 {printf "%s%s", sep, $NF; sep=" "}' filt.txt)"

"$REPORT" --format=json "$D/simple.yaml" > p.json || fail "json exit $?"
expect_eq format selinst-report "$(jget p.json 'd["format"]')"
expect_eq version 1 "$(jget p.json 'd["version"]')"
expect_eq processes 1 "$(jget p.json 'd["processes"]')"
expect_eq threads 2 "$(jget p.json 'd["threads"]')"
expect_eq total 14.0 "$(jget p.json 'd["total_seconds"]')"
expect_eq names "['leaf', 'a.c:30', 'rec', 'compute', 'main']" "$(jget p.json '[r["name"] for r in d["regions"]]')"
expect_eq compute "('function', 'a.c', 20, 6, 10.0, 2.0, 2)" \
	"$(jget p.json '[(r["kind"], r["file"], r["line"], r["calls"], r["inclusive_seconds"], r["exclusive_seconds"], r["threads"]) for r in d["regions"] if r["name"] == "compute"][0]')"
expect_eq loop "('loop', 'compute', 6, 140, {'10': 4, '16-31': 1, '64-127': 1}, 8.0, 3.0)" \
	"$(jget p.json '[(r["kind"], r["function"], r["entries"], r["iterations"], r["trip_counts"], r["inclusive_seconds"], r["exclusive_seconds"]) for r in d["regions"] if r["name"] == "a.c:30"][0]')"
expect_eq "no loop keys on functions" False "$(jget p.json '"entries" in d["regions"][0]')"
# Sum of exclusive = total.
expect_eq "sum excl" 14.0 "$(jget p.json 'round(sum(r["exclusive_seconds"] for r in d["regions"]), 9)')"
"$REPORT" --format=json --top 1 "$D/simple.yaml" > t1.json
expect_eq "json --top" 1 "$(jget t1.json 'len(d["regions"])')"
echo ok
