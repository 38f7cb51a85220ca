#!/bin/bash
# SPDX-License-Identifier: MIT
# dlopen/dlclose of an instrumented library, three times (issue 11, A):
# the exit-time write and a selinst_dump after a dlclose read the regions
# of the unloaded library (kept at dlclose and after its destructors); the
# library loaded again maps to the same regions.  Output and exit status
# as the plain build's; counts exact; times consistent.  C and C++ (whose
# static destructors run instrumented code inside dlclose).
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
P=$T/programs
F="-fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0"
gcc -O2 $P/dl_main.c -o plain_main -ldl || fail "compile plain main"
si_cc -O2 $F $P/dl_main.c -o main -ldl || fail "compile main"
for lang in c cc; do
	if [ $lang = c ]; then
		gcc -O2 -shared -fPIC $P/dl_lib.c -o plain_lib.so || fail "compile plain lib"
		si_cc -O2 $F -shared -fPIC $P/dl_lib.c -o lib.so || fail "compile lib"
	else
		g++ -O2 -shared -fPIC $P/dl_lib.cc -o plain_lib.so || fail "compile plain lib ($lang)"
		si_cxx -O2 $F -shared -fPIC $P/dl_lib.cc -o lib.so || fail "compile lib ($lang)"
	fi
	./plain_main ./plain_lib.so > plain.out; prc=$?
	rm -f *.prof*
	./main ./lib.so > out.txt 2> err.txt; rc=$?
	[ $rc = $prc ] || { cat err.txt; fail "$lang: exit status $rc, plain build $prc"; }
	cmp -s plain.out out.txt || fail "$lang: output differs from the plain build: $(cat out.txt)"
	expect_eq "$lang: files" "main.prof mid.prof" "$(ls | grep prof | tr '\n' ' ' | sed 's/ $//')"
	[ -s err.txt ] && fail "$lang: stderr: $(cat err.txt)"
	for f in main.prof:3 mid.prof:2; do
		pcheck ${f%:*} "
k = ${f#*:}
consistent()
def one(name):
    ns = [n for _, n in nodes(name)]
    assert len(ns) == 1, (name, ns)   # one region, one node, every round
    return ns[0]
w = [r for r in p['regions'] if r['name'] in ('lib_work', 'int lib_work(int)')]
assert len(w) == 1, w
lw = one(w[0]['name'])
assert lw['calls'] == k, lw
leaf = [r['name'] for r in p['regions'] if 'leaf' in r['name']][0]
assert one(leaf)['calls'] == 100 * k
loop = [n for _, n in nodes('dl_lib.c:7' if '$lang' == 'c' else 'dl_lib.cc:16')]
assert len(loop) == 1 and loop[0]['calls'] == k and loop[0]['iterations'] == 100 * k, loop
if '$lang' == 'cc' and k == 3:
    assert one('Holder::~Holder()')['calls'] == 3
    assert one('void lib_fini()')['calls'] == 3
"
	done
done
exit 0
