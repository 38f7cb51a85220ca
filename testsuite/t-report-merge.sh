#!/bin/bash
# SPDX-License-Identifier: MIT
# Several files (ranks) merge into one view: sums, per-process min/mean/max,
# and the order of the files does not change any output.
. "$(dirname "$0")/lib.sh"
D=$T/report-data
[ -x "$REPORT" ] || fail "no $REPORT"

"$REPORT" --format=json "$D/simple.yaml" "$D/simple-r1.yaml" > m.json || fail "merge exit $?"
expect_eq processes 2 "$(jget m.json 'd["processes"]')"
expect_eq threads 3 "$(jget m.json 'd["threads"]')"
expect_eq total 22.0 "$(jget m.json 'd["total_seconds"]')"
r() { jget m.json "[r for r in d['regions'] if r['name'] == '$1'][0]$2"; }
expect_eq "main calls" 2 "$(r main '["calls"]')"
expect_eq "leaf calls" 150 "$(r leaf '["calls"]')"
expect_eq "compute calls/incl/excl" "(10, 16.0, 5.0)" "$(jget m.json "[(r['calls'], r['inclusive_seconds'], r['exclusive_seconds']) for r in d['regions'] if r['name'] == 'compute'][0]")"
expect_eq "leaf per-process" "{'min': 3.0, 'mean': 4.0, 'max': 5.0}" "$(r leaf '["per_process"]["exclusive_seconds"]')"
# The loop ran only on rank 0: rank 1 counts as 0 for min.
expect_eq "loop per-process" "{'min': 0.0, 'mean': 1.5, 'max': 3.0}" "$(r a.c:30 '["per_process"]["exclusive_seconds"]')"
expect_eq "loop processes" 1 "$(r a.c:30 '["processes"]')"
expect_eq "main incl per-process" "{'min': 8.0, 'mean': 9.0, 'max': 10.0}" "$(r main '["per_process"]["inclusive_seconds"]')"

# Order independence, for every view and format.
for args in "" "--tree" "--threads" "--loops" "--format=json" "--format=folded" \
	    "--format=dot" "--format=callgrind" "--format=chrome" "--format=svg"; do
	"$REPORT" $args "$D/simple.yaml" "$D/simple-r1.yaml" "$D/loops.yaml" > a.out || fail "$args exit $?"
	"$REPORT" $args "$D/loops.yaml" "$D/simple-r1.yaml" "$D/simple.yaml" > b.out || fail "$args exit $?"
	# File names are listed in JSON's "files" in sorted order, so all equal.
	cmp -s a.out b.out || { diff a.out b.out | head; fail "output of '$args' depends on file order"; }
done

# The same file twice doubles every count and time.
"$REPORT" --format=json "$D/simple.yaml" "$D/simple.yaml" > twice.json
expect_eq "twice total" 28.0 "$(jget twice.json 'd["total_seconds"]')"
expect_eq "twice leaf calls" 280 "$(jget twice.json '[r["calls"] for r in d["regions"] if r["name"] == "leaf"][0]')"

# Text view of the merge shows min/mean/max per process.
"$REPORT" "$D/simple.yaml" "$D/simple-r1.yaml" > m.txt
grep -q '^Per process (2)' m.txt || fail "no per-process table"
expect_eq "leaf per-process row" "3.000 4.000 5.000 1.25 2 leaf" "$(awk '/^Per process/ {p=1} p && $NF == "leaf"' m.txt | xargs)"
awk 'length > 80 { exit 1 }' m.txt || fail "wider than 80 columns"

# Generated ranks: 8 files of a shared shape merge to the sum of the parts.
for i in 0 1 2 3 4 5 6 7; do
	python3 "$D/gen-profile.py" --paths 300 --threads 2 --rank $i --size 8 --seed $i -o r$i.prof
done
"$REPORT" --format=json r*.prof > g.json || fail "generated merge exit $?"
sum=0
for i in 0 1 2 3 4 5 6 7; do
	"$REPORT" --format=json r$i.prof > one.json
	sum=$(python3 -c "import json; print($sum + sum(r['calls'] for r in json.load(open('one.json'))['regions']))")
done
expect_eq "generated calls sum" "$sum" "$(jget g.json 'sum(r["calls"] for r in d["regions"])')"
expect_eq "generated threads" 16 "$(jget g.json 'd["threads"]')"
# The per-process table follows --top like the flat table: all rows by
# default and with --top 0 (more than 20 here), N with --top N.
nreg=$(jget g.json 'len(d["regions"])')
[ "$nreg" -gt 20 ] || fail "want more than 20 regions, have $nreg"
pp_rows() { awk '/^Per process/ {p=1; getline; next} p && NF' "$1" | wc -l; }
for top in "" "--top 0"; do
	"$REPORT" $top r*.prof > g.txt || fail "text merge $top: exit $?"
	expect_eq "per-process rows ($top)" "$nreg" "$(pp_rows g.txt)"
	expect_eq "flat rows ($top)" "$nreg" "$(awk 'NR>3 && /^$/ {exit} NR>3' g.txt | wc -l)"
done
"$REPORT" --top 25 r*.prof > g25.txt
expect_eq "per-process rows (--top 25)" 25 "$(pp_rows g25.txt)"
"$REPORT" --top 3 r*.prof > g3.txt
expect_eq "per-process rows (--top 3)" 3 "$(pp_rows g3.txt)"
ls r*.prof | sort -r | xargs "$REPORT" --format=json > g2.json
expect_eq "generated regions order-free" "$(jget g.json '[(r["name"], r["calls"], r["exclusive_seconds"]) for r in d["regions"]]')" \
	"$(jget g2.json '[(r["name"], r["calls"], r["exclusive_seconds"]) for r in d["regions"]]')"
echo ok
