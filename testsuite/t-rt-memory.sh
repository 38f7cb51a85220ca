#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime: a program with 1,000,000 distinct call paths runs and writes its
# profile; SELINST_MAX_NODES bounds a thread's tree (overflow node, flagged).
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
rtcc misc "$RT/misc.c"
start=$(date +%s%N)
./misc paths 1000 || fail "run (1M paths)"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "1,001,001 nodes: run and write took $ms ms, profile $(stat -c %s misc.prof) bytes"
n=$(grep -c '^  - {id: ' misc.prof)
expect_eq "nodes written" 1001001 "$n"
grep -q '^overflow: false' misc.prof || fail "overflow flagged"
grep -q '^complete: true' misc.prof || fail "not complete"
tail -1 misc.prof | grep -qx 'end: true' || fail "file ends early (no end marker): $(tail -c 200 misc.prof)"
# the last thread's last key (sample_modules may follow the threads)
grep -E '^(  overflow_calls:|[a-z_]+:)' misc.prof | grep -B1 -m1 -E '^(sample_modules|end):' | head -1 |
	grep -q 'overflow_calls: 0' || fail "last thread cut short: $(tail -c 200 misc.prof)"
rm -f misc.prof

# Budget of 100 nodes: the rest is counted in the overflow node.
SELINST_MAX_NODES=100 ./misc paths 30 || fail "run (budget)"
pcheck misc.prof '
assert p["overflow"] is True
t = p["threads"][0]
assert len(t["nodes"]) == 101, len(t["nodes"])
(ot, o), = nodes("[overflow]")
assert o["parent"] == 0 and regions[o["region"]]["line"] == 0
assert t["overflow_calls"] == o["calls"]
total = sum(n["calls"] for n in t["nodes"])
assert total == 1 + 2 * (30 + 30 * 30), total
assert o["calls"] > 0
'
SELINST_MAX_NODES=junk ./misc plain 2> err.txt || fail "bad SELINST_MAX_NODES run"
grep -q 'SELINST_MAX_NODES=junk' err.txt || fail "no warning for a bad SELINST_MAX_NODES: $(cat err.txt)"
# Negative, zero, too large: a warning (which says why) and the default.
for v in -5:'not a positive integer' +5:'not a positive integer' 0:'out of range (1..4294967294)' \
	 4294967295:'out of range (1..4294967294)' 99999999999999999999:'out of range (1..4294967294)'; do
	SELINST_MAX_NODES=${v%%:*} ./misc paths 30 2> err.txt || fail "SELINST_MAX_NODES=${v%%:*} run"
	grep -qF "SELINST_MAX_NODES=${v%%:*} is ${v#*:}; using 4194304" err.txt ||
		fail "SELINST_MAX_NODES=${v%%:*}: expected '${v#*:}' warning: $(cat err.txt)"
	pcheck misc.prof 'assert p["overflow"] is False and len(p["threads"][0]["nodes"]) == 1 + 30 + 30 * 30'
done
SELINST_MAX_NODES=4294967294 ./misc plain 2> err.txt || fail "largest SELINST_MAX_NODES run"
[ ! -s err.txt ] || fail "warning for a valid SELINST_MAX_NODES: $(cat err.txt)"
exit 0
