#!/bin/bash
# SPDX-License-Identifier: MIT
# Samples in uninstrumented loops of an instrumented function (issue 14,
# point 1): the plugin gives the function's descriptor the source lines
# of its loops that get no hooks (SELINST_REGION_LOOP_TABLE), the profile
# gives them as the function region's loop_lines and each sampled address
# (its file address in the module, profile version 2), and selinst-report
# looks it up in the program's DWARF line table (libdw) and names the
# innermost such loop the line lies in: a `~loop file:LINE` sampled region.
# At -O2, two inner loops with no hooks do 3:1 work inside the hooked
# outer loop of work(): their shares must be 75% and 25% within 6 points.
# (A pass of an inner loop takes microseconds, far below the kernel's
# tick on which CPU timers fire: which loop a signal lands in is random,
# so the share's error is binomial over the signals, about 600 here, 1.8
# points of standard deviation: 6 points is over 3 of them.)
# And a function inlined into a hooked loop is named as itself.
. "$(dirname "$0")/lib.sh"
cat >loops.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
static double a[4096];
__attribute__((noinline)) double work(int n)
{
	double s = 0;
	for (int k = 0; k < n; k++) {
		for (int i = 0; i < 3072; i++)	/* line 8: three parts */
			s += a[i] * 1.0000001 + s * 1e-9;
		for (int i = 0; i < 1024; i++)	/* line 10: one part */
			s -= a[i] * 0.9999999 + s * 1e-9;
	}
	return s;
}
static inline __attribute__((always_inline)) double mix(double s, int i)
{
	return s + a[i & 4095] * 1.0000001 + s * 1e-9;
}
__attribute__((noinline)) double work2(int n)
{
	double s = 0;
	for (int k = 0; k < n; k++)
		s = mix(s, k);
	return s;
}
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 240000;
	for (int i = 0; i < 4096; i++)
		a[i] = i * 0.001;
	printf("%g %g\n", work(n), work2(n * 256));
	return 0;
}
EOF
si_cc -O2 -g -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=204800 \
	-fplugin-arg-selinst-decisions=d.yaml loops.c -o loops || fail "compile"
python3 - d.yaml <<'PY' || fail "decisions: the outer loop hooked, the inner ones not"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
loops = {l["name"]: l["instrument"] for l in d["loops"] if l["function"] == "work"}
assert {k: v for k, v in loops.items()} == {"loops.c:7": True, "loops.c:8": False, "loops.c:10": False}, loops
PY
SELINST_SAMPLE=1000 ./loops >/dev/null 2>err.txt || fail "run: $(cat err.txt)"
[ -s err.txt ] && fail "stderr: $(cat err.txt)"
"$REPORT" --format=folded loops.prof >folded.txt || fail "folded"
sampled_paths loops.prof >paths.txt || fail "the report's tree"
python3 - loops.prof paths.txt "$T/rt" <<'PY' || fail "samples not named by loop: $(grep samples: loops.prof; cat paths.txt)"
import os, sys, yaml
sys.path.insert(0, sys.argv[3])
from sampled import named, tree_path, node_samples
p = yaml.safe_load(open(sys.argv[1]))
by = named(sys.argv[2])
assert p["version"] == 3, p["version"]
regions = {r["id"]: r for r in p["regions"]}
(work,) = [r for r in regions.values() if r["name"] == "work"]
assert sorted(work["loop_lines"].split()) == ["10-11", "8-9"], work
(mod,) = p["sample_modules"]
assert os.path.samefile(mod["path"], "loops") and len(mod["build_id"]) == 40, mod
(t,) = p["threads"]
(outer,) = [n for n in t["nodes"] if regions[n["region"]]["name"] == "loops.c:7"]
for x in outer["samples"]:
    assert x["module"] == 0, x
    assert sum(x["addresses"][1::2]) == x["count"], x
