#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime under AddressSanitizer and ThreadSanitizer with signals in the
# hooks (issue 11 D, E): testsuite/programs/signal_window.c built with the
# plugin at threshold 0 against the runtime's sources compiled with the
# sanitizer (the runtime itself without the plugin).  ASan: the three
# modes as in t-rt-signal-window.sh, clean and consistent.  TSan delivers
# a signal only at a library call, so there the program yields
# (SW_YIELD=1) and the handlers run between hooks: siglongjmp out of a
# handler, handlers that grow a thread's region stack; no report (errno
# included: "signal handler spoils errno").  Under ASan the jumps and the
# growing handlers once more with SELINST_SAMPLE=20000 (issue 14, point
# 4: the sample handler in the same windows, touching only its thread's
# memory).
. "$(dirname "$0")/lib.sh"
# Every call counted (the default throttle would switch the hot
# regions off after 100,000 calls: t-rt-throttle.sh).
export SELINST_THROTTLE=off
command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml missing"
echo 'int main(void){return 0;}' > probe.c
gcc -fsanitize=thread probe.c -o probe 2>/dev/null && ./probe || skip "ThreadSanitizer not usable here"
# sanbuild SAN OUT: the runtime's objects, then the program
sanbuild() { san=$1; out=$2; mkdir -p rt-$san
	for f in "$SELINST_ROOT"/runtime/*.c; do
		gcc -O1 -g -std=gnu11 -fsanitize=$san -fno-omit-frame-pointer -fPIC -I"$SELINST_ROOT/include" \
			-c "$f" -o rt-$san/$(basename "$f" .c).o || return 1
	done
	gcc -O1 -g -fsanitize=$san -fno-omit-frame-pointer $SI_CFLAGS -fplugin-arg-selinst-threshold=0 \
		-fplugin-arg-selinst-loops=off "$T/programs/signal_window.c" rt-$san/*.o -lyaml -ldw -lm -pthread -o "$out"; }
export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
export ASAN_OPTIONS="halt_on_error=1 exitcode=66 detect_leaks=1"
# run SAN WHAT ARGS...: run the program, fail on a report or a bad status
run() { san=$1; shift
	out=$(SELINST_OUTPUT=$WORK/$san.prof ./sw-$san "$@" 2> err.txt) || { cat err.txt; fail "sw $* under $san: status $?"; }
	grep -q 'Sanitizer' err.txt && { cat err.txt; fail "sw $* under $san: report"; }
	python3 "$T/rt/sigcheck.py" $san.prof || fail "sw $* under $san: inconsistent times"; }

sanbuild address sw-address || fail "compile (address)"
run address jump 1000
python3 "$T/rt/sigcheck.py" --jump "$out" address.prof || fail "jump under address"
run address grow 10
expect_eq "grow under address" "handled 10" "$out"
run address growmain 0
expect_eq "growmain under address" "handled 1" "$out"
export SELINST_SAMPLE=20000
run address jump 1000
python3 "$T/rt/sigcheck.py" --jump "$out" address.prof || fail "jump under address, sampled"
cp address.prof jump-address.prof
run address grow 10
expect_eq "grow under address, sampled" "handled 10" "$out"
cp address.prof grow-address.prof
# The kernel's CPU-clock timer may stall in a process that jumps out of
# its handlers (t-rt-signal-window): growmain's five runs count too.
for i in 1 2 3 4 5; do
	run address growmain 0
	cp address.prof growmain-address.$i.prof
done
[ "$(samples_total jump-address.prof grow-address.prof growmain-address.*.prof)" -gt 0 ] ||
	fail "jump, grow and growmain under address: no samples taken"
unset SELINST_SAMPLE
echo "address: clean"

sanbuild thread sw-thread || fail "compile (thread)"
export SW_YIELD=1
run thread jump 200
python3 "$T/rt/sigcheck.py" --jump "$out" thread.prof || fail "jump under thread"
run thread grow 5
expect_eq "grow under thread" "handled 5" "$out"
echo "thread: clean"
exit 0
