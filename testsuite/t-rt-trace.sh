#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime, SELINST_MODE=trace (issue 17): an OTF2 archive PROG.trace/
# traces.otf2 beside the profile, one location per thread with every
# enter and leave (otf2-print), loops' iteration counts on their leaves;
# the profile is still written.  SELINST_TRACE_MB caps a thread's events
# and the rest are counted lost and reported; a bad SELINST_MODE or size is
# reported once and profile mode used; an unwritable trace is reported
# once and the exit status kept.
. "$(dirname "$0")/lib.sh"
# Every event kept: trace_prog calls leaf() and early() 100,000 times
# each, which the default throttle's early rule stops at 1,001 calls.
export SELINST_THROTTLE=off
. "$T/trace/trace.sh"

SELINST_MODE=trace ./tp threads 2> err.txt || fail "run: $(cat err.txt)"
[ -s err.txt ] && fail "unexpected output: $(cat err.txt)"
[ -f tp.prof ] || fail "no profile in trace mode"
[ -f tp.trace/traces.otf2 ] || fail "no trace archive"
otf2_counts tp.trace/traces.otf2 > counts.json
# main: work(2) (2 leaves); thread k: 100 x work(k + 1), in any order.
pairs=$(jq_py "sorted((v['ENTER work'], v['LEAVE work'], v['ENTER leaf'], v['LEAVE leaf']) for v in c.values())" < counts.json)
expect_eq "work and leaf enters/leaves per location" \
	"[(1, 1, 2, 2), (100, 100, 100, 100), (100, 100, 200, 200), (100, 100, 300, 300)]" "$pairs"
expect_eq "locations" 4 "$(jq_py 'len(c)' < counts.json)"
otf2-print -G tp.trace/traces.otf2 > defs.txt 2>&1 || fail "otf2-print -G"
[ "$(grep -c '^LOCATION ' defs.txt)" = 4 ] || fail "not 4 locations: $(grep '^LOCATION ' defs.txt)"
grep -q 'Role: LOOP' defs.txt || fail "no loop region"
# 3 trips: work(3)'s loop 100 times, main's create and join loops.
n=$(otf2-print tp.trace/traces.otf2 | grep -c '"iterations" <0>; UINT64; 3)')
expect_eq "loop leaves with 3 iterations" 102 "$n"
python3 - tp.prof > calls.txt <<'PY' || fail "reading the profile"
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))
ids = {r["id"] for r in p["regions"] if r["name"] == "leaf"}
print(sum(n["calls"] for t in p["threads"] for n in t["nodes"] if n["region"] in ids))
PY
expect_eq "profile's leaf calls" 602 "$(cat calls.txt)"

# A count too big for the event's 14 bits (a second record carries it).
SELINST_MODE=trace ./tp many
otf2-print tp.trace/traces.otf2 | grep -q '"iterations" <0>; UINT64; 100000)' \
	|| fail "loop of 100000 trips: $(otf2-print tp.trace/traces.otf2 | grep iterations | tail -3)"

# A second run replaces the archive.
SELINST_MODE=trace ./tp control 2> err.txt || fail "second run"
otf2_counts tp.trace/traces.otf2 | grep -q '"ENTER leaf"' && fail "old archive kept"

# SELINST_TRACE_MB=1: a thread's records past 1 MiB (131072 of 8 bytes)
# are written by the thread to its spill file (unnamed, beside the
# profile) and read back at the write: every event kept, nothing said.
rm -rf tp.trace tp.prof
SELINST_MODE=trace SELINST_TRACE_MB=1 ./tp many 2> err.txt
expect_eq "exit status (spilled)" 3 $?
[ -s err.txt ] && fail "spilled: unexpected output: $(cat err.txt)"
expect_eq "leaf enters, spilled" 100000 "$(otf2_counts tp.trace/traces.otf2 | jq_py "c['0']['ENTER leaf']")"
ls -a | grep -q selinst-spill && fail "a spill file left behind"

# The spill folder cannot be used (SELINST_TRACE_SPILL_DIR names a file):
# the events past 1 MiB are lost, counted and said once; what was kept
# (the first 16 chunks of 8191 events) nests.
rm -rf tp.trace tp.prof
SELINST_MODE=trace SELINST_TRACE_MB=1 SELINST_TRACE_SPILL_DIR=$PWD/err.txt ./tp many 2> err2.txt
expect_eq "exit status (lost events)" 3 $?
grep -q "tp.trace: [0-9]* events lost (cannot spill to $PWD/err.txt: Not a directory)" err2.txt \
	|| fail "lost events not reported: $(cat err2.txt)"
expect_eq "lines (lost events)" 1 "$(wc -l < err2.txt)"
n=$(otf2_counts tp.trace/traces.otf2 | jq_py "c['0']['ENTER leaf']")
[ "$n" -gt 65000 ] && [ "$n" -le 65528 ] || fail "leaf enters kept in 1 MiB: $n"

