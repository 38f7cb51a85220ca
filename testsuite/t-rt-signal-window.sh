#!/bin/bash
# Runtime (issue 11 D, E): signals that land inside a hook.
#  D: a 100 us interval timer whose handler siglongjmps to a sigsetjmp in
#     the caller of a loop over mid(20), 2000 times: a jump out of a
#     half-done hook must not leave a count off for good (before: mid's
#     `active` stuck, its inclusive time stopped growing at ~5% of its
#     caller's).  Calls are exact up to the jumps (a call whose enter hook
#     was cut may be counted without its body having run), times
#     consistent, and mid and leaf hold the time their callers spent in
#     them.
#  E: a handler that grows the region stack while it interrupts a hook
#     (20 threads, each 240 deep when the signal comes; the handler
#     recurses 400 deep): the program runs to its end and every profile,
#     snapshot included, stays consistent.
# t-rt-signal-stress.sh repeats both many times.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml missing"
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loops=off -pthread \
	"$T/programs/signal_window.c" -o sw || fail "compile"

# check_jump PROFILE OUTPUT-LINE
check_jump() {
	python3 "$T/rt/sigcheck.py" "$1" || fail "D: inconsistent times in $1"
	python3 - "$1" "$2" <<'PY' || fail "D: $1"
import sys, yaml
p = yaml.load(open(sys.argv[1]), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
out = sys.argv[2].split()
body = {out[i]: int(out[i + 1]) for i in range(0, len(out), 2)}
name = {r["id"]: r["name"] for r in p["regions"]}
calls, incl = {}, {}
for t in p["threads"]:
    for n in t["nodes"]:
        k = name[n["region"]]
        calls[k] = calls.get(k, 0) + n["calls"]
        incl[k] = incl.get(k, 0) + n["inclusive_ns"]
for f in ("mid", "leaf", "spin"):
    extra = calls[f] - body[f]
    assert 0 <= extra <= body["jumps"], "%s: %d calls in the profile, %d bodies ran, %d jumps" % (f, calls[f], body[f], body["jumps"])
assert incl["mid"] >= 0.5 * incl["spin"], "mid's inclusive %d ns is under half its caller spin's %d ns" % (incl["mid"], incl["spin"])
assert incl["leaf"] >= 0.1 * incl["mid"], "leaf's inclusive %d ns is under a tenth of mid's %d ns" % (incl["leaf"], incl["mid"])
PY
}

line=$(SELINST_OUTPUT=$WORK/jump.prof ./sw jump 2000) || fail "D: sw jump exited with $?"
echo "D: $line"
check_jump jump.prof "$line"

out=$(SELINST_OUTPUT=$WORK/grow.prof ./sw grow 20) || fail "E: sw grow exited with $?"
expect_eq "E: handlers run" "handled 20" "$out"
for i in 1 2 3 4 5; do
	out=$(SELINST_OUTPUT=$WORK/growmain.$i.prof ./sw growmain 0) || fail "E: sw growmain exited with $?"
	expect_eq "E: handlers run (main)" "handled 1" "$out"
	mv signal_window.snap.prof snap.$i.prof || fail "E: no snapshot"
done
python3 "$T/rt/sigcheck.py" grow.prof growmain.*.prof snap.*.prof || fail "E: inconsistent times"
# Each snapshot sees main's open regions (a stale top would hide them).
for i in 1 2 3 4 5; do
	python3 "$T/rt/check.py" snap.$i.prof '
(t, m), = nodes("run_grow_main")
assert m["calls"] == 1 and m["inclusive_ns"] > 0, m
assert calls("deep") == 401 * calls("on_usr1"), (calls("deep"), calls("on_usr1"))
' || fail "E: snapshot $i"
done
exit 0
