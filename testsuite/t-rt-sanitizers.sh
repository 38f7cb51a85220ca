#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime under ThreadSanitizer and AddressSanitizer: the runtime sources
# are compiled with the test program (gcc -fsanitize=... runtime/*.c prog.c)
# and the threaded and exit-path tests must run clean.
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
src=("$SELINST_ROOT"/runtime/*.c)
sancc() { san=$1; out=$2; shift 2
	gcc -O1 -g -std=gnu11 -fsanitize=$san -fno-omit-frame-pointer -I"$SELINST_ROOT/include" \
		-I"$SELINST_ROOT/runtime" -I"$RT" "${src[@]}" "$@" -lyaml -ldw -lm -pthread -o "$out"; }
# sanplug SAN OUT PROGRAM.c...: the program's units built by the plugin,
# the runtime's without it, all with the sanitizer.
sanplug() { san=$1; out=$2; shift 2; objs=()
	for c in "$@"; do
		gcc -O1 -g -std=gnu11 -fsanitize=$san -fno-omit-frame-pointer $SI_CFLAGS \
			-fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 \
			-c "$c" -o "$(basename "$c" .c).o" || return 1
		objs+=("$(basename "$c" .c).o")
	done
	sancc $san "$out" "${objs[@]}" -ldl; }
bash $T/programs/gen_funcs.sh 50 > funcs.c
echo 'int main(void){return 0;}' > probe.c
sancc thread probe probe.c 2>/dev/null && ./probe || skip "ThreadSanitizer not usable here"

export TSAN_OPTIONS="halt_on_error=1 exitcode=66 report_signal_unsafe=0"
export ASAN_OPTIONS="halt_on_error=1 exitcode=66 detect_leaks=1"
for san in thread address; do
	sancc $san threads "$RT/threads.c" || fail "compile threads ($san)"
	./threads 2> err.txt || { cat err.txt; fail "threads under $san"; }
	pcheck threads.prof 'assert calls("work") == 800000 and sorted(n["calls"] for _, n in nodes("work")) == [100000] * 8'
	sancc $san misc "$RT/misc.c" || fail "compile misc ($san)"
	for mode in control loops "paths 200"; do
		./misc $mode 2> err.txt || { cat err.txt; fail "misc $mode under $san"; }
		pcheck misc.prof 'assert p["complete"] is True'
	done
	sancc $san exits "$RT/exits.c" || fail "compile exits ($san)"
	for mode in longjmp fork; do
		./exits $mode > /dev/null 2> err.txt || { cat err.txt; fail "exits $mode under $san"; }
	done
	./exits exit 2> err.txt; rc=$?
	[ $rc = 5 ] || { cat err.txt; fail "exits exit under $san: status $rc"; }
	pcheck exits.prof 'assert calls("c") == 1'
	grep -q 'Sanitizer' err.txt && { cat err.txt; fail "$san report"; }
	sanplug $san race $T/programs/write_race.c funcs.c || fail "compile write_race ($san)"
	for mode in nodes nested term; do
		want=0; [ $mode = term ] && want=143
		( ./race $mode 200 > /dev/null 2> err.txt ); rc=$?
		[ $rc = $want ] || { cat err.txt; fail "write_race $mode under $san: status $rc"; }
		grep -q 'Sanitizer' err.txt && { cat err.txt; fail "write_race $mode: $san report"; }
		pcheck race.prof 'consistent(); assert p["complete"] is True'
	done
	# Phases, iterations and the predecessor graph (issue 15), threads too.
	sanplug $san phx $T/programs/phases.c || fail "compile phases ($san)"
	line=$(grep -n 'for (int step = 1' $T/programs/phases.c | cut -d: -f1)
	SELINST_ITERATE=phases.c:$line ./phx steps 20 > /dev/null 2> err.txt || { cat err.txt; fail "phases steps under $san"; }
	pcheck phx.prof 'assert p["threads"][0]["iterations"][0]["recorded"] == 20'
	SELINST_FLOW=1 ./phx threads > /dev/null 2> err.txt || { cat err.txt; fail "phases threads under $san"; }
	pcheck phx.prof 'assert sorted(i["recorded"] for t in p["threads"] for i in t.get("iterations", [])) == [20, 20]'
	grep -q 'Sanitizer' err.txt && { cat err.txt; fail "phases: $san report"; }
	if [ $san = thread ]; then	# it also checks that handlers keep errno
		sanplug $san sigwork $T/programs/signal_work.c funcs.c || fail "compile signal_work"
		# Five runs: a handler's hook on a thread after its profile was
		# retired made it a new one, whose destructor then ran after
		# ThreadSanitizer's teardown (a crash in about 1 run of 5).
		for run in 1 2 3 4 5; do
			./sigwork > out.txt 2> err.txt || { cat err.txt; fail "signal_work under $san, run $run"; }
			expect_eq "signal_work output" ok "$(cat out.txt)"
			pcheck sigwork.prof 'consistent(); assert p["complete"] is True'
		done
	fi
	echo "$san: clean"
done
exit 0
