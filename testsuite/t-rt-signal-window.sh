#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime (issue 11 D, E): signals that land inside a hook.
#  D: a 100 us interval timer whose handler siglongjmps to a sigsetjmp in
#     the caller of a loop over mid(20), 2000 times: a jump out of a
#     half-done hook must not leave a count off for good (before: leaf's
#     or mid's `active` stuck, its inclusive time stopped growing at a few
#     percent of its caller's).  testsuite/rt/sigcheck.py --jump: calls
#     exact up to the jumps, times consistent, mid and leaf holding the
#     time their callers spent in them.
#  E: a handler that grows the region stack while it interrupts a hook
#     (20 threads, each 240 deep when the signal comes; the handler
#     recurses 400 deep): the program runs to its end and every profile,
#     snapshot included, stays consistent.
# Both without and with SELINST_SAMPLE (issue 14, point 4: the sample
# timer's signal lands in the hooks too, and in the handlers above).
# t-rt-signal-stress.sh repeats both many times.
. "$(dirname "$0")/lib.sh"
# Every call counted (the default throttle would switch the hot
# regions off after 100,000 calls: t-rt-throttle.sh).
export SELINST_THROTTLE=off
command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml missing"
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loops=off -pthread \
	"$T/programs/signal_window.c" -o sw || fail "compile"

for S in off 20000; do
	if [ $S = off ]; then unset SELINST_SAMPLE; else export SELINST_SAMPLE=$S; fi
	rm -f ./*.prof
	line=$(SELINST_OUTPUT=$WORK/jump.prof ./sw jump 2000) || fail "$S D: sw jump exited with $?"
	echo "$S D: $line"
	python3 "$T/rt/sigcheck.py" --jump "$line" jump.prof || fail "$S D: see above"

	out=$(SELINST_OUTPUT=$WORK/grow.prof ./sw grow 20) || fail "$S E: sw grow exited with $?"
	expect_eq "$S E: handlers run" "handled 20" "$out"
	for i in 1 2 3 4 5; do
		out=$(SELINST_OUTPUT=$WORK/growmain.$i.prof ./sw growmain 0) || fail "$S E: sw growmain exited with $?"
		expect_eq "$S E: handlers run (main)" "handled 1" "$out"
		mv signal_window.snap.prof snap.$i.prof || fail "$S E: no snapshot"
	done
	python3 "$T/rt/sigcheck.py" grow.prof growmain.*.prof snap.*.prof || fail "$S E: inconsistent times"
	# Each snapshot sees main's open regions (a stale top would hide them).
	for i in 1 2 3 4 5; do
		python3 "$T/rt/check.py" snap.$i.prof '
(t, m), = nodes("run_grow_main")
assert m["calls"] == 1 and m["inclusive_ns"] > 0, m
assert calls("deep") == 401 * calls("on_usr1"), (calls("deep"), calls("on_usr1"))
' || fail "$S E: snapshot $i"
	done
	# A run that jumps out of a high-rate handler may see no CPU-time
	# sample at all (the kernel's timer stalls meanwhile: 12 of 30
	# runs; a fresh Debian root once saw none in jump's and grow's
	# both): the seven runs together must have some.
	[ $S = off ] || [ "$(samples_total jump.prof grow.prof growmain.*.prof)" -gt 0 ] ||
		fail "$S: no samples taken"
done
exit 0
