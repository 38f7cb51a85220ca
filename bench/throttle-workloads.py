#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The bench workloads at threshold 0 under two throttle settings, natively
(bench/README.md, "Throttle dial"): what the default's early rule changes.

usage: python3 bench/throttle-workloads.py [WORKLOAD...]   (default: all five)

Runs build/bench/W/selinst-full (build it first: python3 bench/overhead.py
--mode cpu --runs 1 --size small --variants "plain,selinst full") at size
medium, RUNS times (env, default 3) each with SELINST_THROTTLE=off, with
TAU's rule (100000:10000) and with the runtime's default, SELINST_SAMPLE=1000,
and prints per setting: CPU time (mean of the runs), regions switched off
(those before their 100,001st call), the share of all calls not counted
(against the unthrottled run), the largest exclusive share and the top 5
by inclusive time (CPU-time samples, real-projects-table.py's way) with
their rank in the unthrottled run.  Natively: under valgrind the time
rules see a clock some 90 times slower.
"""
import importlib.util
import os
import resource
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(os.path.dirname(HERE), "build")
_spec = importlib.util.spec_from_file_location("rpt", os.path.join(HERE, "real-projects-table.py"))
rpt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rpt)
_spec = importlib.util.spec_from_file_location("overhead", os.path.join(HERE, "overhead.py"))
overhead = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(overhead)
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SETTINGS = [("off", "off"), ("100000:10000", "100000:10000"), ("default", None)]


def run(w, value, prof):
    """One run; its CPU seconds."""
    env = dict(os.environ, SELINST_SAMPLE="1000", SELINST_OUTPUT=prof)
    env.pop("SELINST_THROTTLE", None)
    if value:
        env["SELINST_THROTTLE"] = value
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([os.path.join(BUILD, "bench", w, "selinst-full")] + overhead.MEDIUM[w],
                   env=env, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def calls_and_switches(path):
    """Calls per region (kind, name) and the calls at each switch-off."""
    with open(path) as f:
        d = yaml.load(f, Loader=Loader)
    by_id = {}
    for t in d["threads"]:
        for n in t["nodes"]:
            by_id[n["region"]] = by_id.get(n["region"], 0) + n["calls"]
    calls = {(r["kind"], r["name"]): by_id.get(r["id"], 0) for r in d["regions"]}
    off = {(r["kind"], r["name"]): r["throttled"]["calls"] for r in d["regions"] if r.get("throttled")}
    return calls, off


def measure(w, tmp, runs):
    out = {}
    for label, value in SETTINGS:
        profs = [os.path.join(tmp, "%s-%s-%d.prof" % (w, label.replace(":", "_"), k)) for k in range(runs)]
        cpu = sum(run(w, value, p) for p in profs) / runs
        regs = rpt.by_samples(rpt.profile(os.path.join(BUILD, "selinst-report"), profs[:1]),
                              rpt.cpu_samples([[p] for p in profs]))
        out[label] = (cpu, regs) + calls_and_switches(profs[0])
    return out


def main():
    runs = int(os.environ.get("RUNS", "3"))
    with tempfile.TemporaryDirectory() as tmp:
        for w in sys.argv[1:] or overhead.WORKLOADS:
            got = measure(w, tmp, runs)
            full = rpt.top(got["off"][1], 10 ** 6)
            rank = {r["name"]: i + 1 for i, r in enumerate(full)}
            all_calls = got["off"][2]
            print("\n%s (unthrottled: CPU %.3f s, top 5 %s)" % (w, got["off"][0], ", ".join(r["name"] for r in full[:5])))
            for label, _ in SETTINGS[1:]:
                cpu, regs, calls, off = got[label]
                share, who = rpt.max_exclusive_share(regs)
                top5 = [r["name"] for r in rpt.top(regs, 5)]
                lost = sum(all_calls.get(k, 0) - calls.get(k, 0) for k in off)
                print("  %-13s CPU %.3f s  switched off %d (%d before 100,001)  calls not counted %.1f%%"
                      "  largest %.0f%% %s  top 5 in the unthrottled top 5: %d/5 (%s)" % (
                          label, cpu, len(off), sum(1 for c in off.values() if c < 100001),
                          100.0 * lost / max(sum(all_calls.values()), 1), 100 * share, who,
                          sum(1 for n in top5 if rank.get(n, 99) <= 5),
                          ", ".join("%s #%s" % (n, rank.get(n, "-")) for n in top5)))


if __name__ == "__main__":
    main()