tot = node_samples(outer)
assert tot >= 300, tot
# all of them work's own code, as the report names them: its loops only
op = tree_path(p, t, outer)
kids = {k[len(op) + 1:]: v for k, v in by.items() if k.startswith(op + ";")}
assert kids and all(k.startswith("~loop loops.c:") for k in kids), (op, kids)
# An inlined function is named from the DWARF inline records: mix's code
# inlined into work2's loop is ~mix, not work2's own.
(wl,) = [n for n in t["nodes"] if regions[n["region"]].get("function") == "work2"]
mix = by.get(tree_path(p, t, wl) + ";~mix", 0)
assert mix >= 0.6 * node_samples(wl), (mix, node_samples(wl), by)
PY
# The loops' shares from the report's estimates (each loop's time: its
# samples' share of the node's).
loop_split folded.txt "main;work;loops.c:7" loops.c:8 loops.c:10 ||
	fail "loops' shares: $(cat folded.txt)"
"$REPORT" --tree loops.prof >tree.txt || fail "tree"
grep -Eq '^ +[0-9.]+ +[0-9.]+% +[0-9.]+ +[0-9]+ smp +~loop loops\.c:8$' tree.txt || fail "tree: no ~loop loops.c:8: $(cat tree.txt)"
"$REPORT" --format=json loops.prof >j.json || fail "json"
jget j.json '[(r["kind"], r["file"], r["line"]) for r in d["regions"] if r["name"] == "~loop loops.c:10"]' |
	grep -qx "\[('sampled', 'loops.c', 10)\]" || fail "json: ~loop loops.c:10: $(cat j.json)"
grep -Eq '^main;work;loops\.c:7;~loop loops\.c:8 [0-9]+$' folded.txt || fail "folded: $(cat folded.txt)"
SELINST_REPORT_LIBYAML=1 "$REPORT" --format=json loops.prof | cmp -s - j.json ||
	fail "the fast YAML path and libyaml differ"

# Version 2 (the runtime named the function, the report the loops) still
# reads: the outer loop's samples alone, as version 3 gives them and with
# version 2's function: work added, name the same loops with the same
# times (to a few ns: version 2 rounded each address's share down,
# version 3 each loop's).  (A function named otherwise there is the profile's, not the
# file's: ~other, with the loops under it.)
python3 - loops.prof <<'PY' || fail "version 2 copies"
import re, sys
text = open(sys.argv[1]).read()
lines = text.split("\n")
regions = {}
rid = None
for l in lines:
    m = re.match(r"- id: (\d+)$", l)
    if m:
        rid = m.group(1)
    m = re.match(r"  name: \"(.*)\"$", l)
    if m and rid is not None:
        regions[rid] = m.group(1)
def copy(version, fn):
    out = []
    for l in lines:
        m = re.match(r"(  - \{id: \d+, parent: \d+, region: (\d+),.*?)(, samples: \[.*\])?\}$", l)
        if m and m.group(3):
            if regions.get(m.group(2)) != "loops.c:7":
                l = m.group(1) + "}"
            elif fn:
                l = l.replace("{module: ", "{function: \"%s\", module: " % fn)
        if version and l.startswith("version: "):
            l = "version: %d" % version
        out.append(l)
    return "\n".join(out)
open("v3.prof", "w").write(copy(None, None))
open("v2.prof", "w").write(copy(2, "work"))
open("v2other.prof", "w").write(copy(2, "other"))
PY
"$REPORT" --format=folded v3.prof >v3.txt 2>err.txt && [ ! -s err.txt ] || fail "v3 copy: $(cat err.txt)"
"$REPORT" --format=folded v2.prof >v2.txt 2>err.txt && [ ! -s err.txt ] || fail "v2 copy: $(cat err.txt)"
grep -q '~loop loops\.c:8' v3.txt || fail "v3 copy: no loop: $(cat v3.txt)"
python3 - v3.txt v2.txt <<'PY' || fail "version 2 named otherwise: $(diff v3.txt v2.txt)"
import sys
a, b = ({l.rsplit(" ", 1)[0]: int(l.rsplit(" ", 1)[1]) for l in open(f)} for f in sys.argv[1:])
assert a.keys() == b.keys() and all(abs(a[k] - b[k]) <= 100 for k in a), (a, b)
PY
"$REPORT" --format=folded v2other.prof >v2o.txt || fail "v2 other"
grep -Eq '^main;work;loops\.c:7;~other;~loop loops\.c:8 [0-9]+$' v2o.txt || fail "v2 other: $(cat v2o.txt)"
exit 0
