"""check.py PROFILE [PYTHON-CODE] - load a selinst profile, check the
invariants every profile must keep, then run PYTHON-CODE (assertions) with:
  p          the parsed document
  regions    id -> region
  calls(n)   total calls of regions named n over all threads
  nodes(n)   list of (thread, node) for regions named n
  rid(n)     region id of name n
  path(t, node) tuple of region names from the root
  consistent() the times hold together (see below)
"""
import os, re, sys, yaml

# The version the runtime writes, from its one definition.
HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include",
                      "selinst-profile.h")
VERSION = int(re.search(r"^#define SELINST_PROFILE_VERSION (\d+)$", open(HEADER).read(),
                        re.M).group(1))
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
p = yaml.load(open(sys.argv[1]), Loader=Loader)
assert p["format"] == "selinst-profile" and p["version"] == VERSION, p["version"]
for k in ("program", "command", "pid", "rank", "size", "host", "start_time",
          "wall_seconds", "clock", "complete", "overflow", "regions", "threads"):
    assert k in p, "missing key " + k
assert p["clock"]["source"] in ("tsc", "monotonic")
assert p["clock"]["resolution_ns"] > 0 and p["clock"]["ticks_per_second"] > 0
regions = {r["id"]: r for r in p["regions"]}
assert sorted(regions) == list(range(len(regions))), "region ids not dense"
keys = [(r["kind"], r["name"], r["file"], r["line"]) for r in p["regions"]]
assert len(set(keys)) == len(keys), "duplicate regions"
for r in p["regions"]:
    assert r["kind"] in ("function", "loop", "manual", "mpi", "omp")
byid = {}
for t in p["threads"]:
    seen = {0: None}
    kids = {}
    tb = {}
    for n in t["nodes"]:
        assert n["id"] not in seen, ("duplicate node id", n)
        assert n["parent"] in seen, ("parent after child", n)
        assert n["region"] in regions, n
        assert n["calls"] >= 0 and n["inclusive_ns"] >= 0 and n["exclusive_ns"] >= 0, n
        assert n["exclusive_ns"] <= n["inclusive_ns"], n
        if regions[n["region"]]["kind"] != "mpi":
            assert "bytes_sent" not in n and "bytes_received" not in n, n
        seen[n["id"]] = n
        tb[n["id"]] = n
        sib = kids.setdefault(n["parent"], set())
        assert n["region"] not in sib, ("two children with one region", n)
        sib.add(n["region"])
    byid[t["index"]] = tb

def path(t, node):
    out = []
    tb = byid[t["index"]]
    while node:
        out.append(regions[node["region"]]["name"])
        node = tb.get(node["parent"])
    return tuple(reversed(out))

def nodes(name):
    return [(t, n) for t in p["threads"] for n in t["nodes"]
            if regions[n["region"]]["name"] == name]

def calls(name):
    return sum(n["calls"] for _, n in nodes(name))

def rid(name):
    return [r["id"] for r in p["regions"] if r["name"] == name][0]

def consistent():
    """Each node within its parent, exclusive within inclusive, and each
    thread's top-level regions (one after another) within the run."""
    # Written to the ns (%.9f): rounded back, not 0.9999999995 ns short of
    # a top-level region as long as the run (a forked child's, whose start
    # and open frames are both the fork's tick).
    wall = round(p["wall_seconds"] * 1e9)
    for t in p["threads"]:
        tb = byid[t["index"]]
        top = 0
        for n in t["nodes"]:
            par = tb.get(n["parent"])
            assert n["exclusive_ns"] <= n["inclusive_ns"], ("exclusive above inclusive", n)
            if par:
                assert n["inclusive_ns"] <= par["inclusive_ns"], ("child above parent", n, par)
            else:
                top += n["inclusive_ns"]
        assert top <= wall, ("thread's top-level regions above the run", t["index"], top, wall)

if len(sys.argv) > 2:
    exec(sys.argv[2], globals())
