#!/bin/bash
# SPDX-License-Identifier: MIT
# Loops left by an exception report the same entries, iterations and trip
# counts as any other exit, at -O0, -O2 and -O3: the exception passes
# through a cleanup pad that hands each loop its counter.
. "$(dirname "$0")/lib.sh"
cp $T/programs/loop_eh_exits.cc .
g++ -O2 loop_eh_exits.cc -o plain || fail "plain build"
./plain > want.txt || fail "plain run"
for O in -O0 -O2 -O3; do
	si_cxx $O -fplugin-arg-selinst-threshold=0 loop_eh_exits.cc -o p$O || fail "compile $O"
	SELINST_OUTPUT=p$O.prof ./p$O > got$O.txt || fail "run $O"
	cmp -s want.txt got$O.txt || fail "output differs at $O"
	$REPORT --format=json p$O.prof > p$O.json || fail "report $O"
	loop() { jget p$O.json "[(r['entries'], r['iterations'], r['trip_counts']) for r in d['regions'] if r['kind']=='loop' and r['line']==$1][0]"; }
	# body_throw(100, 5..7): the iteration that throws has started.
	expect_eq "body throw $O" "(3, 21, {'6': 1, '7': 1, '8': 1})" "$(loop 19)"
	# nested_throw(25): the inner loop's third entry and the outer loop
	# are both left by one exception.
	expect_eq "outer loop $O" "(1, 3, {'3': 1})" "$(loop 28)"
	expect_eq "inner loop $O" "(3, 26, {'6': 1, '10': 2})" "$(loop 29)"
	# test_throw(7): the 8th exit test throws; the body ran 7 times.
	expect_eq "test throw $O" "(1, 7, {'7': 1})" "$(loop 47)"
	# inner_try(9): through a try that does not catch, with a destructor.
	expect_eq "inner try $O" "(1, 10, {'10': 1})" "$(loop 58)"
	# many_calls(40): six throwing calls per iteration, one pad for all;
	# check(40) is the 5th call of the 7th iteration.
	expect_eq "many calls $O" "(1, 7, {'7': 1})" "$(loop 79)"
done
exit 0
