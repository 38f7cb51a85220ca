#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Accuracy of hybrid sampling (issue 14, point 3): the default selective
build run with SELINST_SAMPLE (exact regions, sampled leaves and loops
inside them) against two references, per bench workload:

  full       the same source with every function and loop instrumented
             (threshold=0, loop-threshold=0), SELINST_THROTTLE=off, no
             sampling: exact times, but the hooks' own cost lands in the
             small functions' times;
  fullfn     every function instrumented (threshold=0), no loop hooks
             (loop-threshold above every loop's score): the hooks do not
             change how small loops compile; read with --compensate;
  libs in caller: the sampled shares with each sampled function that
             is not the program's (libm's exp, "[libc.so.6]") counted in
             the frame above it, as the full references count a call
             into a library in the calling region's own time;
  full comp  the full profile read with selinst-report --compensate: the
             calibrated cost of each call's hook pair taken out (what the
             calibration cannot see stays: code the hooks kept from being
             optimised, such as unrolled 5-trip loops, and the hooks'
             cost above its best case in a warm loop);
  perf       (--perf) the plain -O2 -g build (inlined as the default
             build is, no hooks) under `perf record` at 999 Hz: each
             sample in the program named by the innermost inlined
             function at its PC (addr2line -i), as the runtime names
             samples; a sample in a library counts in the total only.
             Time, not instructions, with no hooks to compensate: a check
             of the references themselves;
  callgrind  the plain -O2 -fno-inline build under valgrind's callgrind:
             exact instruction counts per function (no hooks at all), but
             instructions, not time (and calls where -O2 inlines).

Accuracy as the loop-profiling paper (Moseley et al. 2007, eq. 1) defines
it, over the regions R above 1% of the run in the reference:

  accuracy = sum_R (1 - |ref_R - test_R|) * ref_R / sum_R ref_R

