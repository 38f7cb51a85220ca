#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# predict-terms.py - a feedback build's predicted instructions, term by
# term (include/selinst-predict.h), against what it measured: for each
# PROJECT-VARIANT of bench/feedback-real.sh's results (RES), the kept
# regions' calls, function calls, loop iterations and call-tree nodes,
# from the first run's profiles (what the plugin predicted from), from
# the feedback build's own native run and from its callgrind run (the
# median one, whose instructions were measured: a program whose threads
# poll runs its polls as often as the threads' timing makes it, and
# valgrind runs one thread at a time), times the header's constants,
# beside the measured instructions over plain, the write, and the
# measured run split by bench/callgrind_funcs.py (runtime, loader and
# libc, the program's own functions; "without a gain": the measured
# overhead less the program's functions' net loss against plain, if any,
# which hooks, adding instructions, cannot cause and code generation
# did; what is left is at least the runtime's and the loader's).  The regions the model did
# not choose are not in the decision files' kept set, so the terms are
# what the build instruments.
#   python3 bench/predict-terms.py RES zstd-fb0 lz4-fb ...
import os, re, sys, yaml
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind_funcs  # noqa: E402
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
hdr = open(os.path.join(ROOT, "include", "selinst-predict.h")).read()
C = {m.group(1): float(m.group(2)) for m in
     re.finditer(r"#define SELINST_PREDICT_(\w+)\s+([0-9.]+)", hdr)}

def num(path):
    try:
        return int(open(path).read().split()[0])
    except (OSError, IndexError, ValueError):
        return None

def kept(dec):
    out = set()
    for d in yaml.load_all(open(dec), Loader=Loader):
        for k in ("functions", "loops"):
            for r in (d or {}).get(k) or []:
                if r.get("instrument"):
                    out.add((r["name"], os.path.basename(r.get("file") or "") if k == "functions" else None))
    return out

def counts(profs, keep):
    """calls, function calls, iterations, nodes (those of loops), nodes
    with the dropped regions merged, regions-table entries and their name
    bytes, processes"""
    t = dict(calls=0, fcalls=0, iters=0, nodes=0, loop_nodes=0, nodes_kept=0,
             loop_nodes_kept=0, entries=0, name_bytes=0, procs=0)
    for p in profs:
        d = yaml.load(open(p), Loader=Loader)
        t["procs"] += 1
        regs = {r["id"]: r for r in d.get("regions") or []}
        def key(r):
            return (r["name"], os.path.basename(r.get("file") or "") if r.get("kind") == "function" else None)
        for r in regs.values():
            if key(r) in keep:
                t["entries"] += 1
                t["name_bytes"] += len(r["name"]) + len(r.get("file") or "") + len(r.get("function") or "")
        for th in d.get("threads") or []:
            nodes = {n["id"]: n for n in th.get("nodes") or []}
            ctx = set()
            for n in nodes.values():
                r = regs.get(n["region"])
                if r is None or key(r) not in keep:
                    continue
                loop = r.get("kind") == "loop"
                t["calls"] += n.get("calls", 0)
                if r.get("kind") == "function":
                    t["fcalls"] += n.get("calls", 0)
                t["iters"] += n.get("iterations", 0) or 0
                t["nodes"] += 1
                t["loop_nodes"] += loop
                # the node's context with dropped regions left out
                path, q = [key(r)], nodes.get(n.get("parent"))
                while q is not None:
                    rq = regs.get(q["region"])
                    if rq is not None and key(rq) in keep:
                        path.append(key(rq))
                    q = nodes.get(q.get("parent"))
                if tuple(path) not in ctx:
                    ctx.add(tuple(path))
                    t["nodes_kept"] += 1
                    t["loop_nodes_kept"] += loop
    return t

def terms(t):
    fn_nodes = t["nodes_kept"] - t["loop_nodes_kept"]
    return dict(pairs=t["calls"] * C["PAIR_INSNS"], ool=t["fcalls"] * C["OUT_OF_LINE_INSNS"],
                iters=t["iters"] * C["ITER_INSNS"],
                write=fn_nodes * C["NODE_INSNS"] + t["loop_nodes_kept"] * C["LOOP_NODE_INSNS"]
                + t["entries"] * C["ENTRY_INSNS"] + t["name_bytes"] * C["ENTRY_BYTE_INSNS"],
                procs=t["procs"] * C["PROCESS_INSNS"])

def cg_files(res, pv):
    """The median callgrind outputs of PROJECT-VARIANT, in command order."""
    out, i = [], 1
    while os.path.exists(os.path.join(res, "%s.cg%d" % (pv, i))):
        out.append(os.path.join(res, "%s.cg%d" % (pv, i)))
        i += 1
    return out

res = sys.argv[1]
for pv in sys.argv[2:]:
    p, v = pv.rsplit("-", 1)
    keep = kept(os.path.join(res, pv + ".dec"))
    first = os.path.join(res, "%s-%s.first" % (p, "fb0" if v == "fb0b" else v))
    plain, ir, wr = (num(os.path.join(res, "%s-%s.%s" % (p, a, b)))
                     for a, b in (("plain", "ir"), (v, "ir"), (v, "write")))
    print("== %s: %d regions kept; measured %+d instructions (%+.2f%%), write %d"
          % (pv, len(keep), ir - plain, 100.0 * (ir - plain) / plain, wr or 0))
    # the measured run's split (callgrind_funcs.py): the hooks only add
    # instructions, so the program's own functions running fewer than in
    # plain, all together, is code generation's gain
    base, own_cg = cg_files(res, p + "-plain"), cg_files(res, pv)
    hooks = None
    if base and len(base) == len(own_cg):
        over, run, sysl, grown, shrunk = callgrind_funcs.split(base, own_cg)
        hooks = over - min(grown + shrunk, 0)
        print("  measured  over=%d runtime=%d loader+libc=%d program=%+d (functions grown %d, "
              "shrunk %d)  without a gain: %d (%.2f%%)"
              % (over, run, sysl, grown + shrunk, grown, shrunk, hooks, 100.0 * hooks / plain))
    lists = [("first run", first), ("own run", os.path.join(res, pv + ".profs")),
             ("cg run", os.path.join(res, pv + ".cgprofs"))]
    for what, lst in lists:
        if not os.path.exists(lst):
            continue
        profs = open(lst).read().split()
        t = counts(profs, keep)
        tm = terms(t)
        n = sum(tm.values())
        ratios = "ratio %s" % ("%.2f" % (n / (ir - plain)) if ir > plain else "-")
        if hooks:
            ratios += ", without a gain %.2f" % (n / hooks)
        print("  %-9s %s" % (what, " ".join("%s=%d" % kv for kv in t.items())))
        print("  %-9s %s total=%d (%.2f%%) %s" % ("", " ".join("%s=%d" % kv for kv in tm.items()),
              n, 100.0 * n / plain, ratios))
