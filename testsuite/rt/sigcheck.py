"""sigcheck.py [--jump LINE] PROFILE... - checks for signals that land in
a hook (issue 11 D and E; testsuite/programs/signal_window.c).

Every thread of every profile: children's inclusive times sum to at most
their parent's, no inclusive time above the run's wall time, exclusive
within inclusive.  With --jump LINE (what `signal_window jump N` printed:
"mid M leaf L spin S jumps J"), for each profile also: calls of mid, leaf
and spin exact up to the jumps (a call whose enter hook was cut may be
counted without its body having run), mid holding at least half its
caller's time and leaf a tenth of mid's.  Prints each violation; exit
status 1 if any."""
import sys, yaml

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
args = sys.argv[1:]
body = None
if args[:1] == ["--jump"]:
    out = args[1].split()
    body = {out[k]: int(out[k + 1]) for k in range(0, len(out), 2)}
    args = args[2:]
bad = 0


def complain(msg):
    global bad
    bad += 1
    print(msg)


def check_jump(f, p, name):
    calls, incl = {}, {}
    for t in p["threads"]:
        for n in t["nodes"]:
            k = name[n["region"]]
            calls[k] = calls.get(k, 0) + n["calls"]
            incl[k] = incl.get(k, 0) + n["inclusive_ns"]
    for k in ("mid", "leaf", "spin"):
        if not 0 <= calls.get(k, 0) - body[k] <= body["jumps"]:
            complain("%s: %s: %d calls in the profile, %d bodies ran, %d jumps" % (f, k, calls.get(k, 0), body[k], body["jumps"]))
    if incl["mid"] < 0.5 * incl["spin"]:
        complain("%s: mid's inclusive %d ns is under half its caller spin's %d ns" % (f, incl["mid"], incl["spin"]))
    if incl["leaf"] < 0.1 * incl["mid"]:
        complain("%s: leaf's inclusive %d ns is under a tenth of mid's %d ns" % (f, incl["leaf"], incl["mid"]))


for f in args:
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
                complain("%s: thread %d: %s inclusive %d ns, %s" % (f, t["index"], name[n["region"]], n["inclusive_ns"], what))
    if body:
        check_jump(f, p, name)
sys.exit(1 if bad else 0)
