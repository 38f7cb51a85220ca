#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run-time overhead of selinst against plain builds and its peers (issue 6).

Builds every workload of bench/workloads/ as each variant below into
build/bench/, then measures either

  --mode=time          wall time (monotonic clock) of RUNS runs per variant,
                       variants alternating round-robin (A B C A B C ...),
                       median per variant, or
  --mode=cpu           the same with each run's user + system CPU time
                       (less sensitive to other load on the machine), or
  --mode=instructions  instructions executed, counted by valgrind's callgrind
                       (exact and repeatable: one run per variant),

and prints one table (Markdown) with the overhead of each variant over its
baseline, the number of regions instrumented and the share of run time the
selective profile attributes to named regions below main.  --tsv FILE also
writes the table as tab-separated values (for bench/plot.sh).  --gate turns
the instruction table into the CI gate (bench/ci-gate.sh, bench/README.md).

Definitions (also in bench/README.md):
  overhead %      (variant / baseline - 1) * 100; the baseline is the plain
                  gcc -O2 build, and the plain clang-14 -O2 build for XRay.
  full/sel ratio  overhead of selinst full (threshold 0) / overhead of selinst
                  at the default threshold.  A selective overhead below the
                  resolution (time: the plain runs' spread, at least 0.1%;
                  instructions: 0.1%) counts as that resolution, and the ratio
                  is printed as a lower bound ">= X".
  regions         selinst: functions + loops with `instrument: true` in the
                  decision file; XRay: functions with sleds (llvm-xray extract);
                  -finstrument-functions: distinct functions in its profile
                  (those that ran).
  below main      1 - exclusive(main) / total_seconds of the variant's profile
                  (selinst-report --format=json): the share of the run that the
                  profile attributes to a named region (function or loop)
                  below main rather than to main itself.
