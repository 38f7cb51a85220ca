#!/bin/bash
# SPDX-License-Identifier: MIT
# feedback-real.sh - profile feedback (issue 13 point 2) on the real
# projects of bench/real-projects.sh: the default and threshold 0 builds
# run the workload (every process writes a profile), then each is rebuilt
# with -fplugin-arg-selinst-profile= all of its profiles and budget=BUDGET
# (variants fb and fb0; fb0b: fb0 again with profile-base= fb0's own
# profiles, the run's length from a light run), and run with
# SELINST_THROTTLE=off.  Prints per
# project and feedback build: the first build's instructions over plain
# ("measured first": default for fb, t0 for fb0 and fb0b), regions
# dropped/added (decision files),
# the instructions over plain (callgrind, all processes), the same less
# the runtime writing the profile at exit, the plugin's predicted
# overhead (predicted_kept + the units' predicted_added less their
# predicted_not_chosen, feedback summary
# of the decision files; it counts the start-up and the write), the same
# in instructions (predicted_kept_instructions + the units'
# predicted_added_instructions over plain's instructions), and each
# predicted / measured.  "pair in run": the first run's hook pair measured
# in situ (hook_pair_in_run_ns; the first run is sampled: FIRST_SAMPLE).
# "program": the build's instructions in the program's own functions over
# plain's (the median callgrind runs, bench/callgrind_funcs.py); "ratio
# w/o gain": predicted instructions over the measured overhead less the
# program's net gain, if any (code generation: hooks only add
# instructions; bench/README.md, "zstd's 3x").
#   WORK=/tmp/me REALSRC=/tmp/real-sel/src bash bench/feedback-real.sh
# Variables: those of real-projects.sh (PROJECTS, WORK, REALSRC, REUSE,
# BUDGET); PROJECTS defaults to all seven; VARIANTS is "plain default fb
# t0 fb0 fb0b" (order matters: each feedback variant after its first
# build; the table shows the fb variants named) and DIAL is empty.
# TABLE_ONLY=1 prints the table from $WORK/res without running anything.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${WORK:-/tmp/selinst-real}
PROJECTS=${PROJECTS:-lz4 cjson lua zstd yaml-cpp sqlite libxml2}
VARIANTS=${VARIANTS:-plain default fb t0 fb0 fb0b}
export WORK PROJECTS VARIANTS
[ -n "${TABLE_ONLY:-}" ] || DIAL='' bash "$ROOT/bench/real-projects.sh" >&2
python3 - "$WORK/res" "$PROJECTS" "$VARIANTS" "$ROOT/bench" <<'PY'
import os, sys, yaml
sys.path.insert(0, sys.argv[4])
import callgrind_funcs
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
res, projects = sys.argv[1], sys.argv[2].split()
fb_variants = [v for v in ("fb", "fb0", "fb0b") if v in sys.argv[3].split()]

def num(path):
    try:
        return int(open(path).read().split()[0])
    except (OSError, IndexError, ValueError):
        return None

def summary(name):
    """(dropped, added, predicted %) over the build's decision files."""
    try:
        docs = [d for d in yaml.load_all(open(os.path.join(res, name + ".dec")), Loader=Loader) if d]
    except OSError:
        return None
    fbs = [d["feedback"] for d in docs if d.get("feedback")]
    if not fbs:
        return None
    drop = sorted({(r["name"], r.get("file")) for d in docs
                   for k in ("functions", "loops") for r in d.get(k) or []
                   if str(r.get("reason", "")).startswith("dropped")})
    add = sorted({(r["name"], r.get("file")) for d in docs
                  for k in ("functions", "loops") for r in d.get(k) or []
                  if "added: in bottleneck" in str(r.get("reason", ""))})
    # predicted_kept is global (every unit agrees), additions and what the
    # model did not choose of it are per unit
    pred = fbs[0]["predicted_kept"] + sum(f["predicted_added"] - f.get("predicted_not_chosen", 0)
                                          for f in fbs)
    insns = fbs[0].get("predicted_kept_instructions", 0) + sum(
        f.get("predicted_added_instructions", 0) - f.get("predicted_not_chosen_instructions", 0)
        for f in fbs)
    return len(drop), len(add), pred, fbs[0]["predicted_all"], insns, fbs[0].get("hook_pair_in_run_ns")

def program_net(p, v):
    """The program's own functions' instructions over plain's (None: no
    callgrind outputs kept)."""
    base = [os.path.join(res, "%s-plain.cg%d" % (p, i)) for i in range(1, 100)]
    base = [f for f in base if os.path.exists(f)]
    own = [os.path.join(res, "%s-%s.cg%d" % (p, v, i)) for i in range(1, len(base) + 1)]
    if not base or not all(os.path.exists(f) for f in own):
        return None
    s = callgrind_funcs.split(base, own)
    return s[3] + s[4]

print("project\tbuild\tmeasured first\tdropped/added\tpair in run\tpred first\tpred feedback\tpred instr\tmeasured\tmeasured less write\tratio\tratio instr\tprogram\tratio w/o gain")
for p in projects:
    plain = num(os.path.join(res, p + "-plain.ir"))
    for v in fb_variants:
        s = summary(p + "-" + v)
        ir, wr = num(os.path.join(res, "%s-%s.ir" % (p, v))), num(os.path.join(res, "%s-%s.write" % (p, v)))
        if not s or not ir or not plain:
            print("%s\t%s\t(missing)" % (p, v))
            continue
        m = 100.0 * (ir / plain - 1)
        ml = 100.0 * ((ir - (wr or 0)) / plain - 1)
        pi = 100.0 * s[4] / plain
        ratio = "%.2f" % (s[2] / m) if m > 0 and s[2] > 0 else "-"
        ratio_i = "%.2f" % (pi / m) if m > 0 and pi > 0 else "-"
        # the first build's own overhead (default for fb, t0 for fb0 and fb0b)
        fir = num(os.path.join(res, "%s-%s.ir" % (p, "default" if v == "fb" else "t0")))
        first = "%+.2f%%" % (100.0 * (fir / plain - 1)) if fir else "-"
        net = program_net(p, v)
        hooks = ir - plain - min(net or 0, 0)
        ratio_g = "%.2f" % (s[4] / hooks) if net is not None and hooks > 0 and s[4] > 0 else "-"
        print("%s\t%s\t%s\t%d/%d\t%s\t%.2f%%\t%.2f%%\t%.2f%%\t%+.2f%%\t%+.2f%%\t%s\t%s\t%s\t%s"
              % (p, v, first, s[0], s[1], s[5], s[3], s[2], pi, m, ml, ratio, ratio_i,
                 "-" if net is None else "%+d" % net, ratio_g))
PY
