#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cost of hybrid sampling (issue 14, point 4): each bench workload's
default selective build run without and with SELINST_SAMPLE=HZ, the two
interleaved (A B A B ...), CPU time (user + system, of the process and
the final writer's thread) from wait4; prints the medians and the median
of the per-pair ratios.  CPU time, not wall time: the machine is shared,
and CPU time is what the samples cost.  Figures, not a test.
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workloads", default="bt,cg,ft,mg,interp")
    ap.add_argument("--size", default="medium", help="medium (about 1 s plain) or 'N [STEPS]'")
    ap.add_argument("--hz", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=11, help="pairs per workload")
    a = ap.parse_args()
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
