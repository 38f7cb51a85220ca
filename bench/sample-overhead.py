#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cost of hybrid sampling (issue 14, point 4): each bench workload's
default selective build run without and with SELINST_SAMPLE=HZ, the two
interleaved (A B A B ...), CPU time (user + system, of the process and
the final writer's thread) from wait4; prints the medians and the median
of the per-pair ratios.  CPU time, not wall time: the machine is shared,
and CPU time is what the samples cost.  Figures, not a test.

--callgrind: instructions instead (valgrind's callgrind, one run each),
which count the handler's and the write's instructions but not the
kernel's signal delivery.  Under valgrind the program's CPU clock runs
about 30 times slower than natively, so the rate is scaled down by the
measured slowdown (native CPU time of an off run over callgrind's): the
run then takes about as many samples as a native run at HZ, and names
about as many distinct addresses at write time.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from overhead import LINK_RT, MEDIUM, ROOT, sel  # noqa: E402


def cpu_run(cmd, env):
    """CPU seconds (user + system) of one run of CMD."""
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status:
        print("%s failed (status %d, SELINST_SAMPLE=%s): run left out"
              % (cmd[0], status, env.get("SELINST_SAMPLE", "unset")), flush=True)
        return None
    return ru.ru_utime + ru.ru_stime


def callgrind_instructions(cmd, env, out):
    """(instructions, CPU seconds of valgrind) of one callgrind run."""
    p = subprocess.Popen(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + cmd,
                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status:
        sys.exit("%s under callgrind failed (status %d)" % (cmd[0], status))
    with open(out) as f:
        total = next(int(l.split()[1]) for l in f if l.startswith("summary:"))
    return total, ru.ru_utime + ru.ru_stime


def samples_of(prof):
    with open(prof) as f:
        return sum(int(l.split()[1]) for l in f if l.startswith("  samples: "))


def callgrind_row(wl, exe, size, base, hz, tmp):
    native = sorted(cpu_run([exe] + size, base) for _ in range(3))[1]
    off, cg_cpu = callgrind_instructions([exe] + size, base, os.path.join(tmp, wl + ".off.cg"))
    rate = max(1, round(hz * native / cg_cpu))
    prof = os.path.join(tmp, wl + ".on.prof")
    on, _ = callgrind_instructions([exe] + size, dict(base, SELINST_SAMPLE=str(rate),
                                                      SELINST_OUTPUT=prof),
                                   os.path.join(tmp, wl + ".on.cg"))
    print("%-7s %14d %14d %+8.3f%% %8.1f %6d %8d" % (wl, off, on, 100 * (on / off - 1),
                                                  cg_cpu / native, rate, samples_of(prof)),
          flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workloads", default="bt,cg,ft,mg,interp")
    ap.add_argument("--size", default="medium", help="medium (about 1 s plain) or 'N [STEPS]'")
    ap.add_argument("--hz", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=11, help="pairs per workload")
    ap.add_argument("--callgrind", action="store_true", help="instructions (see above)")
    a = ap.parse_args()
    if a.callgrind:
        print("instructions without / with samples at the rate that gives as many samples "
              "as SELINST_SAMPLE=%d natively" % a.hz)
        print("%-7s %14s %14s %9s %8s %6s %8s" % ("", "off", "on", "over", "slowdown", "rate",
                                                 "samples"))
    else:
        print("CPU time without / with SELINST_SAMPLE=%d, default build, %d interleaved pairs"
              % (a.hz, a.runs))
        print("%-7s %10s %10s %9s %9s %17s" % ("", "off s", "on s", "medians", "pairs",
                                                "pair range"))
    with tempfile.TemporaryDirectory(prefix="selinst-smpov.") as tmp:
        for wl in a.workloads.split(","):
            size = MEDIUM[wl] if a.size == "medium" else a.size.split()
            exe = os.path.join(tmp, wl)
            subprocess.run(["gcc", "-O2", "-g", os.path.join(ROOT, "bench", "workloads", wl + ".c"),
                            "-o", exe, "-lm"] + sel("threshold=204800") + LINK_RT, check=True,
                           stderr=subprocess.DEVNULL)
            base = dict(os.environ, SELINST_OUTPUT=os.path.join(tmp, wl + ".prof"))
            base.pop("SELINST_SAMPLE", None)
            if a.callgrind:
                callgrind_row(wl, exe, size, base, a.hz, tmp)
                continue
            on = dict(base, SELINST_SAMPLE=str(a.hz))
            off_t, on_t = [], []
            for _ in range(a.runs):
                x, y = cpu_run([exe] + size, base), cpu_run([exe] + size, on)
                if x is not None and y is not None:
                    off_t.append(x)
                    on_t.append(y)
            ratios = sorted(b / x - 1 for x, b in zip(off_t, on_t))
            mo, mn = statistics.median(off_t), statistics.median(on_t)
            print("%-7s %10.3f %10.3f %+8.2f%% %+8.2f%% %+7.1f%%..%+.1f%%"
                  % (wl, mo, mn, 100 * (mn / mo - 1), 100 * statistics.median(ratios),
                     100 * ratios[0], 100 * ratios[-1]), flush=True)


if __name__ == "__main__":
    main()
