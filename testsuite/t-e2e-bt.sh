#!/bin/bash
# SPDX-License-Identifier: MIT
# End to end: the BT/FT-shaped example compiled with the plugin at the
# default threshold, linked with libselinst, run; the profile holds exactly
# the chosen regions with exact call counts, and the report shows them.
. "$(dirname "$0")/lib.sh"
[ -f "$SELINST_BUILD/libselinst.so" ] || fail "runtime not built"
si_cc -O2 -fplugin-arg-selinst-decisions=bt.yaml "$SELINST_ROOT/examples/bt_shape.c" -o bt || fail "compile"
./bt 7 > out.txt || fail "run"
gcc -O2 "$SELINST_ROOT/examples/bt_shape.c" -o plain && ./plain 7 > plain.txt
cmp -s out.txt plain.txt || fail "output differs from the plain build"
[ -f bt.prof ] || fail "no bt.prof written in the working directory: $(ls)"
python3 - <<'PY' || fail "profile"
import yaml
p = yaml.safe_load(open("bt.prof"))
d = yaml.safe_load(open("bt.yaml"))
assert p["format"] == "selinst-profile" and p["version"] == 3, (p.get("format"), p.get("version"))
regions = {r["id"]: r for r in p["regions"]}
chosen = {f["name"] for f in d["functions"] if f["instrument"]}
chosen_loops = {l["name"] for l in d["loops"] if l["instrument"]}
names = {r["name"] for r in regions.values() if r["kind"] == "function"}
assert names == chosen, (names, chosen)
loop_names = {r["name"] for r in regions.values() if r["kind"] == "loop"}
assert loop_names <= chosen_loops, (loop_names, chosen_loops)
calls = {}
for t in p["threads"]:
    for n in t["nodes"]:
        r = regions[n["region"]]
        calls[r["name"]] = calls.get(r["name"], 0) + n["calls"]
        assert n["exclusive_ns"] <= n["inclusive_ns"], n
expect = {"main": 1, "initialize": 1, "adi": 7, "compute_rhs": 7, "x_solve": 7, "y_solve": 7, "z_solve": 7}
for k, v in expect.items():
    assert calls.get(k) == v, (k, calls.get(k), v)
for leaf in ["matvec_sub", "matmul_sub", "binvcrhs", "binvrhs", "lhsinit", "exact_solution", "ftz2", "cffz"]:
    assert leaf not in calls, leaf
PY
"$REPORT" bt.prof > report.txt || fail "report exit $?"
for f in main adi x_solve y_solve z_solve; do grep -qw "$f" report.txt || fail "report lacks $f: $(cat report.txt)"; done
grep -qw matvec_sub report.txt && fail "report shows an uninstrumented leaf"
"$REPORT" --format=json bt.prof > r.json || fail "json"
expect_eq "json adi calls" 7 "$(jget r.json '[r["calls"] for r in d["regions"] if r["name"]=="adi"][0]')"
exit 0
