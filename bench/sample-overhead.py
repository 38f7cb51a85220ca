#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cost of hybrid sampling (issue 14, point 4): each bench workload's
default selective build (and, with --real, real projects' default builds
from bench/real-projects.sh) run without and with SELINST_SAMPLE=HZ,
interleaved in pairs whose order alternates (off on, on off, ...), so
drift and the position in a pair fall on both sides alike.  Per run: CPU
time (user + system of the process and all its threads, from wait4: the
timer's signal delivery is kernel time, counted in system) and wall
time.  Prints, per workload, the median CPU seconds off and on, then for
CPU and for wall time the median of the per-pair ratios and their
interquartile range.  CPU time is what a shared machine resolves; wall
time there is printed for what it is worth.  Figures, not a test.
Run it under nice on a shared machine.

--real WORK: also the projects whose default build bench/real-projects.sh
left in WORK (WORK/res/P-default.cmds lists the workload's commands,
run in WORK/build/P-default; a run is all of them).

--per-sample: where the cost goes, from runs at several rates (off, 1 Hz,
HZ and 20 x HZ, interleaved): the per-process fixed cost (1 Hz less
off: the timer's set-up and writing the few samples at exit; before
profile version 3 also loading libdw and naming them) and the cost of
one sample (the slope of CPU time over the samples taken, between 1 Hz
and 20 x HZ: the kernel's timer and signal delivery, the handler,
sigreturn, the caches they disturb, and writing more addresses at exit),
each the median over the rounds of the difference to
the same round's run without sampling; then what they add up to at HZ
for the workload's length.  The high rate makes a sample's cost
resolvable on a noisy machine where HZ's own is not.

--callgrind: instructions instead (valgrind's callgrind, one run each),
which count the handler's and the write's instructions but not the
kernel's signal delivery.  Under valgrind the program's CPU clock runs
about 30 times slower than natively, so the rate is scaled down by the
measured slowdown (native CPU time of an off run over callgrind's): the
run then takes about as many samples as a native run at HZ, and names
about as many distinct addresses at write time.  With --real, each of a
project's commands is measured so and the instructions added up.
"""
import argparse
import glob
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from overhead import LINK_RT, MEDIUM, ROOT, sel  # noqa: E402


def cpu_run(cmd, env, cwd=None):
    """CPU seconds (user + system) of one run of CMD."""
    r = timed_run([cmd], env, cwd)
    return r and r[0]


def timed_run(cmds, env, cwd=None):
    """(CPU seconds, wall seconds) of running CMDS one after the other;
    None when one fails."""
    cpu = wall = 0.0
    for cmd in cmds:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        wall += time.perf_counter() - t0
        if status:
            print("%s failed (status %d, SELINST_SAMPLE=%s): run left out"
                  % (cmd[0], status, env.get("SELINST_SAMPLE", "unset")), flush=True)
            return None
        cpu += ru.ru_utime + ru.ru_stime
    return cpu, wall


def callgrind_instructions(cmd, env, out, cwd=None):
    """(instructions, CPU seconds of valgrind) of one callgrind run."""
    p = subprocess.Popen(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + cmd,
                         env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status:
        sys.exit("%s under callgrind failed (status %d)" % (cmd[0], status))
    with open(out) as f:
        total = next(int(l.split()[1]) for l in f if l.startswith("summary:"))
    return total, ru.ru_utime + ru.ru_stime


def samples_of(prof):
    with open(prof) as f:
        return sum(int(l.split()[1]) for l in f if l.startswith("  samples: "))


def callgrind_cmd(cmd, base, hz, out, cwd=None):
    """(instructions off, instructions on, slowdown, rate, samples) of CMD."""
    native = sorted(timed_run([cmd], base, cwd)[0] for _ in range(3))[1]
    off, cg_cpu = callgrind_instructions(cmd, base, out + ".off.cg", cwd)
    rate = max(1, round(hz * native / cg_cpu))
    prof = out + ".on.prof"
    on, _ = callgrind_instructions(cmd, dict(base, SELINST_SAMPLE=str(rate), SELINST_OUTPUT=prof),
                                   out + ".on.cg", cwd)
    return off, on, cg_cpu / native, rate, samples_of(prof)


def callgrind_row(name, cmds, base, hz, tmp, cwd=None):
    """One printed row: CMDS' instructions added up, without and with samples."""
    off = on = smp = 0
    for i, cmd in enumerate(cmds):
        o, n, slow, rate, k = callgrind_cmd(cmd, base, hz, os.path.join(tmp, "%s.%d" % (name, i)),
                                            cwd)
        off, on, smp = off + o, on + n, smp + k
    print("%-7s %14d %14d %+8.3f%% %8.1f %6d %8d" % (name, off, on, 100 * (on / off - 1),
                                                  slow, rate, smp), flush=True)


def rate_env(base, rate, prof):
    e = dict(base, SELINST_OUTPUT=prof)
    if rate:
        e["SELINST_SAMPLE"] = str(rate)
    return e


def per_sample_row(name, cmd, base, hz, runs, tmp):
    """Fixed and per-sample cost of sampling (see --per-sample above)."""
    rates = [0, 1, hz, 20 * hz]
    prof = os.path.join(tmp, name + ".ps.prof")
    d = {r: [] for r in rates[1:]}         # per round: (CPU s over off, samples)
    offs = []
    for i in range(runs):
        cpu = {}
        for r in rates if i % 2 == 0 else rates[::-1]:
            c = cpu_run(cmd, rate_env(base, r, prof))
            cpu[r] = (c, samples_of(prof) if r and c is not None else 0)
        if any(c is None for c, _ in cpu.values()):
            continue
        offs.append(cpu[0][0])
        for r in rates[1:]:
            d[r].append((cpu[r][0] - cpu[0][0], cpu[r][1]))
    if not offs:
        print("%-8s no successful round" % name)
        return
    med = {r: (statistics.median(x for x, _ in d[r]), statistics.median(n for _, n in d[r]))
           for r in rates[1:]}
    fixed = med[1][0]
    slope = (med[20 * hz][0] - fixed) / max(1, med[20 * hz][1] - med[1][1])
    off = statistics.median(offs)
    print("%-8s %3d %8.3f %9.2f %8.2f %8d %+8.2f%% %+8.2f%% %+8.2f%%"
          % (name, len(offs), off, 1e3 * fixed, 1e6 * slope, med[hz][1],
             100 * fixed / off, 100 * (fixed + slope * med[hz][1]) / off,
             100 * med[hz][0] / off), flush=True)


def quartiles(xs):
    """(first quartile, median, third quartile) of XS."""
    if len(xs) < 2:
        return xs[0], xs[0], xs[0]
    q = statistics.quantiles(xs, n=4)
    return q[0], q[1], q[2]


def time_row(name, cmds, base, hz, runs, cwd=None):
    """Interleaved pairs off/on, the order alternating; one printed row."""
    on = dict(base, SELINST_SAMPLE=str(hz))
    timed_run(cmds, base, cwd)      # page cache, dynamic loader's caches
    pairs = []
    for i in range(runs):
        if i % 2:
            y, x = timed_run(cmds, on, cwd), timed_run(cmds, base, cwd)
        else:
            x, y = timed_run(cmds, base, cwd), timed_run(cmds, on, cwd)
        if x is not None and y is not None:
            pairs.append((x, y))
    if not pairs:
        print("%-8s no successful pair" % name)
        return
    cpu = quartiles([100 * (y[0] / x[0] - 1) for x, y in pairs])
    wall = quartiles([100 * (y[1] / x[1] - 1) for x, y in pairs])
    print("%-8s %3d %8.3f %8.3f %+7.2f%% %+6.2f..%+.2f %+7.2f%% %+6.2f..%+.2f"
          % (name, len(pairs), statistics.median(x[0] for x, _ in pairs),
             statistics.median(y[0] for _, y in pairs), cpu[1], cpu[0], cpu[2],
             wall[1], wall[0], wall[2]), flush=True)


def real_rows(work, hz, runs, tmp, callgrind):
    for f in sorted(glob.glob(os.path.join(work, "res", "*-default.cmds"))):
        p = os.path.basename(f)[:-len("-default.cmds")]
        with open(f) as fh:
            cmds = [shlex.split(l) for l in fh if l.strip()]
        base = dict(os.environ, SELINST_OUTPUT=os.path.join(tmp, p + ".%p.prof"))
        base.pop("SELINST_SAMPLE", None)
        cwd = os.path.join(work, "build", p + "-default")
        if callgrind:
            callgrind_row(p, cmds, base, hz, tmp, cwd)
        else:
            time_row(p, cmds, base, hz, runs, cwd)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workloads", default="bt,cg,ft,mg,interp")
    ap.add_argument("--size", default="medium", help="medium (about 1 s plain) or 'N [STEPS]'")
    ap.add_argument("--hz", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=15, help="pairs per workload")
    ap.add_argument("--real", metavar="WORK", help="also real-projects.sh's default builds in WORK")
    ap.add_argument("--per-sample", action="store_true", help="fixed and per-sample cost "
                    "(see above)")
    ap.add_argument("--callgrind", action="store_true", help="instructions (see above)")
    a = ap.parse_args()
    if a.callgrind:
        print("instructions without / with samples at the rate that gives as many samples "
              "as SELINST_SAMPLE=%d natively" % a.hz)
        print("%-7s %14s %14s %9s %8s %6s %8s" % ("", "off", "on", "over", "slowdown", "rate",
                                                 "samples"))
    elif a.per_sample:
        print("cost of SELINST_SAMPLE on the default build, %d rounds of off, 1, %d and %d Hz: "
              "median CPU s off, fixed cost (1 Hz - off), one sample's cost (slope to %d Hz), "
              "samples at %d Hz; fixed and fixed + samples as a share of the run, and %d Hz "
              "- off measured" % (a.runs, a.hz, 20 * a.hz, 20 * a.hz, a.hz, a.hz))
        print("%-8s %3s %8s %9s %8s %8s %9s %9s %9s" % ("", "n", "off cpu", "fixed ms",
                                                       "us/smp", "samples", "fixed", "model",
                                                       "measured"))
    else:
        print("without / with SELINST_SAMPLE=%d, default build, interleaved pairs: "
              "median CPU s, then per-pair ratio on/off - 1: median and interquartile range"
              % a.hz)
        print("%-8s %3s %8s %8s %8s %13s %8s %13s" % ("", "n", "off cpu", "on cpu", "cpu",
                                                     "cpu IQR", "wall", "wall IQR"))
    with tempfile.TemporaryDirectory(prefix="selinst-smpov.") as tmp:
        for wl in a.workloads.split(",") if a.workloads else []:
            size = MEDIUM[wl] if a.size == "medium" else a.size.split()
            exe = os.path.join(tmp, wl)
            subprocess.run(["gcc", "-O2", "-g", os.path.join(ROOT, "bench", "workloads", wl + ".c"),
                            "-o", exe, "-lm"] + sel("threshold=204800") + LINK_RT, check=True,
                           stderr=subprocess.DEVNULL)
            base = dict(os.environ, SELINST_OUTPUT=os.path.join(tmp, wl + ".prof"))
            base.pop("SELINST_SAMPLE", None)
            if a.callgrind:
                callgrind_row(wl, [[exe] + size], base, a.hz, tmp)
                continue
            if a.per_sample:
                per_sample_row(wl, [exe] + size, base, a.hz, a.runs, tmp)
                continue
            time_row(wl, [[exe] + size], base, a.hz, a.runs)
        if a.real and not a.per_sample:
            real_rows(a.real, a.hz, a.runs, tmp, a.callgrind)


if __name__ == "__main__":
    main()
