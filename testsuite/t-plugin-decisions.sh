#!/bin/bash
# SPDX-License-Identifier: MIT
# The paper's decisions on a program shaped like NAS BT and FT, the same at
# every -O level, and a well-formed decision file.
. "$(dirname "$0")/lib.sh"
src=$SELINST_ROOT/examples/bt_shape.c
for O in -O0 -O1 -O2 -O3 -Os; do
	gcc $O -fchecking -fplugin=$PLUGIN -fplugin-arg-selinst-decisions=d$O.yaml \
		-c "$src" -o bt$O.o || fail "compile at $O"
	# The paper's formula alone decides BT/FT the same (issue 10).
	gcc $O -fchecking -fplugin=$PLUGIN -fplugin-arg-selinst-model=paper \
		-fplugin-arg-selinst-decisions=paper$O.yaml -c "$src" -o /dev/null ||
		fail "compile model=paper at $O"
done
python3 - <<'PY' || fail "decisions"
import yaml, sys
levels = ["-O0", "-O1", "-O2", "-O3", "-Os"]
docs = {O: list(yaml.safe_load_all(open("d%s.yaml" % O))) for O in levels}
ok = True
def bad(msg):
    global ok; ok = False; print(msg)
for O, d in docs.items():
    if len(d) != 1: bad("%s: %d documents" % (O, len(d)))
d = docs["-O2"][0]
if d["threshold"] != 204800: bad("threshold %r" % d["threshold"])
keys = ["name", "file", "line", "basic_blocks", "statements", "call_sites", "weight",
        "loop_depth", "loop_score", "instrumented_call_sites", "callsite_score",
        "score", "instrument", "reason"]
fns = {f["name"]: f for f in d["functions"]}
for f in d["functions"]:
    for k in keys:
        if k not in f: bad("%s lacks %s" % (f.get("name"), k))
    if f["score"] != f["weight"] + f["loop_score"] + f["callsite_score"]:
        bad("%s: score is not the sum of its parts" % f["name"])
    if f["weight"] != 5 * f["basic_blocks"] + f["statements"] + f["call_sites"]:
        bad("%s: weight formula" % f["name"])
    if f["loop_score"] != (100 - f["loop_depth"]) * 2048:
        bad("%s: loop score" % f["name"])
    if f["callsite_score"] != f["instrumented_call_sites"] * 2048 ** 2:
        bad("%s: callsite score" % f["name"])
    if f["instrument"] != (f["score"] >= 204800):
        bad("%s: decision vs score" % f["name"])
expect = {"matvec_sub": (False, 3), "matmul_sub": (False, 3), "binvcrhs": (False, 3),
          "binvrhs": (False, 3), "lhsinit": (False, 3), "exact_solution": (False, 4),
          "x_solve": (True, 0), "y_solve": (True, 0), "z_solve": (True, 0),
          "adi": (True, 1), "main": (True, 0), "ftz2": (False, 3), "cffz": (False, 1),
          "compute_rhs": (True, 0), "initialize": (True, 0)}
for name, (inst, depth) in expect.items():
    f = fns.get(name)
    if f is None: bad("missing %s" % name); continue
    if f["instrument"] != inst: bad("%s: instrument=%s" % (name, f["instrument"]))
    if f["loop_depth"] != depth: bad("%s: depth %s, expected %s" % (name, f["loop_depth"], depth))
# The rule: cffz's only callee is not instrumented, so no callsite score;
# adi's four callees are, so four sites.
if fns["cffz"]["instrumented_call_sites"] != 0: bad("cffz sites")
if fns["adi"]["instrumented_call_sites"] != 4: bad("adi sites %r" % fns["adi"]["instrumented_call_sites"])
if fns["x_solve"]["instrumented_call_sites"] != 0: bad("x_solve sites")
if fns["main"]["called_in_view"] is not False: bad("main called in view")
# Same decisions (and metrics) at every level.
def table(doc):
    return [(f["name"], f["instrument"], f["score"]) for f in doc["functions"]]
for O in levels:
    if table(docs[O][0]) != table(d):
        bad("%s differs from -O2: %s" % (O, set(table(docs[O][0])) ^ set(table(d))))
    paper = yaml.safe_load(open("paper%s.yaml" % O))
    if paper["model"] != "paper" or docs[O][0]["model"] != "default":
        bad("%s: model names in the decision files" % O)
    if table(paper) != table(d):
        bad("model=paper %s differs from the default: %s" % (O, set(table(paper)) ^ set(table(d))))
sys.exit(0 if ok else 1)
PY
# Unselected functions are free to inline; selected ones stay out of line.
nm bt-O2.o | grep -q ' x_solve$' || fail "x_solve not emitted"
gcc -O2 -c "$src" -o plain.o || fail "plain compile"
for f in matvec_sub matmul_sub binvcrhs binvrhs lhsinit exact_solution ftz2 cffz; do
	in_plain=$(nm plain.o | grep -c " $f\$")
	in_si=$(nm bt-O2.o | grep -c " $f\$")
	[ "$in_plain" = "$in_si" ] || fail "$f: out of line $in_si times with the plugin, $in_plain without"
done
# The verbose table is Table 1's layout.
gcc -O2 -fplugin=$PLUGIN -fplugin-arg-selinst-verbose -c "$src" -o /dev/null 2>table.txt
grep -q 'Loop Score (level)' table.txt || fail "no verbose table"
grep -E '^adi +14 +202752\(1\) +16777216\(4\) +16979982 +yes' table.txt || { cat table.txt; fail "adi row"; }
exit 0
