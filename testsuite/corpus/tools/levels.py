#!/usr/bin/env python3
"""levels.py DIR_A DIR_B [counts|decisions] [REPORT] [metrics]: one corpus
program built at two -O levels (threshold 0).  Checks that the decision
files list the same functions and loops under the same names and choose
the same ones, and that no chosen loop was lost at insertion; with
"metrics", that each function and loop has the same metrics there
(blocks, statements, call sites, loop depth, nest, top_tested, score);
with "counts", that the two profiles count the same calls, entries and
iterations per region, but for regions the throttle switched off in
either (SELINST_THROTTLE's default switches a region of under 200 ns a
call off at its 1,001st call: whether one is depends on the level's
speed) and for sampled functions (kind "sampled": estimates from
CPU-time samples, which differ run by run).  Functions from system headers (and
their loops) are left out: which of them the compiler emits depends on
the level, and they are never instrumented.  Prints one line per
difference; exit status 1 if there is any."""
import json, subprocess, sys, yaml

FUNCTION_METRICS = ("basic_blocks", "statements", "call_sites", "loop_depth", "score")
LOOP_METRICS = ("nest", "top_tested", "basic_blocks", "statements", "call_sites", "score")

def decisions(d):
    doc = yaml.safe_load(open(d + "/decisions.yaml"))
    fns, loops, lost, metrics = {}, {}, [], {}
    for f in doc.get("functions") or []:
        # always_inline ones from system headers give that reason first
        if f["reason"] == "defined in a system header" or f["file"].startswith("/usr/"):
            continue
        key = (f["name"], f["line"])
        fns[key] = fns.get(key, False) or f["instrument"]
        metrics[("function",) + key] = tuple(f.get(m) for m in FUNCTION_METRICS)
    for l in doc.get("loops") or []:
        if l["file"].startswith("/usr/"):
            continue
        if "not found again" in l["reason"]:
            lost.append(l["name"])
        loops[(l["function"], l["name"])] = l["instrument"]
        metrics[("loop", l["function"], l["name"])] = tuple(l.get(m) for m in LOOP_METRICS)
    return fns, loops, lost, metrics

def counts(d, report):
    """Calls, entries and iterations per region, and the regions switched
    off."""
    out = subprocess.run([report, "--format=json", d + "/x.prof"], capture_output=True,
                         text=True, check=True).stdout
    regions = [r for r in json.loads(out)["regions"]
               if not r["file"].startswith("/usr/") and r["kind"] != "sampled"]
    return ({(r["kind"], r["name"]): (r["calls"], r.get("entries"), r.get("iterations"))
             for r in regions},
            {(r["kind"], r["name"]) for r in regions if "throttled" in r})

def diff(what, a, b, out):
    for k in sorted(set(a) | set(b), key=str):
        if a.get(k) != b.get(k):
            out.append("%s %s: %s vs %s" % (what, k, a.get(k), b.get(k)))

def main():
    a, b = sys.argv[1], sys.argv[2]
    problems = []
    da, db = decisions(a), decisions(b)
    diff("function", da[0], db[0], problems)
    diff("loop", da[1], db[1], problems)
    for d, lost in ((a, da[2]), (b, db[2])):
        for name in lost:
            problems.append("loop %s lost at insertion in %s" % (name, d))
    if "metrics" in sys.argv[3:]:
        diff("metrics", da[3], db[3], problems)
    if len(sys.argv) > 4 and sys.argv[3] == "counts":
        (ca, ta), (cb, tb) = counts(a, sys.argv[4]), counts(b, sys.argv[4])
        for k in ta | tb:
            ca.pop(k, None)
            cb.pop(k, None)
        diff("counts", ca, cb, problems)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)

main()