(shares as fractions of the run; normalised by the set's total share so
that identical profiles give 100%).  Shares: exclusive ("self") per
region (functions and loops: full only, callgrind has no loops) and per
function (a loop's time counted in its function), and inclusive per
function.  Prints a table; figures, not a test.

--ref-sample HZ: the full references run with SELINST_SAMPLE=HZ and read
with --no-samples (their shares as unsampled; each thread's
samples_in_runtime then says what its hooks cost in situ).  For trying
a compensation that uses it (--report with such a selinst-report);
bench/README.md, "In-situ pair cost for --compensate".
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from overhead import BUILD, LINK_RT, MEDIUM, REPORT, ROOT, sel  # noqa: E402

LOOP = re.compile(r"^(~loop )?[^;:]+:\d+(#\d+)?$")	# loop frames (#N: the Nth at a line)
CLONE = re.compile(r"(\.(constprop|isra|part|cold|lto_priv)\.\d+)+$")


def base_name(frame):
    """A frame's region name without the report's sampled markers."""
    f = frame[1:] if frame.startswith("~") else frame
    return f[5:] if f.startswith("loop ") else f


def fn_name(name):
    return CLONE.sub("", name)


def folded_shares(prof, exact=None, opts=(), program=None):
    """(region excl, function excl, function incl) shares from a profile
    (OPTS: more selinst-report options, e.g. --compensate).
    PROGRAM: the program's own functions; a sampled frame of any other
    (libm's exp, "[libc.so.6]") then counts as the frame above it, as
    full instrumentation counts a library call in its caller's time.
    EXACT: the functions that are regions of the default build; a loop of
    any other function counts as its function in the region shares (None:
    every loop is a region; the default build names the loops of every
    function the plugin compiled since the loop tables, .selinst.loops,
    so the full reference is read with None)."""
    out = subprocess.run([REPORT, "--format=folded"] + list(opts) + [prof], check=True,
                         capture_output=True, text=True).stdout
    reg, fex, finc = (collections.Counter() for _ in range(3))
    total = 0
    for line in out.splitlines():
        path, _, ns = line.rpartition(" ")
        ns = int(ns)
        total += ns
        frames = path.split(";")
        owners, owner = [], None
        for f in frames:
            foreign = (program is not None and f.startswith("~") and not LOOP.match(f)
                       and fn_name(base_name(f)) not in program)
            if owner is None or not (LOOP.match(f) or foreign):
                owner = fn_name(base_name(f))
            owners.append(owner)
        last = frames[-1]
        loop = LOOP.match(last) and (exact is None or owners[-1] in exact)
        reg[base_name(last) if loop else owners[-1]] += ns
        fex[owners[-1]] += ns
        for o in set(owners):
            finc[o] += ns
    return tuple({k: v / total for k, v in c.items()} for c in (reg, fex, finc))


CG_LINE = re.compile(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*?):([^:\s]+) \[(.*)\]$")


def exact_functions(prof):
    """The function regions of a profile (frames of the folded view that
    are neither sampled nor loops)."""
    out = subprocess.run([REPORT, "--format=folded", "--no-samples", prof], check=True,
                         capture_output=True, text=True).stdout
    return {fn_name(f) for line in out.splitlines() for f in line.rpartition(" ")[0].split(";")
            if not LOOP.match(f)}


def callgrind_shares(out_file, exe):
    """(function excl, function incl) instruction shares from callgrind, of
    the functions of program EXE (libc's and the loader's left out: their
    inclusive shares, _start's 100%, have no counterpart in a profile)."""
    res = []
    for inclusive in ("no", "yes"):
        text = subprocess.run(["callgrind_annotate", "--inclusive=" + inclusive,
                               "--threshold=100", out_file], check=True,
                              capture_output=True, text=True).stdout
        tot = int(re.search(r"^([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS", text, re.M)
                  .group(1).replace(",", ""))
        c = collections.Counter()
        for line in text.splitlines():
            m = CG_LINE.match(line)
            if m and m.group(4) == exe:
                n, fn = int(m.group(1).replace(",", "")), fn_name(m.group(3))
                c[fn] = c[fn] + n if inclusive == "no" else max(c[fn], n)
        res.append({k: v / tot for k, v in c.items()})
    return tuple(res)


def perf_shares(d, src, size, reuse):
    """Function shares (exclusive) of the plain -O2 -g build under perf
    record: program samples by innermost inlined function, others in the
    total only (None when perf cannot record here)."""
    exe, data = os.path.join(d, "perfplain"), os.path.join(d, "perf.data")
    if not reuse or not os.path.exists(exe):
        build(src, exe, ["-no-pie"])	# addresses as in the file, for addr2line
    if not reuse or not os.path.exists(data):
        r = subprocess.run(["perf", "record", "-q", "-F", "999", "-o", data, exe] + size,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode:
            return None
    out = subprocess.run(["perf", "script", "-i", data, "-F", "ip,dso"], check=True,
                         capture_output=True, text=True).stdout
    ips = [ln.split()[0] for ln in out.splitlines() if ln.split() and exe in ln]
    total = len(out.splitlines())
    names = subprocess.run(["addr2line", "-f", "-i", "-a", "-e", exe], input="\n".join(ips),
                           check=True, capture_output=True, text=True).stdout.splitlines()
    c = collections.Counter()
    for i, ln in enumerate(names):
        if ln.startswith("0x") and i + 1 < len(names):
            c[fn_name(names[i + 1])] += 1	# the first function: the innermost
    return {k: v / total for k, v in c.items()} if total else None


def accuracy(ref, test, floor=0.01):
    """Paper's eq. 1 over REF's regions above FLOOR; (percent, n, worst
    difference in points, its region)."""
    keys = [k for k, v in ref.items() if v > floor]
    w = sum(ref[k] for k in keys)
    if not keys or not w:
        return None
    acc = sum((1 - abs(ref[k] - test.get(k, 0.0))) * ref[k] for k in keys) / w
    worst = max(keys, key=lambda k: abs(ref[k] - test.get(k, 0.0)))
    return 100 * acc, len(keys), 100 * abs(ref[worst] - test.get(worst, 0.0)), worst


def build(src, out, args):
    subprocess.run(["gcc", "-O2", "-g", src, "-o", out, "-lm"] + args, check=True,
                   stderr=subprocess.DEVNULL)


def run(cmd, env=None, cwd=None):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env, cwd=cwd)


def measure(wl, size, hz, tmp, verbose, reuse, runs, build_only=False, perf=False, ref_hz=None):
    src = os.path.join(ROOT, "bench", "workloads", wl + ".c")
    d = os.path.join(tmp, wl)
    os.makedirs(d, exist_ok=True)
    exe = {v: os.path.join(d, v) for v in ("sel", "full", "fullfn", "plain")}
    for v, args in (("sel", sel("threshold=204800") + LINK_RT),
                    ("full", sel("threshold=0", "loop-threshold=0") + LINK_RT),
                    ("fullfn", sel("threshold=0", "loop-threshold=4000000000") + LINK_RT),
                    # No inlining in the callgrind reference: callgrind names
                    # code by the symbol it lies in, while samples name
                    # inlined functions.
                    ("plain", ["-fno-inline"])):
        if not reuse or not os.path.exists(exe[v]):
            build(src, exe[v], args)
    if build_only:
        return None
    cg = os.path.join(d, "callgrind.out")
    sel_profs = [os.path.join(d, "sel.prof" if i == 0 else "sel.%d.prof" % i) for i in range(runs)]
    for prof in sel_profs:
        if not reuse or not os.path.exists(prof):
            env = dict(os.environ, SELINST_SAMPLE=str(hz), SELINST_OUTPUT=prof)
            run([exe["sel"]] + size, env)
    if not reuse or not os.path.exists(os.path.join(d, "full.prof")):
        # The throttle off: by default it switches the hot tiny regions
        # off, and their time would go to their callers.
        env = dict(os.environ, SELINST_OUTPUT=os.path.join(d, "full.prof"), SELINST_THROTTLE="off")
        env.pop("SELINST_SAMPLE", None)
        if ref_hz:
            env["SELINST_SAMPLE"] = str(ref_hz)
        run([exe["full"]] + size, env)
    if not reuse or not os.path.exists(os.path.join(d, "fullfn.prof")):
        env = dict(os.environ, SELINST_OUTPUT=os.path.join(d, "fullfn.prof"), SELINST_THROTTLE="off")
        env.pop("SELINST_SAMPLE", None)
        if ref_hz:
            env["SELINST_SAMPLE"] = str(ref_hz)
        run([exe["fullfn"]] + size, env)
    if not reuse or not os.path.exists(cg):
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg, exe["plain"]]
                       + size, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    exact = exact_functions(sel_profs[0])
    s = folded_shares(sel_profs[0], opts=sel_profs[1:])
    # The program's functions: every function is a region of the full build.
    own = set(folded_shares(os.path.join(d, "full.prof"), opts=["--no-samples"])[2])
    sl = folded_shares(sel_profs[0], opts=sel_profs[1:], program=own)
    ro = ["--no-samples"] if ref_hz else []
    f = folded_shares(os.path.join(d, "full.prof"), opts=ro)
    fc = folded_shares(os.path.join(d, "full.prof"), exact, ["--compensate"] + ro)
    ff = folded_shares(os.path.join(d, "fullfn.prof"), exact, ["--compensate"] + ro)
    c = callgrind_shares(cg, exe["plain"])
    pf = perf_shares(d, src, size, reuse) if perf else None
    row = {
        "full: regions excl": accuracy(f[0], s[0]),
        "full: functions excl": accuracy(f[1], s[1]),
        "full comp: functions excl": accuracy(fc[1], s[1]),
        "fullfn comp: functions excl": accuracy(ff[1], s[1]),
        "full comp, libs in caller: functions excl": accuracy(fc[1], sl[1]),
        "fullfn comp, libs in caller: functions excl": accuracy(ff[1], sl[1]),
        "callgrind: functions excl": accuracy(c[0], s[1]),
        # Inclusive: of the functions that are regions of the default
        # build only (a sample names no caller that has no hooks).
        "callgrind: functions incl": accuracy({k: v for k, v in c[1].items() if k in exact}, s[2]),
        "full vs callgrind: functions excl": accuracy(c[0], f[1]),
        "full comp vs callgrind: functions excl": accuracy(c[0], fc[1]),
        "fullfn comp vs callgrind: functions excl": accuracy(c[0], ff[1]),
        "perf: functions excl": accuracy(pf, s[1]) if pf else None,
        "fullfn comp vs perf: functions excl": accuracy(pf, ff[1]) if pf else None,
    }
    if verbose:
        for name, ref, test in (("full excl", f[1], s[1]), ("full comp excl", fc[1], s[1]),
                                ("fullfn comp excl", ff[1], s[1]),
                                ("fullfn comp excl, libs in caller", ff[1], sl[1]),
                                ("callgrind excl", c[0], s[1])) + \
                ((("perf excl", pf, s[1]),) if pf else ()):
            print("  %s %s:" % (wl, name))
            for k in sorted(ref, key=ref.get, reverse=True)[:12]:
                print("    %-28s ref %5.1f%%  sampled %5.1f%%" % (k, 100 * ref[k], 100 * test.get(k, 0)))
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workloads", default="bt,cg,ft,mg,interp")
    ap.add_argument("--size", default="medium", help="medium (about 1 s plain) or 'N [STEPS]'")
    ap.add_argument("--hz", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=1,
                    help="sampled runs, their profiles merged (N times the samples)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print the top shares")
    ap.add_argument("--keep", help="keep the programs and profiles in this folder")
    ap.add_argument("--reuse", action="store_true",
                    help="with --keep: read the programs and profiles a former run kept "
                    "(builds and runs only what is missing: profiles that bench/sample-quiet.sh "
                    "made on a quiet machine, for one)")
    ap.add_argument("--perf", action="store_true",
                    help="also compare with the plain build under perf record (columns perf)")
    ap.add_argument("--ref-sample", type=int, metavar="HZ",
                    help="run the full references with SELINST_SAMPLE=HZ (see above)")
    ap.add_argument("--build-only", action="store_true",
                    help="with --keep: build the programs and stop")
    ap.add_argument("--report", help="this selinst-report instead of the tree's (with --reuse: "
                    "another version's reading of the same profiles)")
    a = ap.parse_args()
    if a.report:
        global REPORT
        REPORT = a.report
    cols = ["full: regions excl", "full: functions excl", "full comp: functions excl",
            "fullfn comp: functions excl", "full comp, libs in caller: functions excl",
            "fullfn comp, libs in caller: functions excl", "callgrind: functions excl",
            "callgrind: functions incl", "full vs callgrind: functions excl",
            "full comp vs callgrind: functions excl", "fullfn comp vs callgrind: functions excl"]
    if a.perf:
        cols += ["perf: functions excl", "fullfn comp vs perf: functions excl"]
    print("accuracy of SELINST_SAMPLE=%d on the default build (%%, regions above 1%% of the "
          "reference; n regions; worst difference in points)" % a.hz)
    with tempfile.TemporaryDirectory(prefix="selinst-acc.") as tmp:
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            tmp = a.keep
        for wl in a.workloads.split(","):
            size = MEDIUM[wl] if a.size == "medium" else a.size.split()
            row = measure(wl, size, a.hz, tmp, a.verbose, a.reuse, a.runs, a.build_only, a.perf,
                          a.ref_sample)
            if row is None:
                continue
            for c in cols:
                r = row[c]
                print("%-7s %-45s %s" % (wl, c, "-" if r is None else "%5.1f  (%d regions; worst "
                                          "%.1f points, %s)" % r), flush=True)

if __name__ == "__main__":
    main()
