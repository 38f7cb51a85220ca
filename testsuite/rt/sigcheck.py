"""sigcheck.py PROFILE... - times consistent in every thread of every
profile (issue 11 D and E): children's inclusive times sum to at most
their parent's, no inclusive time above the run's wall time, exclusive
within inclusive.  Prints each violation; exit status 1 if any."""
import sys, yaml

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
bad = 0
for f in sys.argv[1:]:
    p = yaml.load(open(f), Loader=Loader)
    name = {r["id"]: r["name"] for r in p["regions"]}
    wall = p["wall_seconds"] * 1e9 * 1.001 + 1e5
    for t in p["threads"]:
        kids = {}
        for n in t["nodes"]:
            kids[n["parent"]] = kids.get(n["parent"], 0) + n["inclusive_ns"]
        for n in t["nodes"]:
            what = None
            if kids.get(n["id"], 0) > n["inclusive_ns"] * 1.001 + 1000:
                what = "children %d ns" % kids[n["id"]]
            elif n["inclusive_ns"] > wall:
                what = "above the wall time %d ns" % wall
            elif n["exclusive_ns"] > n["inclusive_ns"]:
                what = "exclusive %d ns" % n["exclusive_ns"]
            if what:
                bad += 1
                print("%s: thread %d: %s inclusive %d ns, %s" % (f, t["index"], name[n["region"]], n["inclusive_ns"], what))
sys.exit(1 if bad else 0)
