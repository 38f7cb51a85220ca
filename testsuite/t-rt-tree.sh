#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime: calling-context trees: one function under two callers is two
# nodes, recursion (direct and mutual) is folded with exact call counts and
# inclusive times that never count an interval twice, COMDAT-style duplicate
# descriptors merge, manual regions, snapshot; OpenMP pool threads counted.
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
rtcc basic "$RT/basic.c"
./basic || fail "run"
pcheck basic.prof '
leaf = nodes("leaf")
paths = sorted(path(t, n) for t, n in leaf)
assert paths == [("main", "a", "leaf"), ("main", "b", "leaf"), ("main", "even", "leaf"), ("main", "rec", "leaf")], paths
assert len([r for r in p["regions"] if r["name"] == "leaf"]) == 1   # two descriptors, one region
d = {path(t, n): n for t, n in leaf}
assert d[("main", "a", "leaf")]["calls"] == 6                        # both copies, one node
(t, rec), = nodes("rec")
assert rec["calls"] == 101 and path(t, rec) == ("main", "rec")        # direct recursion: one node
assert rec["inclusive_ns"] >= d[("main", "rec", "leaf")]["inclusive_ns"]
assert rec["inclusive_ns"] < 1e9
(t, ev), = nodes("even")
(t, od), = nodes("odd")
assert ev["calls"] == 26 and od["calls"] == 25                       # mutual recursion folded
assert path(t, od) == ("main", "even", "odd")
assert od["inclusive_ns"] <= ev["inclusive_ns"]
(t, m), = nodes("main")
kids = [n for n in t["nodes"] if n["parent"] == m["id"]]
assert m["exclusive_ns"] == m["inclusive_ns"] - sum(k["inclusive_ns"] for k in kids)
(t, ph), = nodes("phase1")
assert regions[ph["region"]]["kind"] == "manual" and 1e6 <= ph["inclusive_ns"] < 1e9
'
pcheck snap.prof 'assert p["complete"] is False and calls("rec") == 101'

if gcc -fopenmp -E -x c /dev/null >/dev/null 2>&1; then
	rtcc omp "$RT/omp.c" -fopenmp
	OMP_WAIT_POLICY=passive ./omp || fail "omp run"
	pcheck omp.prof '
assert calls("work") == 200000, calls("work")
per = sorted(sum(n["calls"] for n in t["nodes"] if regions[n["region"]]["name"] == "work") for t in p["threads"])
assert per == [50000] * 4, per
'
fi
exit 0
