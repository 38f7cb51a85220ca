#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime: control API (nested pause/resume, dump snapshot, manual regions
# from two threads merged by name) and descriptors of a foreign ABI version.
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
rtcc misc "$RT/misc.c"
./misc control || fail "run"
pcheck misc.prof '
(t, f), = [(t, n) for t, n in nodes("f") if path(t, n) == ("main", "f")]
assert f["calls"] == 2, f      # two outside the pause; none while paused
assert calls("g") == 1, calls("g")   # the one entered after the pause
assert calls("phase") == 20 and calls("inner") == 20 and calls("f") == 2 + 20
assert len([r for r in p["regions"] if r["name"] == "phase"]) == 1
r = regions[rid("phase")]
assert r["kind"] == "manual", r
for t, n in nodes("f"):
    assert path(t, n) in (("main", "f"), ("phase", "inner", "f")), path(t, n)
assert p["complete"] is True
'
pcheck snap.prof '
assert p["complete"] is False
(t, g), = nodes("g")
assert g["calls"] == 1 and g["inclusive_ns"] >= 0
(t, m), = nodes("main")
assert m["inclusive_ns"] > 0   # open regions counted up to the snapshot
'
./misc abi 2> err.txt || fail "abi run"
n=$(grep -c 'another ABI version' err.txt)
expect_eq "ABI warnings" 1 "$n"
pcheck misc.prof '
assert "bad" not in [r["name"] for r in p["regions"]]
(t, f), = nodes("f")
assert f["calls"] == 3 and path(t, f) == ("main", "f")
'
