#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tables for bench/real-projects.sh from its result folder.

usage: real-projects-table.py RESDIR SELINST-REPORT "PROJECTS" "VARIANTS" DIAL_PROJECT "DIAL"

Per project and selection: functions instrumented / total (unique symbols
over all decision files of the build), instructions (callgrind, all
processes of the workload) and their excess over the plain build, with
and without the runtime writing the profile at exit (a fixed cost per
process that grows with the profile, not with the calls made), the
largest share of exclusive time one region holds, the top regions by
inclusive time.  Then the default's top regions beside threshold 0's, a
markdown summary (bench/README.md's table), and the threshold dial.

The shares and the top regions come from the CPU-time samples
(SELINST_SAMPLE, the runtime's per-thread CPU-clock timer) of all native
runs (NATIVE_RUNS) added up, the same way for every variant: a region's
exclusive samples over all samples of all threads but those taken in the
hooks (outside every region included).  Elapsed time (the regions' own clock,
TSC) is not fit for it on the shared 2-core machine: the same cJSON run
took 22 to 98 ms in its regions, lz4's 0.28 to 1.76 s, as other processes
ran in between, and whichever region was running took the gap (one run's
largest share of cJSON's two half-and-half phases: 33% to 96% in one
batch of 15 runs).  Each
region's least elapsed time over 15 runs recovered cJSON's quiet figures
but not lz4's or Lua's (no run of 0.3 s was left alone), nor did the
median of each region.  The runs' own largest shares in elapsed time are
printed under the table.
"""
import bisect
import json
import os
import random
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
    chosen, seen, dropped = set(), set(), set()
    for doc in yaml.load_all(text, Loader=Loader):
        for f in (doc or {}).get("functions") or []:
            seen.add(f["symbol"])
            if f["instrument"]:
                chosen.add(f["symbol"])
        # An -flto link's document (variant lto): what it dropped.
        for f in (doc or {}).get("dropped") or []:
            dropped.add(f["symbol"])
    return len(chosen - dropped), len(seen)


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


def cpu_samples(runs_profs):
    """CPU-time samples (SELINST_SAMPLE) of every run, added up: per region
    (kind, name) the samples taken while it was the innermost region
    (exclusive) and while it was on the stack (inclusive, once per sample
    however often it recurs), and all samples of all threads but those
    taken in the hooks (samples_in_runtime: at threshold 0 a sixth to two
    fifths of them, no region's time); those outside every region count."""
    excl, incl, total = {}, {}, 0
    for doc, t in threads_of(runs_profs):
        names = {r["id"]: (r["kind"], r["name"]) for r in doc.get("regions") or []}
        total += (t.get("samples") or 0) - (t.get("samples_in_runtime") or 0)
        nodes = {n["id"]: n for n in t.get("nodes") or []}
        for n in nodes.values():
            count = sum(x["count"] for x in n.get("samples") or [])
            if not count:
                continue
            key = names.get(n["region"])
            excl[key] = excl.get(key, 0) + count
            seen, up = set(), n
            while up is not None:
                seen.add(names.get(up["region"]))
                up = nodes.get(up["parent"])
            for k in seen:
                incl[k] = incl.get(k, 0) + count
    return excl, incl, total


def threads_of(runs_profs):
    """(profile, thread) for every thread of every readable profile."""
    for profs in runs_profs:
        for path in profs:
            try:
                with open(path) as f:
                    doc = yaml.load(f, Loader=Loader)
            except (OSError, yaml.YAMLError):
                continue
            for t in doc.get("threads") or []:
                yield doc, t


def symbols(path, cache={}):
    """(sorted start addresses, ends, names) of PATH's function symbols
    (nm: .symtab, else .dynsym, with their sizes).  .cold parts count in
    their function."""
    if path not in cache:
        table = []
        for flags in (["-n"], ["-D", "-n"]):
            try:
                out = subprocess.run(["nm", "-S", "--defined-only"] + flags + [path],
                                     capture_output=True, text=True).stdout
            except OSError:
                out = ""
            for line in out.splitlines():
                f = line.split()
                if len(f) == 4 and f[2] in "TtWw":
                    start = int(f[0], 16)
                    table.append((start, start + int(f[1], 16), f[3].split(".cold")[0]))
            if table:
                break
        table.sort()
        cache[path] = tuple([e[i] for e in table] for i in range(3))
    return cache[path]


def symbol_at(modules, k, addr):
    """The function symbol of module K whose range holds file address
    ADDR, else [BASE] (a stripped library's internal code)."""
    path = modules[k]["path"] if k < len(modules) else "?"
    starts, ends, names = symbols(path)
    i = bisect.bisect_right(starts, addr) - 1
    return names[i] if i >= 0 and addr < ends[i] else "[%s]" % os.path.basename(path)


def function_samples(runs_profs):
    """CPU-time samples of every run by the function they were taken in,
    named by the module's symbol table (the function as compiled, with
    what GCC inlined into it, as a region would hold it; the report
    names the innermost inlined function instead, which splits a
    function's own code among its inlined callees), a library's samples
    in their caller where the handler found it (as in a region's
    exclusive time), and all samples but the hooks'.  Profile version 3
    (module and file address); versions 1 and 2 name the function.  The
    witness without hooks for the half rule (plainsmp: a plain build run
    with the runtime preloaded has no region, only samples)."""
    funcs, total = {}, 0
    for doc, t in threads_of(runs_profs):
        mods = doc.get("sample_modules") or []
        total += (t.get("samples") or 0) - (t.get("samples_in_runtime") or 0)
        for n in [{"samples": t.get("root_samples")}] + (t.get("nodes") or []):
            for x in n.get("samples") or []:
                if x.get("caller_at"):
                    name = symbol_at(mods, *x["caller_at"])
                elif "addresses" in x and "function" not in x:
                    a = x["addresses"]
                    for addr, count in zip(a[0::2], a[1::2]):
                        name = symbol_at(mods, x["module"], addr)
                        funcs[name] = funcs.get(name, 0) + count
                    continue
                else:
                    name = x.get("caller") or x.get("function") or "?"
                funcs[name] = funcs.get(name, 0) + x["count"]
    return funcs, total


def plain_witness(res, p, default_region):
    """(largest function's share, its name, the share of DEFAULT_REGION's
    function) in the plain build's samples, or None without them."""
    funcs, total = function_samples(runs(res, p + "-plainsmp"))
    named = {k: v for k, v in funcs.items() if not k.startswith("[")}
    if not total or not named:
        return None
    big = max(named, key=named.get)
    lib = sum(v for k, v in funcs.items() if k.startswith("["))
    # None: no sample names it (inlined in the plain build, or never run)
    own = funcs[default_region] / total if default_region in funcs else None
    return named[big] / total, big, own, lib / total


def own_share(x):
    return "%.0f%%" % (100 * x) if x is not None else "- (no sample names it: inlined?)"


def by_samples(regions, samples):
    """REGIONS (one run's, for their names and kinds) with seconds replaced
    by CPU-time sample counts added up over the runs: exclusive_seconds and
    inclusive_seconds then hold counts, all_samples the runs' total; the
    shares are of that total.  None without samples (SELINST_SAMPLE off)."""
    excl, incl, total = samples
    if not total:
        return None
    out = []
    for r in regions:
        key = (r["kind"], r["name"])
        out.append(dict(r, exclusive_seconds=excl.get(key, 0), inclusive_seconds=incl.get(key, 0),
                        all_samples=total))
    return out


def share_error(runs_profs, regions):
    """Sampling error of the largest exclusive share of the pooled runs:
    the standard deviation of that region's share over 2,000 resamples of
    the runs (with replacement, a fixed seed), in points of percent.  The
    runs are the units resampled, not the samples: one run's samples share
    its timing (a preemption, the cache), so they are not independent.
    None with fewer than 3 runs or without samples."""
    if len(runs_profs) < 3 or not regions or not regions[0].get("all_samples"):
        return None
    big = max(regions, key=lambda r: r["exclusive_seconds"])
    key = (big["kind"], big["name"])
    per_run = []
    for profs in runs_profs:
        excl, _, total = cpu_samples([profs])
        per_run.append((excl.get(key, 0), total))
    rng = random.Random(10)
    shares = []
    for _ in range(2000):
        pick = [per_run[rng.randrange(len(per_run))] for _ in per_run]
        total = sum(t for _, t in pick)
        if total:
            shares.append(sum(x for x, _ in pick) / total)
    if len(shares) < 2:
        return None
    mean = sum(shares) / len(shares)
    return 100 * (sum((x - mean) ** 2 for x in shares) / (len(shares) - 1)) ** 0.5


def top(regions, n):
    funcs = [r for r in regions if r["kind"] == "function"]
    funcs.sort(key=lambda r: -r["inclusive_seconds"])
    return funcs[:n]


def max_exclusive_share(regions):
    total = regions[0].get("all_samples") if regions else 0
    total = total or sum(r["exclusive_seconds"] for r in regions)
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
    profiles, spread, errors = {}, {}, {}
    plain_base = base
    for v in variants:
        if v in ("plainsmp", "plainlto"):
            continue
        # lto against plainlto (both -flto), when measured.
        base = ir(res, p + "-plainlto") if v == "lto" and ir(res, p + "-plainlto") else plain_base
        name = "%s-%s" % (p, v)
        fc = functions(res, name)
        every = [profile(report, f) for f in runs(res, name)] if v != "plain" else []
        every = [g for g in every if g]
        # Without samples (SELINST_SAMPLE=0, older results): the first
        # run's elapsed times.
        regs = (by_samples(every[0], cpu_samples(runs(res, name))) or every[0]) if every else None
        profiles[v] = regs
        share, who = max_exclusive_share(regs) if regs else (None, None)
        err = share_error(runs(res, name), regs) if share is not None else None
        if err is not None:
            errors[v] = (err, who, len(runs(res, name)))
        med, _, shares = median_share([max_exclusive_share(g) for g in every])
        if len(shares) > 1:
            spread[v] = (shares, med, regs[0].get("all_samples", 0) if regs else 0)
        SUMMARY.setdefault(p, {})[v] = (fc, total_of(res, name, base), share, who,
                                        [r["name"] for r in top(regs, 5)] if regs else [], err)
        tops = ", ".join(short(r["name"], 24) for r in top(regs, 3)) if regs else ""
        total, write = ir(res, name), ir(res, name, ".write")
        print("  %-8s %18s %14s %10s %11s %26s  %s" % (
            v, "%d/%d" % fc if fc else "-", total or "-",
            pct(total, base) if v != "plain" else "",
            pct(total - write, base) if total and write and v != "plain" else "",
            "%.0f%% %s" % (100 * share, short(who, 20)) if share is not None else "-",
            tops))
    for v, (shares, med, nsamples) in spread.items():
        shown = ("of the %d CPU-time samples of all runs (the hooks' left out)" % nsamples
                 if nsamples else "the first run's elapsed time (no samples)")
        print("  %s: largest exclusive share of elapsed time in each of %d native runs: %s"
              " (median %.0f%%); shown: %s"
              % (v, len(shares), ", ".join("%.0f%%" % (100 * x) for x in shares), 100 * med,
                 shown))
    for v, (err, who, n) in errors.items():
        print("  %s: sampling error of the largest share (%s): %.1f points"
              " (standard deviation over 2,000 resamples of the %d runs)" % (v, who, err, n))
    d = SUMMARY.get(p, {}).get("default")
    w = plain_witness(res, p, d[3] if d else None) if "plainsmp" in variants else None
    if w:
        WITNESS[p] = w
        print("  plain build sampled (no hooks): largest function %.0f%% %s; the default's"
              " largest region's function (%s) %s; in libraries, caller not found %.0f%%"
              % (100 * w[0], w[1], d[3] if d else "-", own_share(w[2]), 100 * w[3]))
    PROFILES_T0[p] = profiles.get("t0")
    if profiles.get("default") is not None and profiles.get("t0") is not None:
        full = top(profiles["t0"], 10 ** 6)
        rank = {r["name"]: i + 1 for i, r in enumerate(full)}
        print("  top 5 by inclusive time: default | threshold 0 (rank at threshold 0 of the default's)")
        d6, f6 = top(profiles["default"], 5), full[:5]
        for i in range(max(len(d6), len(f6))):
            left = "%-36s %5s" % (short(d6[i]["name"]), "#%s" % rank.get(d6[i]["name"], "-")) if i < len(d6) else " " * 42
            right = short(f6[i]["name"]) if i < len(f6) else ""
            print("    %s | %s" % (left, right))


SUMMARY = {}
WITNESS = {}


def total_of(res, name, base):
    total = ir(res, name)
    return pct(total, base) if total and not name.endswith("-plain") else ""


def markdown(projects):
    """bench/README.md's table: the default beside threshold 0."""
    print("\n| project | functions instrumented / total | instructions over plain "
          "| largest exclusive share ± sampling error in points, default (threshold 0) "
          "| top 5 by inclusive time, default (rank at threshold 0) | top 5 at threshold 0 |")
    print("|---|---|---:|---|---|---|")
    for p in projects:
        d, z = SUMMARY.get(p, {}).get("default"), SUMMARY.get(p, {}).get("t0")
        if not d or not z:
            continue
        full = [r["name"] for r in top(PROFILES_T0.get(p) or [], 10 ** 6)]
        rank = {n: i + 1 for i, n in enumerate(full)}
        share = lambda x: "%.0f%%%s `%s`" % (100 * x[2], " ±%.0f" % x[5] if x[5] is not None else "",
                                             x[3]) if x[2] is not None else "-"
        print("| %s | %s | %s | %s (%s) | %s | %s |" % (
            p, "%d / %d" % d[0] if d[0] else "-", d[1], share(d), share(z),
            ", ".join("`%s` #%s" % (n, rank.get(n, "-")) for n in d[4]),
            ", ".join("`%s`" % n for n in z[4])))
    if any(p in WITNESS for p in projects):
        print("\n| project | the default's largest region | its function's share, plain build"
              " sampled (no hooks) | largest function there | library samples without a caller |")
        print("|---|---|---:|---|---:|")
        for p in projects:
            d, w = SUMMARY.get(p, {}).get("default"), WITNESS.get(p)
            if d and w and d[2] is not None:
                print("| %s | `%s` %.0f%% | %s | `%s` %.0f%% | %.0f%% |"
                      % (p, d[3], 100 * d[2], own_share(w[2]), w[1], 100 * w[0], 100 * w[3]))


PROFILES_T0 = {}


def main():
    res, report, projects, variants, dial_project, dial = sys.argv[1:7]
    print("Real projects: functions instrumented, instructions (callgrind) over plain,")
    print("largest exclusive share of one region and top regions (CPU-time samples of all native runs)")
    for p in projects.split():
        project_table(res, report, p, variants.split())
    markdown(projects.split())
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
