#!/bin/bash
# SPDX-License-Identifier: MIT
# Report (issue 11 N): recursion folded through different paths counts
# each instant once in every view.  testsuite/programs/fold_paths.c:
# main -> A(1) -> P(1) -> A(0) -> {P(0) -> spin, E -> P(0) -> spin},
# A(1) -> E -> P(0) -> spin (threshold 0, loops off).  Before: the flat
# view gave P 0.99 s in a 0.74 s run and A's children in the tree summed
# to 0.99 s under A's 0.74 s.  Checked: every region's inclusive time <=
# the total (flat, JSON) and every node's children <= the node (tree).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 missing"
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loops=off \
	"$T/programs/fold_paths.c" -o fp || fail "compile"
SELINST_OUTPUT=$WORK/fp.prof ./fp || fail "run"
"$REPORT" --format=json fp.prof > flat.json || fail "report --format=json"
python3 - flat.json <<'PY' || fail "flat view"
import json, sys
d = json.load(open(sys.argv[1]))
total = d["total_seconds"]
calls = {r["name"]: r["calls"] for r in d["regions"]}
assert (calls["A"], calls["P"], calls["E"], calls["spin"]) == (2, 4, 2, 3), calls
for r in d["regions"]:
    assert r["inclusive_seconds"] <= total * (1 + 1e-9), "%s: inclusive %.6f s above the total %.6f s" % (r["name"], r["inclusive_seconds"], total)
PY
"$REPORT" --tree --prune 0 fp.prof > tree.txt || fail "report --tree"
python3 - tree.txt <<'PY' || { cat tree.txt; fail "tree view"; }
import re, sys
rows = []
for line in open(sys.argv[1]):
    m = re.match(r"^\s*([\d.]+)\s+[\d.]+%\s+([\d.]+)\s+(\d+) ( *)(\S.*)$", line)
    if m:
        rows.append((len(m.group(4)) // 2, float(m.group(1)), m.group(5)))
assert len(rows) >= 6, rows
# children of each row: the following rows one level deeper, up to the
# next row at its own level or above (times printed to the millisecond)
for i, (depth, incl, name) in enumerate(rows):
    kids = 0.0
    for d2, inc2, _ in rows[i + 1:]:
        if d2 <= depth:
            break
        if d2 == depth + 1:
            kids += inc2
    assert kids <= incl + 0.002, "%s: children %.3f s under its %.3f s" % (name, kids, incl)
PY
exit 0
