#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime: loop hooks record entries, the iteration sum and the trip-count
# histogram (0..15 exact, then powers of two), per calling context.
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
rtcc misc "$RT/misc.c"
./misc loops || fail "run"
pcheck misc.prof '
trips = [0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 1000, 1 << 20, (1 << 40) + 5, 2**64 - 1]
def bucket(n):
    if n < 16: return str(n)
    k = n.bit_length() - 1
    return "%d-%d" % (2**k, 2**(k + 1) - 1)
want = {}
for t in trips:
    want[bucket(t)] = want.get(bucket(t), 0) + 3
want["0"] += 4 + 1        # 4 zero-trip entries; 1 left by return, closed with its cell (0)
(t, l), = nodes("rt.c:20")
assert l["calls"] == 3 * len(trips) + 4 + 1, l["calls"]
assert l["iterations"] == sum(3 * x for x in trips) % 2**64, l["iterations"]
assert l["trip_counts"] == want, (l["trip_counts"], want)
assert regions[l["region"]]["kind"] == "loop" and regions[l["region"]]["function"] == "main"
(t, f), = nodes("f")
assert path(t, f) == ("main", "rt.c:20", "f") and f["calls"] == 3 * len(trips)
'
