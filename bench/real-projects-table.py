#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tables for bench/real-projects.sh from its result folder.

usage: real-projects-table.py RESDIR SELINST-REPORT "PROJECTS" "VARIANTS" DIAL_PROJECT "DIAL"

Per project and selection: functions instrumented / total (unique symbols
over all decision files of the build), instructions (callgrind, all
processes of the workload) and their excess over the plain build, with
and without the runtime writing the profile at exit (a fixed cost per
process that grows with the profile, not with the calls made), the
largest share of exclusive time one region holds (the median over the
native runs, NATIVE_RUNS), the top regions by inclusive time (the first
run).  Then the default's top regions beside threshold 0's, and
the threshold dial.
"""
import json
import os
import subprocess
import sys

import yaml

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def functions(res, name):
    """(instrumented, total) unique symbols in the build's decision files."""
    text = read(os.path.join(res, name + ".dec"))
    if not text:
        return None
    chosen, seen = set(), set()
    for doc in yaml.load_all(text, Loader=Loader):
        for f in (doc or {}).get("functions") or []:
            seen.add(f["symbol"])
            if f["instrument"]:
                chosen.add(f["symbol"])
    return len(chosen), len(seen)


def runs(res, name):
    """The profile files of each native run: one line a run in .runs
    (NATIVE_RUNS), else the one run of .profs (one file a line)."""
    text = read(os.path.join(res, name + ".runs"))
    if text:
        return [line.split() for line in text.splitlines() if line.split()]
    profs = (read(os.path.join(res, name + ".profs")) or "").split()
    return [profs] if profs else []


def profile(report, profs):
    """Regions of the merged profile of one native run, or None."""
    if not profs:
        return None
    out = subprocess.run([report, "--format=json", "--prune", "0"] + profs,
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None
    return json.loads(out.stdout)["regions"]


def median_share(shares):
    """The median run's (share, region) of the largest exclusive shares
    (the lower middle one of an even count), and all the shares."""
    got = sorted((s for s in shares if s[0] is not None), key=lambda s: s[0])
    if not got:
        return None, None, []
    return got[(len(got) - 1) // 2] + ([s[0] for s in got],)


def top(regions, n):
    funcs = [r for r in regions if r["kind"] == "function"]
    funcs.sort(key=lambda r: -r["inclusive_seconds"])
    return funcs[:n]


def max_exclusive_share(regions):
    total = sum(r["exclusive_seconds"] for r in regions)
    if not regions or total <= 0:
        return None, None
    big = max(regions, key=lambda r: r["exclusive_seconds"])
    return big["exclusive_seconds"] / total, big["name"]


def short(name, width=34):
    return name if len(name) <= width else name[:width - 3] + "..."


def ir(res, name, ext=".ir"):
    v = read(os.path.join(res, name + ext))
    return int(v) if v and v.strip().isdigit() and int(v) > 0 else None


def pct(x, base):
    return "%+.1f%%" % (100.0 * (x - base) / base) if x and base else "-"


def project_table(res, report, p, variants):
    base = ir(res, p + "-plain")
    print("\n%s" % p)
    print("  %-8s %18s %14s %10s %11s %26s  %s" % ("variant", "instrumented/total",
          "instructions", "vs plain", "w/o write", "max exclusive share",
          "top regions by inclusive time"))
    profiles, spread = {}, {}
    for v in variants:
        name = "%s-%s" % (p, v)
        fc = functions(res, name)
        every = [profile(report, f) for f in runs(res, name)] if v != "plain" else []
        regs = every[0] if every else None
        profiles[v] = regs
        share, who, shares = median_share([max_exclusive_share(g) for g in every if g])
        if len(shares) > 1:
            spread[v] = shares
        tops = ", ".join(short(r["name"], 24) for r in top(regs, 3)) if regs else ""
        total, write = ir(res, name), ir(res, name, ".write")
        print("  %-8s %18s %14s %10s %11s %26s  %s" % (
            v, "%d/%d" % fc if fc else "-", total or "-",
            pct(total, base) if v != "plain" else "",
            pct(total - write, base) if total and write and v != "plain" else "",
            "%.0f%% %s" % (100 * share, short(who, 20)) if share is not None else "-",
            tops))
    for v, shares in spread.items():
        print("  %s: largest exclusive share in each of %d native runs: %s (median shown)"
              % (v, len(shares), ", ".join("%.0f%%" % (100 * x) for x in shares)))
    if profiles.get("default") is not None and profiles.get("t0") is not None:
        full = top(profiles["t0"], 10 ** 6)
        rank = {r["name"]: i + 1 for i, r in enumerate(full)}
        print("  top 6 by inclusive time: default | threshold 0 (rank at threshold 0 of the default's)")
        d6, f6 = top(profiles["default"], 6), full[:6]
        for i in range(max(len(d6), len(f6))):
            left = "%-36s %5s" % (short(d6[i]["name"]), "#%s" % rank.get(d6[i]["name"], "-")) if i < len(d6) else " " * 42
            right = short(f6[i]["name"]) if i < len(f6) else ""
            print("    %s | %s" % (left, right))


def main():
    res, report, projects, variants, dial_project, dial = sys.argv[1:7]
    print("Real projects: functions instrumented, instructions (callgrind) over plain,")
    print("largest exclusive share of one region (median of the native runs), top regions")
    for p in projects.split():
        project_table(res, report, p, variants.split())
    if dial.split():
        p = dial_project
        base = ir(res, p + "-plain")
        print("\nThreshold dial on %s (default model)" % p)
        print("  %10s %18s %10s" % ("threshold", "instrumented/total", "vs plain"))
        for t in dial.split():
            name = "%s-t%s" % (p, t)
            fc = functions(res, name)
            print("  %10s %18s %10s" % (t, "%d/%d" % fc if fc else "-", pct(ir(res, name), base)))
        fc = functions(res, p + "-default")
        if fc:
            print("  %10s %18s %10s" % ("default", "%d/%d" % fc, pct(ir(res, p + "-default"), base)))


if __name__ == "__main__":
    main()
