#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The throttle dial's table for bench/throttle-dial.sh.

usage: throttle-table.py RESDIR SELINST-REPORT "PROJECTS" "VARIANTS"

Per project and SELINST_THROTTLE setting (variant default-thrCALLS-NS or
default-throff, bench/real-projects.sh): instructions over plain
(callgrind, all the workload's processes), without the profile's writing,
the largest exclusive share of one region and the top 5 functions by
inclusive time (CPU-time samples of all native runs, as
real-projects-table.py counts them), how many of those 5 are among
threshold 0's top 5 and their ranks there, and the regions switched off
in the first native run (union over its processes) with the latest
switch's time.  Then the markdown table of bench/README.md.
"""
import glob
import importlib.util
import os
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("rpt", os.path.join(HERE, "real-projects-table.py"))
rpt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rpt)
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def sampled(res, report, name):
    """Regions of NAME's first run with sample counts of all its runs."""
    every = rpt.runs(res, name)
    first = rpt.profile(report, every[0]) if every else None
    return rpt.by_samples(first, rpt.cpu_samples(every)) if first else None


def switched_off(paths):
    """(regions switched off, latest switch in seconds) in the profiles
    PATHS (one run of the workload)."""
    names, latest = set(), 0.0
    for path in paths:
        try:
            with open(path) as f:
                doc = yaml.load(f, Loader=Loader)
        except (OSError, yaml.YAMLError):
            continue
        for r in doc.get("regions") or []:
            t = r.get("throttled")
            if t:
                names.add((r["kind"], r["name"]))
                latest = max(latest, float(t.get("seconds") or 0))
    return len(names), latest


def runs_of(res, name):
    """The profiles of the first native run and of the callgrind run
    (prof-cg/, with CALLGRIND_NS_SCALE; empty without)."""
    every = rpt.runs(res, name)
    first = every[0] if every else []
    build = os.path.dirname(os.path.dirname(os.path.dirname(first[0]))) if first else ""
    cg = sorted(glob.glob(os.path.join(build, "prof-cg", "*.prof"))) if build else []
    return first, cg


def setting(v):
    tail = v.split("-thr", 1)[1] if "-thr" in v else "default"
    return tail.replace("-", ":") if tail != "default" else "(default)"


def main():
    res, report, projects, variants = sys.argv[1:5]
    rows = []
    for p in projects.split():
        base = rpt.ir(res, p + "-plain")
        full = rpt.top(sampled(res, report, p + "-t0") or [], 10 ** 6)
        rank = {r["name"]: i + 1 for i, r in enumerate(full)}
        print("\n%s (threshold 0's top 5: %s)" % (p, ", ".join(r["name"] for r in full[:5])))
        print("  %-14s %9s %9s %26s %5s %7s %7s  %s" % ("SELINST_THROTTLE", "vs plain", "w/o write",
              "largest exclusive share", "top5", "off/cg", "last s", "top 5 (rank at threshold 0)"))
        for v in variants.split():
            name = "%s-%s" % (p, v)
            regs = sampled(res, report, name)
            total, write = rpt.ir(res, name), rpt.ir(res, name, ".write")
            share, who = rpt.max_exclusive_share(regs) if regs else (None, None)
            top5 = [r["name"] for r in rpt.top(regs, 5)] if regs else []
            agree = sum(1 for n in top5 if rank.get(n, 99) <= 5)
            native, cg = runs_of(res, name)
            off, last = switched_off(native)
            cg_off = switched_off(cg)[0] if cg else None
            over = rpt.pct(total, base)
            print("  %-14s %9s %9s %26s %5s %7s %7.3f  %s" % (
                setting(v), over, rpt.pct(total - write, base) if total and write else "-",
                "%.0f%% %s" % (100 * share, rpt.short(who, 20)) if share is not None else "-",
                "%d/5" % agree, "%d/%s" % (off, "-" if cg_off is None else cg_off), last,
                ", ".join("%s #%s" % (rpt.short(n, 22), rank.get(n, "-")) for n in top5)))
            rows.append((p, setting(v), over, share, who, agree, off, cg_off))
        t0 = sampled(res, report, p + "-t0")
        s0, w0 = rpt.max_exclusive_share(t0) if t0 else (None, None)
        print("  %-14s %9s %9s %26s" % ("threshold 0", rpt.pct(rpt.ir(res, p + "-t0"), base), "",
              "%.0f%% %s" % (100 * s0, rpt.short(w0, 20)) if s0 is not None else "-"))
    print("\n| project | SELINST_THROTTLE | instructions over plain | largest exclusive share "
          "| top 5 in threshold 0's top 5 | regions switched off, native (callgrind) |")
    print("|---|---|---:|---|---:|---:|")
    for p, s, over, share, who, agree, off, cg_off in rows:
        print("| %s | %s | %s | %s | %d/5 | %d%s |" % (
            p, s, over, "%.0f%% `%s`" % (100 * share, who) if share is not None else "-", agree, off,
            "" if cg_off is None else " (%d)" % cg_off))


if __name__ == "__main__":
    main()