# The disk fills up: a tmpfs of 128 KiB as the spill folder (in a user
# and mount namespace) takes two chunks, then ENOSPC: the rest lost, said
# once, the exit status kept; the two spilled chunks are in the trace.
mkdir -p spill
if unshare -rm true 2>/dev/null; then
	rm -rf tp.trace tp.prof
	unshare -rm sh -c 'mount -t tmpfs -o size=128k tmpfs spill || exit 99
		SELINST_MODE=trace SELINST_TRACE_MB=1 SELINST_TRACE_SPILL_DIR=spill ./tp many' 2> err2.txt
	rc=$?
	[ $rc = 99 ] && echo "note: no tmpfs in a user namespace here: disk-full case skipped"
	if [ $rc != 99 ]; then
		expect_eq "exit status (disk full)" 3 $rc
		grep -q "events lost (cannot spill to $PWD/spill: No space left on device)" err2.txt \
			|| fail "disk full not reported: $(cat err2.txt)"
		expect_eq "lines (disk full)" 1 "$(wc -l < err2.txt)"
		n=$(otf2_counts tp.trace/traces.otf2 | jq_py "c['0']['ENTER leaf']")
		[ "$n" -gt 73000 ] && [ "$n" -le 73719 ] || fail "leaf enters kept, 1 MiB + 2 chunks spilled: $n"
	fi
else
	echo "note: unshare -rm not permitted here: disk-full case skipped"
fi

# Dumps while a thread records and spills (SELINST_TRACE_MB=1, 7 records
# a work(1) call: 2.1M in all, 16 rounds of the ring; the throttle off):
# each dump's trace pairs up and holds every call the thread finished
# before the dump began, in order; the exit's holds them all
# (check_busy; t-rt-trace-busy.sh has dumps that meet slow spills).
rm -rf tp.trace busy*.trace
SELINST_THROTTLE=off SELINST_MODE=trace SELINST_TRACE_MB=1 ./tp busy > out.txt 2> err.txt ||
	fail "busy run: $(cat err.txt)"
[ -s err.txt ] && fail "busy: unexpected output: $(cat err.txt)"
check_busy busy

# Bad values: one line each, profile mode.
for bad in "SELINST_MODE=tracing" "SELINST_TRACE_MB=0" "SELINST_TRACE_MB=-5" "SELINST_FLIGHT_MB=x" "SELINST_TRACE_AFTER=soon" "SELINST_TRACE_FOR=-1"; do
	rm -rf tp.trace tp.prof
	env SELINST_MODE=trace "$bad" ./tp threads 2> err.txt || fail "$bad: run"
	expect_eq "$bad: warnings" 1 "$(grep -c "using profile mode" err.txt)"
	expect_eq "$bad: lines" 1 "$(wc -l < err.txt)"
	[ -f tp.prof ] || fail "$bad: no profile"
	[ -e tp.trace ] && fail "$bad: a trace in profile mode"
done

# The trace cannot be written (its folder's name is a file): reported
# once, the profile written, the exit status kept.
rm -rf tp.trace tp.prof
echo x > tp.trace
SELINST_MODE=trace ./tp many 2> err.txt
expect_eq "exit status (unwritable trace)" 3 $?
expect_eq "reports" 1 "$(grep -c 'cannot write trace tp.trace' err.txt)"
expect_eq "lines" 1 "$(wc -l < err.txt)"
[ -f tp.prof ] || fail "no profile beside an unwritable trace"

# Many short threads: each keeps its events, in the pages it used only
# (a whole MiB per thread would be 4 GB over these 4,000).
# model=paper: the tiny thread function is a region (small-body leaves it out).
si_cc -O2 -fplugin-arg-selinst-model=paper -fplugin-arg-selinst-threshold=0 "$T/programs/thread_churn.c" -o churn -pthread \
	|| fail "compile thread_churn"
SELINST_MODE=trace ./churn 5000 2> err.txt || fail "churn run: $(cat err.txt)"
growth=$(sed -n 's/rss growth over the last [0-9]* threads: \([0-9]*\) KB.*/\1/p' err.txt)
[ "$growth" -lt 100000 ] || fail "trace mode: peak RSS grew by $growth KB over 4,000 ended threads"
n=$(otf2-print -G churn.trace/traces.otf2 | grep -c '^LOCATION ')
expect_eq "locations of 5000 threads and main" 5001 "$n"

# The static runtime writes no trace: it says so once and makes nothing.
gcc -O2 $SI_CFLAGS -pthread "$T/programs/trace_prog.c" "$SELINST_BUILD/libselinst.a" -lyaml \
	-o tps || fail "compile static"
SELINST_MODE=trace ./tps threads 2> err.txt || fail "static run"
expect_eq "static: lines" 1 "$(grep -c 'a trace is written by libselinst.so only' err.txt)"
[ -e tps.trace ] && fail "static: a trace folder made"
[ -f tps.prof ] || fail "static: no profile"
echo "ok"
