#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime, SELINST_MODE=flight (issue 17): a ring of SELINST_FLIGHT_MB per
# thread keeps the last events only, written at exit, by selinst_dump
# (beside the dump) and on a fatal signal; what it keeps nests (a leave
# whose enter was overwritten is dropped).
. "$(dirname "$0")/lib.sh"
# Every event kept: trace_prog calls leaf() and early() 100,000 times
# each, which the default throttle's early rule stops at 1,001 calls.
export SELINST_THROTTLE=off
. "$T/trace/trace.sh"

# 1 MiB = 131072 records of 8 bytes, in 16 chunks each starting with its
# time base: the ring keeps the last 15 to 16 chunks (122865 to 131056
# events) of 100000 early() pairs then 1000 late() pairs.
SELINST_MODE=flight SELINST_FLIGHT_MB=1 ./tp flight 2> err.txt
expect_eq "exit status" 3 $?
[ -s err.txt ] && fail "unexpected output: $(cat err.txt)"
for t in tp.trace dump.trace; do
	otf2_counts $t/traces.otf2 > c.json
	late=$(jq_py "c['0']['ENTER late'], c['0']['LEAVE late']" < c.json | tr -d '(),')
	expect_eq "$t: late() kept" "1000 1000" "$late"
	early=$(jq_py "c['0']['ENTER early']" < c.json)
	[ "$early" -gt 60000 ] && [ "$early" -lt 64600 ] || fail "$t: early() enters kept: $early"
	[ "$(jq_py "c['0'].get('ENTER main', 0)" < c.json)" = 0 ] || fail "$t: main's enter was overwritten"
done
n=$(otf2-print -G tp.trace/traces.otf2 | sed -n 's/^LOCATION .*# Events: \([0-9]*\).*/\1/p')
[ "${n:-0}" -ge 122000 ] && [ "$n" -le 131056 ] || fail "not 122000 to 131056 events: $n"

# Fatal signal: abort() after 100 late() calls.
rm -rf tp.trace
SELINST_MODE=flight ./tp crash 2> err.txt
expect_eq "exit status (abort)" 134 $?
otf2_counts tp.trace/traces.otf2 > c.json
expect_eq "late() before the abort" 100 "$(jq_py "c['0']['ENTER late']" < c.json)"
echo ok
