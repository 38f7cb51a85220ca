#!/bin/bash
# SPDX-License-Identifier: MIT
# Refinements indirect-context and conditional-pull (issue 10, SQLite's
# per-row regions): a function called through a pointer from a helper
# that runs once per row below a region takes the helper's context depth
# (and so does what it calls), though a direct call outside loops also
# names it; a function at depth 1 whose chosen callees run on some paths
# only, and its loop, are not pulled in; a function calling two on every
# path still is (the paper's adi); a callback whose address a call receives
# keeps its own depth.  The same decisions at -O0 to -Os,
# output equal to the plain build, the profile without those regions;
# model=paper and threshold 0 keep them.
. "$(dirname "$0")/lib.sh"
# Every call counted: the counts below are exact (the default throttle's
# early rule stops a region of under 200 ns a call at 1,001 calls).
export SELINST_THROTTLE=off
src=$T/programs/model_per_row.c
gcc -O2 -Wno-attributes "$src" -o plain && ./plain 4000 > plain.txt || fail "plain build"
for O in -O0 -O1 -O2 -O3 -Os; do
	si_cc $O -fplugin-arg-selinst-decisions=d$O.yaml "$src" -o p$O || fail "compile $O"
	SELINST_OUTPUT=d$O.prof ./p$O 4000 > out.txt || fail "run $O"
	cmp -s out.txt plain.txt || fail "$O: output differs from the plain build"
done
si_cc -O2 -fplugin-arg-selinst-model=paper -fplugin-arg-selinst-decisions=paper.yaml "$src" -o pp ||
	fail "compile paper"
SELINST_OUTPUT=paper.prof ./pp 4000 > out.txt && cmp -s out.txt plain.txt || fail "paper output"
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=t0.yaml "$src" -o pt ||
	fail "compile threshold 0"
python3 - <<'PY' || fail "decisions"
import sys, yaml
errors = []
bad = errors.append
def load(path):
    d = yaml.safe_load(open(path))
    return {f["name"]: f for f in d["functions"]}, {l["function"]: l for l in d["loops"]}
ref = None
for O in ["-O0", "-O1", "-O2", "-O3", "-Os"]:
    f, l = load("d%s.yaml" % O)
    row = sorted((n, x["instrument"], x["reason"], x["context_depth"]) for n, x in f.items())
    row += sorted((n, x["instrument"], x["reason"]) for n, x in l.items())
    if ref is not None and row != ref: bad("%s differs from -O0: %s" % (O, set(row) ^ set(ref)))
    ref = ref or row
    # indirect-context: the getters and the cache run at row_step's depth.
    if f["page_get_mapped"]["instrument"]: bad("%s: page_get_mapped chosen" % O)
    for n in ["page_get", "cache_fetch"]:
        x = f[n]
        if x["instrument"] or "indirect-context" not in x["reason"] or x["context_depth"] != 1:
            bad("%s %s: %r" % (O, n, x))
    if f["page_get"].get("pointer_call_depth") != 0 or not f["page_get"]["called_in_view"]:
        bad("%s page_get: %r" % (O, f["page_get"]))
    # ... but not a callback handed to a call (load_chunk, to run_task).
    x = f["load_chunk"]
    if not x["instrument"] or x["context_depth"] != 0 or x.get("pointer_call_depth") != 0:
        bad("%s load_chunk: %r" % (O, x))
    if f["run_task"]["context_depth"] != 1: bad("%s run_task: %r" % (O, f["run_task"]))
    # conditional-pull: rebalance and its loop.
    x = f["rebalance"]
    if x["instrument"] or "conditional-pull" not in x["reason"] or x["instrumented_call_sites"] != 3:
        bad("%s rebalance: %r" % (O, x))
    x = l["rebalance"]
    if x["instrument"] or "conditional-pull" not in x["reason"]:
        bad("%s rebalance's loop: %r" % (O, x))
    for n in ["run_rows", "step_all", "main", "split_quick"]:
        if not f[n]["instrument"]: bad("%s: %s left out: %r" % (O, n, f[n]))
    if f["row_step"]["instrument"]: bad("%s: row_step chosen" % O)
for path in ["paper.yaml", "t0.yaml"]:
    f, l = load(path)
    for n in ["page_get", "cache_fetch", "rebalance"]:
        if not f[n]["instrument"]: bad("%s: %s left out" % (path, n))
    if not l["rebalance"]["instrument"]: bad("%s: rebalance's loop left out" % path)
print("\n".join(errors))
sys.exit(1 if errors else 0)
PY
calls() { "$REPORT" --format=json "$1" > r.json || fail "report $1"
	jget r.json "sum(r['calls'] for r in d['regions'] if r['name']=='$2')"; }
loop=$(python3 -c 'import yaml; print([l["name"] for l in yaml.safe_load(open("d-O2.yaml"))["loops"] if l["function"] == "rebalance"][0])')
for r in page_get cache_fetch rebalance $loop; do
	expect_eq "default: $r calls" 0 "$(calls d-O2.prof $r)"
done
expect_eq "paper: rebalance's loop calls" 4000 "$(calls paper.prof $loop)"
expect_eq "paper: page_get calls" 4000 "$(calls paper.prof page_get)"
expect_eq "paper: rebalance calls" 4000 "$(calls paper.prof rebalance)"
expect_eq "default: step_all calls" 8 "$(calls d-O2.prof step_all)"
expect_eq "default: load_chunk calls" 1 "$(calls d-O2.prof load_chunk)"
expect_eq "default: split_quick calls" "$(calls paper.prof split_quick)" "$(calls d-O2.prof split_quick)"
exit 0
