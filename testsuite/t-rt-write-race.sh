#!/bin/bash
# SPDX-License-Identifier: MIT
# The profile is written while other threads run (issue 11, B and C):
# workers keep creating nodes (new calling contexts, fresh manual names)
# or keep adding time to a child under an open parent while main returns
# or raises SIGTERM.  The program's output and exit status are the plain
# build's; the profile is whole, main's counts exact, and its times hold
# together (consistent() in rt/check.py: child within parent, exclusive
# within inclusive, each thread's top-level regions within the run).
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
# Exact counts: every call counted (the default throttle's early rule
# stops a region of under 200 ns a call at 1,001 calls).
export SELINST_THROTTLE=off
bash $T/programs/gen_funcs.sh 300 > funcs.c
F="-fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0"
si_cc -O2 $F $T/programs/write_race.c funcs.c -o race -pthread || fail "compile"
gcc -O2 $T/programs/write_race.c funcs.c -o plain -pthread || fail "compile plain"
for mode in nodes manual nested term; do
	./plain $mode 3000 > plain.out 2>/dev/null; prc=$?
	rm -f race.prof*
	./race $mode 3000 > out.txt 2> err.txt; rc=$?
	[ $rc = $prc ] || { cat err.txt; fail "$mode: exit status $rc, plain build $prc"; }
	cmp -s plain.out out.txt || fail "$mode: output differs from the plain build"
	[ -s err.txt ] && fail "$mode: stderr: $(cat err.txt)"
	expect_eq "$mode: files" "race.prof" "$(ls race.prof*)"
	pcheck race.prof "
import re
consistent()
assert p['complete'] is True
if '$mode' == 'term':
    assert p['signal'] == 15, p.get('signal')
main = [t for t in p['threads'] if t['index'] == 0][0]
fcalls = sum(n['calls'] for n in main['nodes'] if re.fullmatch(r'f[0-9]+', regions[n['region']]['name']))
assert fcalls == 3 * 3000, fcalls
if '$mode' == 'nested':
    o = nodes('outer')
    assert len(o) == 1 and o[0][1]['calls'] == 1, o
    i = nodes('inner')
    assert len(i) == 1 and i[0][1]['calls'] >= 1, i
    assert i[0][1]['inclusive_ns'] <= o[0][1]['inclusive_ns'], (i, o)
if '$mode' == 'manual':
    assert all(n['calls'] >= 1 for _, n in nodes('fresh 0'))
"
done
exit 0
