# SPDX-License-Identifier: MIT
"""Trace checks for the t-*trace*.sh tests.

  check.py perfetto FILE.json   validate a Chrome trace-event timeline
      (B/E nest per (pid, tid) track, timestamps never go back, every B
      closed); print {"pid/tid": {region: begins}} as JSON.
  check.py otf2 ARCHIVE         run otf2-print; print
      {"location": {"ENTER region": n, "LEAVE region": n}} as JSON, and
      fail when a location's enters and leaves do not pair up.
"""
import collections, json, re, subprocess, sys


def perfetto(path):
    doc = json.load(open(path))
    evs = doc["traceEvents"]
    stacks, last, counts = {}, {}, collections.defaultdict(collections.Counter)
    for e in evs:
        if e["ph"] == "M":
            continue
        assert e["ph"] in "BE", e
        key = "%s/%s" % (e["pid"], e["tid"])
        assert isinstance(e["ts"], (int, float)), e
        assert e["ts"] >= last.get(key, float("-inf")), ("ts goes back", e, last[key])
        last[key] = e["ts"]
        st = stacks.setdefault(key, [])
        if e["ph"] == "B":
            st.append(e["name"])
            counts[key][e["name"]] += 1
        else:
            assert st and st[-1] == e["name"], ("E does not match", e, st[-3:])
            st.pop()
    for key, st in stacks.items():
        assert not st, ("left open", key, st)
    print(json.dumps(counts, sort_keys=True))


def otf2(path):
    out = subprocess.run(["otf2-print", path], check=True, capture_output=True, text=True).stdout
    counts = collections.defaultdict(collections.Counter)
    depth = collections.Counter()
    for line in out.splitlines():
        m = re.match(r'(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "([^"]*)"', line)
        if not m:
            continue
        kind, loc, _, region = m.groups()
        counts[loc][kind + " " + region] += 1
        depth[loc] += 1 if kind == "ENTER" else -1
        assert depth[loc] >= 0, ("LEAVE without ENTER", line)
    for loc, d in depth.items():
        assert d == 0, ("unbalanced location", loc, d)
    print(json.dumps(counts, sort_keys=True))


if __name__ == "__main__":
    {"perfetto": perfetto, "otf2": otf2}[sys.argv[1]](sys.argv[2])