"""
import argparse
import concurrent.futures
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
OUT = os.path.join(BUILD, "bench")
WORKLOADS = ["bt", "cg", "ft", "mg", "interp"]
DEFAULT_THRESHOLD = 204800
PLUGIN = os.path.join(BUILD, "selinst.so")
REPORT = os.path.join(BUILD, "selinst-report")
LINK_RT = ["-L" + BUILD, "-lselinst", "-Wl,-rpath," + BUILD]
# "medium": about 1 s plain on the bench machine (large is 3-6 s, and the
# slowest variants run 10-25 times longer: all of them at large, 5 times,
# would take over an hour on 2 cores).
MEDIUM = {"bt": ["32", "50"], "cg": ["100000", "20"], "ft": ["7", "18"], "mg": ["7", "18"], "interp": ["90"]}


def sel(*args):
    return ["-fplugin=" + PLUGIN] + ["-fplugin-arg-selinst-" + a for a in args]


# name -> (compiler, extra flags, baseline, kind)
#   kind: plain | selinst | cyg | xray
VARIANTS = {
    "plain":                 ("gcc", [], None, "plain"),
    "selinst":               ("gcc", sel("threshold=%d" % DEFAULT_THRESHOLD), "plain", "selinst"),
    "selinst full":          ("gcc", sel("threshold=0"), "plain", "selinst"),
    "selinst full nothrottle": ("gcc", sel("threshold=0"), "plain", "selinst"),
    # inline=off: every instrumented function out of line (the default
    # before inline=on; see bench/README.md, "Inlining instrumented bodies").
    "selinst inline=off":    ("gcc", sel("threshold=%d" % DEFAULT_THRESHOLD, "inline=off"), "plain", "selinst"),
    "selinst full inline=off": ("gcc", sel("threshold=0", "inline=off"), "plain", "selinst"),
    "selinst loops=off":     ("gcc", sel("threshold=%d" % DEFAULT_THRESHOLD, "loops=off"), "plain", "selinst"),
    "selinst loop-thr=0":    ("gcc", sel("threshold=%d" % DEFAULT_THRESHOLD, "loop-threshold=0"), "plain", "selinst"),
    "-finstrument-functions": ("gcc", ["-finstrument-functions"], "plain", "cyg"),
    "clang plain":           ("clang", [], None, "plain"),
    "xray":                  ("clang", [], "clang plain", "xray"),
    "xray all":              ("clang", ["-fxray-instruction-threshold=1"], "clang plain", "xray"),
}
XRAY_FLAGS = ["-fxray-instrument", "-fxray-modes=xray-profiling"]
# The selinst variants run with the runtime's default throttle
# (SELINST_THROTTLE unset, unless the caller's environment sets it); this
# one shows the same build with every call counted.
VARIANT_ENV = {"selinst full nothrottle": {"SELINST_THROTTLE": "off"}}
# The builds at threshold 0 whose overhead over the default's is the
# full/selective ratio (--gate checks every one that ran).
FULL_VARIANTS = ("selinst full", "selinst full nothrottle")


def slug(name):
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")


def have_clang():
    return shutil.which("clang-14") and shutil.which("clang++-14")


def build_one(wl, v):
    """Builds workload wl as variant v; returns (binary, decision file or None)."""
    cc, flags, _, kind = VARIANTS[v]
    src = os.path.join(ROOT, "bench", "workloads", wl + ".c")
    d = os.path.join(OUT, wl)
    exe = os.path.join(d, slug(v))
    dec = exe + ".decisions.yaml" if kind == "selinst" else None
    inputs = [src, PLUGIN, os.path.join(BUILD, "libselinst.so"), os.path.abspath(__file__),
              os.path.join(ROOT, "bench", "cyg_shim.c"), os.path.join(ROOT, "bench", "xray_driver.c")]
    if os.path.exists(exe) and (dec is None or os.path.exists(dec)) and \
            os.path.getmtime(exe) >= max(os.path.getmtime(p) for p in inputs):
        return exe, dec
    os.makedirs(d, exist_ok=True)
    base = ["-O2", "-Wno-unknown-pragmas"]
    if kind == "xray":
        obj = exe + ".o"
        cmds = [["clang-14", "-std=gnu11"] + base + XRAY_FLAGS + flags + ["-c", src, "-o", obj],
                ["clang++-14", "-O2"] + XRAY_FLAGS + flags + ["-x", "c++", os.path.join(ROOT, "bench", "xray_driver.c"),
                                                              "-x", "none", obj, "-o", exe, "-lm"]]
    elif cc == "clang":
        cmds = [["clang-14", "-std=gnu11"] + base + [src, "-o", exe, "-lm"]]
    elif kind == "selinst":
        if os.path.exists(dec):
            os.unlink(dec)
        cmds = [["gcc"] + base + flags + ["-fplugin-arg-selinst-decisions=" + dec, src, "-o", exe, "-lm"] + LINK_RT]
    elif kind == "cyg":
        # -rdynamic: the shim names regions with dladdr, which sees only
        # exported symbols (static functions stay addresses).
        cmds = [["gcc"] + base + flags + ["-I" + os.path.join(ROOT, "include"), src,
                                          os.path.join(ROOT, "bench", "cyg_shim.c"), "-o", exe, "-rdynamic",
                                          "-lm", "-ldl"] + LINK_RT]
    else:
        cmds = [["gcc"] + base + [src, "-o", exe, "-lm"]]
    for c in cmds:
        r = subprocess.run(c, capture_output=True, text=True)
        if r.returncode != 0 and cc == "clang":
            # XRay needs libclang-rt-14-dev: a missing piece skips the column.
            err = [l for l in r.stderr.splitlines() if "error" in l] or r.stderr.splitlines() or ["?"]
            return None, "clang-14 build failed: " + err[0][:100]
        if r.returncode != 0:
            raise SystemExit("build failed: %s\n%s" % (" ".join(c), r.stderr))
    return exe, dec


def count_regions(wl, v, exe, dec, prof):
    kind = VARIANTS[v][3]
    if kind == "selinst":
        with open(dec) as f:
            return sum(1 for line in f if re.search(r"\binstrument: true\b", line))
    if kind == "xray":
        r = subprocess.run(["llvm-xray-14", "extract", exe], capture_output=True, text=True)
        return r.stdout.count("kind: function-enter") if r.returncode == 0 else None
    if kind == "cyg" and prof:
        return len(profile_json(prof)["regions"])
    return None


def profile_json(prof):
    r = subprocess.run([REPORT, "--format=json", prof], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("selinst-report failed on %s: %s" % (prof, r.stderr))
    return json.loads(r.stdout)


def below_main(prof):
    d = profile_json(prof)
    mains = [r for r in d["regions"] if r["kind"] == "function" and r["name"] in ("main", "int main()")]
    if not mains or not d["total_seconds"]:
        return None
    return 100.0 * (1 - sum(r["exclusive_seconds"] for r in mains) / d["total_seconds"])


class Runner:
    def __init__(self, tmp, size):
        self.tmp = tmp
        self.size = size

    def args(self, wl):
        return MEDIUM[wl] if self.size == "medium" else self.size.split()

    def env(self, wl, v):
        e = dict(os.environ)
        e["SELINST_OUTPUT"] = self.profile(wl, v)
        e["XRAY_OPTIONS"] = "xray_logfile_base=%s/xray-%s-%s." % (self.tmp, wl, slug(v))
        e.pop("OMP_NUM_THREADS", None)
        e.update(VARIANT_ENV.get(v, {}))
        return e

    def profile(self, wl, v):
        return os.path.join(self.tmp, "%s-%s.prof" % (wl, slug(v)))

    def check(self, wl, v, r):
        if r.returncode != 0 or "VERIFICATION SUCCESSFUL" not in r.stdout:
            raise SystemExit("%s (%s) failed: rc %d\n%s%s" % (wl, v, r.returncode, r.stdout[-2000:], r.stderr[-2000:]))

    def timed(self, wl, v, exe, cpu=False):
        """Wall seconds of one run, or with cpu its user + system CPU
        seconds (the runs are sequential: RUSAGE_CHILDREN's growth is this
        child's)."""
        c = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        r = subprocess.run([exe] + self.args(wl), env=self.env(wl, v), capture_output=True, text=True)
        t = time.perf_counter() - t
        d = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.check(wl, v, r)
        return (d.ru_utime + d.ru_stime) - (c.ru_utime + c.ru_stime) if cpu else t

    def instructions(self, wl, v, exe):
        """Instructions of one run under callgrind, or (None, reason)."""
        out = os.path.join(self.tmp, "callgrind-%s-%s.out" % (wl, slug(v)))
        r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, exe] + self.args(wl),
                           env=self.env(wl, v), capture_output=True, text=True)
        m = re.search(r"Collected\s*:\s*(\d+)", r.stderr)
        if r.returncode != 0 or "VERIFICATION SUCCESSFUL" not in r.stdout or not m:
            tail = [l for l in r.stderr.splitlines() if l.strip() and not l.startswith("==")]
            return None, "fails under valgrind (rc %d%s)" % (r.returncode, ": " + tail[-1][:80] if tail else "")
        return int(m.group(1)), None


