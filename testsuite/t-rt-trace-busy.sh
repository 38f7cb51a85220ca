#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime, trace mode: dumps (selinst_dump) while a thread records and
# spills its ring (SELINST_TRACE_MB=1: 16 chunks; ./tp busy: 300000
# work(1) calls, about 240 chunks spilled).  Each dump holds, in order,
# every call the thread had finished before the dump began (the program
# prints that number before each dump): work and leaf enters within one
# of each other, never fewer than the dump before; the exit's trace holds
# all 300000.
# Each 64 KiB write (a spill) sleeps first (slow_spill.so), as under
# writeback pressure or preemption: a dump then nearly always meets the
# thread in the middle of a spill.  The runtime before this test gave up
# after 100 quick attempts to read such a ring and wrote no events of the
# thread at all (t-rt-trace's busy2 once held fewer calls than busy1).
. "$(dirname "$0")/lib.sh"
. "$T/trace/trace.sh"
gcc -O2 -Wall -shared -fPIC "$T/programs/slow_spill.c" -o slow_spill.so || fail "compile slow_spill"

# Slow spills: 2 ms each, about 0.5 s a run, little CPU.  The exit's
# trace (2.1M events) is read once: t-rt-trace reads it too, and has a
# run at full speed.
for run in 1 2 3; do
	rm -rf ./*.trace ./*.prof
	LD_PRELOAD=$PWD/slow_spill.so SLOW_SPILL_US=2000 SELINST_THROTTLE=off SELINST_MODE=trace \
		SELINST_TRACE_MB=1 ./tp busy > out.txt 2> err.txt || fail "run $run: $(cat err.txt)"
	[ -s err.txt ] && fail "run $run: unexpected output: $(cat err.txt)"
	check_busy "run $run" $([ $run = 1 ] || echo dumps)
done
echo "ok"
