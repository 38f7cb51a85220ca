#!/bin/bash
# SPDX-License-Identifier: MIT
# C++ constructors and destructors are one region each, at every -O level:
# GCC's variants (complete, base, deleting, and at -Os a unified body
# with thunks) share the source name, the variants that only forward to
# another variant are left out, and so every object counts one entry.
. "$(dirname "$0")/lib.sh"
cp $T/programs/cxx_cdtors.cc .
# Objects built: Base 5 + 3 = 8; Diamond 5 + 1 = 6 (each also builds a
# Left, a Right and one VB).
for O in -O0 -O2 -Os; do
	si_cxx $O -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=d$O.yaml \
		cxx_cdtors.cc -o p$O || fail "compile $O"
	SELINST_OUTPUT=p$O.prof ./p$O > out$O.txt || fail "run $O: $(cat out$O.txt)"
	$REPORT --format=json p$O.prof > p$O.json || fail "report $O"
	calls() { jget p$O.json "sum(r['calls'] for r in d['regions'] if r['name']=='$1')"; }
	expect_eq "Base::Base() $O" 8 "$(calls 'Base::Base()')"
	expect_eq "Base::~Base() $O" 8 "$(calls 'Base::~Base()')"
	expect_eq "Diamond::~Diamond() $O" 6 "$(calls 'Diamond::~Diamond()')"
	expect_eq "VB::~VB() $O" 6 "$(calls 'VB::~VB()')"
	expect_eq "Left::~Left() $O" 6 "$(calls 'Left::~Left()')"
	expect_eq "Left::Left() $O" 6 "$(calls 'Left::Left()')"
	# No region is entered from itself (a deleting destructor calling the
	# complete one would be).
	nested=$(yget p$O.prof "[(n['region']) for t in d['threads'] for n in t['nodes'] if n['parent'] is not None and any(m['id']==n['parent'] and m['region']==n['region'] for m in t['nodes'])]")
	expect_eq "self-nested regions $O" "[]" "$nested"
	# The decision file says which variants forward.
	yget d$O.yaml "[f['reason'] for f in d['functions'] if f['symbol'].startswith('_ZN4BaseD0')]" \
		| grep -q "variant that calls another variant" || fail "deleting destructor reason $O"
done
# The same source functions are instrumented at every level.
per_source() { yget "$1" "sorted(set((f['name'], f['line']) for f in d['functions'] if f['instrument']))"; }
expect_eq "-O0 vs -O2" "$(per_source d-O2.yaml)" "$(per_source d-O0.yaml)"
expect_eq "-Os vs -O2" "$(per_source d-O2.yaml)" "$(per_source d-Os.yaml)"
exit 0