def pct(a, b):
    return (a / b - 1) * 100


def fmt_pct(x):
    return "n/a" if x is None else "%+.2f%%" % x


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=["time", "cpu", "instructions"], default="time")
    ap.add_argument("--size", default=None, help="small|medium|large|'N [STEPS]' (default: medium for time, small for instructions)")
    ap.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", "5")))
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated variant names")
    ap.add_argument("--tsv", help="also write the table here (tab-separated)")
    ap.add_argument("--gate", action="store_true", help="instruction mode: apply the CI gate")
    ap.add_argument("--max-selective", type=float, default=3.0, help="gate: max selective instruction overhead %%")
    ap.add_argument("--min-ratio", type=float, default=10.0, help="gate: min full/selective instruction-overhead ratio")
    a = ap.parse_args()
    size = a.size or os.environ.get("BENCH_SIZE") or ("small" if a.mode == "instructions" else "medium")
    wls = [w for w in a.workloads.split(",") if w]
    names = [v.strip() for v in a.variants.split(",") if v.strip()]
    for v in names:
        if v not in VARIANTS:
            raise SystemExit("unknown variant %r; known: %s" % (v, ", ".join(VARIANTS)))
    # Baselines are always built and run.
    names = [v for v in VARIANTS if v in names or any(VARIANTS[n][2] == v for n in names)]
    skipped = {}
    if not have_clang():
        for v in names:
            if VARIANTS[v][0] == "clang":
                skipped[v] = "clang-14 not installed"
        names = [v for v in names if v not in skipped]
    if a.mode == "instructions" and not shutil.which("valgrind"):
        raise SystemExit("valgrind not installed: cannot count instructions")

    t0 = time.perf_counter()
    jobs = [(w, v) for w in wls for v in names]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        built = dict(zip(jobs, ex.map(lambda j: build_one(*j), jobs)))
    for j, (exe, why) in list(built.items()):
        if exe is None:
            skipped.setdefault(j[1], why)
    for v in names:
        if VARIANTS[v][2] in skipped:
            skipped.setdefault(v, "its baseline %s did not build" % VARIANTS[v][2])
    names = [v for v in names if v not in skipped]
    jobs = [(w, v) for w in wls for v in names]
    for v in skipped:
        print("%s skipped: %s" % (v, skipped[v]))
    build_s = time.perf_counter() - t0

    tmp = tempfile.mkdtemp(prefix="selinst-bench-")
    run = Runner(tmp, size)
    rows = []                           # dicts, one per (workload, variant)
    t0 = time.perf_counter()
    counted = {}
    if a.mode == "instructions":
        # Counts do not depend on what else runs: use every core.
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
            counted = dict(zip(jobs, ex.map(lambda j: run.instructions(j[0], j[1], built[j][0]), jobs)))
    timed = a.mode != "instructions"
    for wl in wls:
        meas, spread, fail = {}, {}, {}
        if a.mode != "instructions":
            samples = {v: [] for v in names}
            for rep in range(a.runs):
                for v in names:
                    samples[v].append(run.timed(wl, v, built[(wl, v)][0], a.mode == "cpu"))
            for v in names:
                meas[v] = statistics.median(samples[v])
                spread[v] = 100 * (max(samples[v]) - min(samples[v])) / meas[v]
        else:
            for v in names:
                n, why = counted[(wl, v)]
                if n is None:
                    fail[v] = why
                else:
                    meas[v] = n
        for v in names:
            exe, dec = built[(wl, v)]
            base = VARIANTS[v][2]
            prof = run.profile(wl, v)
            prof = prof if os.path.exists(prof) else None
            row = {"workload": wl, "variant": v, "value": meas.get(v), "spread": spread.get(v),
                   "overhead": pct(meas[v], meas[base]) if base and v in meas and base in meas else None,
                   "regions": count_regions(wl, v, exe, dec, prof),
                   "below_main": below_main(prof) if prof and VARIANTS[v][3] != "plain" else None,
                   "ratio": None, "ratio_bound": False, "note": fail.get(v, "")}
            rows.append(row)
        by = {r["variant"]: r for r in rows if r["workload"] == wl}
        for full in FULL_VARIANTS:
            if full not in by or "selinst" not in by or by[full]["overhead"] is None \
                    or by["selinst"]["overhead"] is None:
                continue
            # Below the resolution (time: the plain runs' spread; instructions:
            # 0.1%, the size of code-generation differences) the selective
            # overhead is taken as that resolution and the ratio is a bound.
            f, s = by[full]["overhead"], by["selinst"]["overhead"]
            floor = max(spread.get("plain", 0.0), 0.1) if timed else 0.1
            by[full]["ratio"] = f / max(s, floor)
            by[full]["ratio_bound"] = s < floor
    run_s = time.perf_counter() - t0
    shutil.rmtree(tmp, ignore_errors=True)

    unit = "median s" if timed else "instructions"
    what = {"time": "wall time, median of %d alternating runs" % a.runs,
            "cpu": "CPU time (user + system), median of %d alternating runs" % a.runs,
            "instructions": "instructions (valgrind --tool=callgrind, whole process)"}[a.mode]
    print("## Overhead, %s, size %s" % (what, size))
    print()
    hdr = ["workload", "variant", unit] + (["spread"] if timed else []) + \
        ["overhead", "full/sel", "regions", "below main"]
    print("| " + " | ".join(hdr) + " |")
    print("|" + "|".join(["---"] * 2 + ["---:"] * (len(hdr) - 2)) + "|")
    for r in rows:
        if r["value"] is None:
            val = "n/a: " + r["note"]
        elif timed:
            val = "%.3f" % r["value"]
        else:
            val = "{:,}".format(r["value"])
        cells = [r["workload"], r["variant"], val]
        if timed:
            cells.append("" if r["spread"] is None else "%.1f%%" % r["spread"])
        cells.append("" if VARIANTS[r["variant"]][2] is None else fmt_pct(r["overhead"]))
        cells.append("" if r["ratio"] is None else ("%s%.0f" % (">= " if r["ratio_bound"] else "", r["ratio"])))
        cells.append("" if r["regions"] is None else str(r["regions"]))
        cells.append("" if r["below_main"] is None else "%.1f%%" % r["below_main"])
        print("| " + " | ".join(cells) + " |")
    for v, why in skipped.items():
        print("| all | %s | n/a: %s |" % (v, why) + " |" * (len(hdr) - 3))
    print()
    print("(build %.0f s, runs %.0f s; %s)" % (build_s, run_s, os.uname().nodename))
    if a.tsv:
        with open(a.tsv, "w") as f:
            f.write("workload\tvariant\tvalue\toverhead\n")
            for r in rows:
                if VARIANTS[r["variant"]][2] is not None:
                    f.write("%s\t%s\t%s\t%s\n" % (r["workload"], r["variant"], r["value"] or "",
                                                  "" if r["overhead"] is None else "%.4f" % r["overhead"]))

    if a.gate:
        bad = 0
        for r in rows:
            if r["variant"] == "selinst":
                ok = r["overhead"] is not None and r["overhead"] <= a.max_selective
                bad += not ok
                print("%s: %s selective instruction overhead %s (limit %.1f%%)" %
                      ("PASS" if ok else "FAIL", r["workload"], fmt_pct(r["overhead"]), a.max_selective))
            if r["variant"] in FULL_VARIANTS:
                ok = r.get("ratio") is not None and r["ratio"] >= a.min_ratio
                bad += not ok
                print("%s: %s full/selective instruction-overhead ratio %s (floor %.0f)" %
                      ("PASS" if ok else "FAIL", r["workload"],
                       "n/a" if r["ratio"] is None else "%.1f" % r["ratio"], a.min_ratio))
        print("bench gate: %s" % ("PASS" if not bad else "FAIL (%d)" % bad))
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
