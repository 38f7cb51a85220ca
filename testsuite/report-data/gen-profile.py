#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Synthetic selinst profiles (format v1, doc/profile-format.md) for the
report's tests and benchmark.

    gen-profile.py [--paths N] [--threads T] [--rank R --size S] [--seed X]
                   [--struct-seed Y] [--regions K] [--flow] -o FILE

The tree shape depends only on --struct-seed (so ranks of one run share
their call paths, as SPMD programs do); times and counts depend on --seed.
Every 5th region is a loop (named file:line, with iterations and a
trip-count histogram).  Nodes are written in preorder with exclusive =
inclusive - sum(children inclusive), as the runtime writes them, and the
file ends with the end marker `end: true`.
"""
import argparse, os, random, re, sys

# The format's facts come from the header the runtime and the report
# include, so a change there reaches the generator too.
HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "..", "..", "include", "selinst-profile.h")

def header_defines():
    d = {}
    with open(HEADER) as f:
        for m in re.finditer(r'^#define\s+(SELINST_\w+)\s+(\S+)\s*$', f.read(), re.M):
            d[m.group(1)] = m.group(2).strip('"')
    return d

DEF = header_defines()
TRIP_EXACT = int(DEF["SELINST_TRIP_EXACT"])

def bucket(n):
    if n < TRIP_EXACT:
        return str(n)
    k = n.bit_length() - 1
    return "%d-%d" % (1 << k, (1 << (k + 1)) - 1)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--paths", type=int, default=100)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rank", type=int, default=None)
    ap.add_argument("--size", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--struct-seed", type=int, default=7)
    ap.add_argument("--regions", type=int, default=0, help="0: paths/14+4")
    ap.add_argument("--max-depth", type=int, default=24)
    ap.add_argument("--flow", action="store_true", help="flow-style nodes")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()

    srng = random.Random(a.struct_seed)
    nreg = a.regions or max(4, a.paths // 14 + 4)
    regions = []
    for i in range(nreg):
        f = "src%d.c" % (i % 7)
        line = 10 + 3 * i
        if i % 5 == 4:
            regions.append(("%s:%d" % (f, line), "loop", f, line, "fn%d" % (i - 1)))
        else:
            regions.append(("fn%d" % i, "function", f, line, None))
    # tree: node 0 is the root (region 0 = main).  Each new node hangs under
    # the last node or one of its ancestors (a few levels up), so paths look
    # like a real program's: depth stays within --max-depth.  A (parent,
    # region) pair is unique, as in the runtime's calling-context tree.
    parent = [-1]
    region = [0]
    depth = [0]
    kids = [[]]
    used = set()
    last = 0
    while len(parent) < a.paths:
        p = last
        for _ in range(int(srng.expovariate(0.8))):
            if parent[p] >= 0:
                p = parent[p]
        while depth[p] >= a.max_depth:
            p = parent[p]
        r = srng.randrange(1, nreg)
        if (p, r) in used:
            last = srng.randrange(len(parent))
            continue
        used.add((p, r))
        parent.append(p)
        region.append(r)
        depth.append(depth[p] + 1)
        kids.append([])
        kids[p].append(len(parent) - 1)
        last = len(parent) - 1
    order = []
    stack = [0]
    while stack:
        n = stack.pop()
        order.append(n)
        stack.extend(reversed(kids[n]))

    rng = random.Random(a.seed)
    out = []
    w = out.append
    w("format: %s\nversion: %s\nprogram: /opt/app/bin/synth\n"
      % (DEF["SELINST_PROFILE_FORMAT"], DEF["SELINST_PROFILE_VERSION"]))
    w('command: "./synth --paths %d"\n' % a.paths)
    w("pid: %d\n" % (1000 + (a.rank or 0)))
    w("rank: %s\nsize: %s\n" % ("~" if a.rank is None else a.rank,
                                "~" if a.size is None else a.size))
    w('host: node%d\nstart_time: "2026-11-22T22:40:00Z"\n' % ((a.rank or 0) // 16))
    w("wall_seconds: 2.5\nclock:\n  source: tsc\n  resolution_ns: 0.4\n"
      "  ticks_per_second: 2500000000\ncomplete: true\noverflow: false\nregions:\n")
    for i, (name, kind, f, line, fn) in enumerate(regions):
        w('  - id: %d\n    name: "%s"\n    kind: %s\n    file: %s\n    line: %d\n'
          % (i, name, kind, f, line))
        if fn:
            w("    function: %s\n" % fn)
    w("threads:\n")
    for t in range(a.threads):
        w("  - index: %d\n    tid: %d\n    nodes:\n" % (t, 1000 + (a.rank or 0) * 100 + t))
        excl = [rng.randrange(1000, 2000000) for _ in parent]
        incl = list(excl)
        for n in reversed(order):
            if parent[n] >= 0:
                incl[parent[n]] += incl[n]
        nid = {}
        for k, n in enumerate(order):
            nid[n] = k + 1
        for n in order:
            p = 0 if parent[n] < 0 else nid[parent[n]]
            calls = 1 if parent[n] < 0 else rng.randrange(1, 5000)
            reg = regions[region[n]]
            extra = ""
            if reg[1] == "loop":
                trips = {}
                its = 0
                for _ in range(min(calls, 3)):
                    c = rng.choice((0, 3, 10, 100, 1000))
                    trips[bucket(c)] = trips.get(bucket(c), 0) + 1
                    its += c
                # remaining entries all run 10 iterations
                if calls > 3:
                    trips[bucket(10)] = trips.get(bucket(10), 0) + calls - 3
                    its += 10 * (calls - 3)
                tc = ", ".join('"%s": %d' % kv for kv in sorted(trips.items()))
                if a.flow:
                    extra = ", iterations: %d, trip_counts: {%s}" % (its, tc)
                else:
                    extra = "\n        iterations: %d\n        trip_counts: {%s}" % (its, tc)
            if a.flow:
                w("      - {id: %d, parent: %d, region: %d, calls: %d, inclusive_ns: %d, exclusive_ns: %d%s}\n"
                  % (nid[n], p, region[n], calls, incl[n], excl[n], extra))
            else:
                w("      - id: %d\n        parent: %d\n        region: %d\n        calls: %d\n"
                  "        inclusive_ns: %d\n        exclusive_ns: %d%s\n"
                  % (nid[n], p, region[n], calls, incl[n], excl[n], extra))
        w("    overflow_calls: 0\n")
    w("end: true\n")
    data = "".join(out)
    if a.output == "-":
        sys.stdout.write(data)
    else:
        with open(a.output, "w") as f:
            f.write(data)

main()
