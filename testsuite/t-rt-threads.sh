#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime: 8 pthreads x 100,000 calls (detached ones included) aggregate to
# exactly 800,000 calls, 100,000 per thread; pthread_exit with an open region.
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
rtcc threads "$RT/threads.c"
./threads || fail "run"
[ -f threads.prof ] || fail "no threads.prof: $(ls)"
pcheck threads.prof '
assert calls("work") == 800000, calls("work")
assert calls("leaf") == 800, calls("leaf")
per = sorted(n["calls"] for _, n in nodes("work"))
assert per == [100000] * 8, per
assert len(p["threads"]) == 10, len(p["threads"])
assert len({t["tid"] for t in p["threads"]}) == 10
for t, n in nodes("work"):
    assert path(t, n) == ("thread", "work"), path(t, n)
q = nodes("quitter")
assert len(q) == 1 and q[0][1]["calls"] == 1
assert 1.5e6 < q[0][1]["inclusive_ns"] < 1e9, q
assert p["complete"] is True
'
