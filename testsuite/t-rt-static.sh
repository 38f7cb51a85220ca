#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime: the static library (libselinst.a, TLS in the initial-exec model)
# gives the same profile as the shared one; hooks before the runtime starts
# (early constructors, IFUNC resolvers) are safe.
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
[ -f "$SELINST_BUILD/libselinst.a" ] || fail "libselinst.a not built"
gcc -O2 -g -I"$SELINST_ROOT/include" -I"$RT" "$RT/threads.c" "$SELINST_BUILD/libselinst.a" \
	-lyaml -pthread -o threads || fail "compile"
./threads || fail "run"
pcheck threads.prof '
assert calls("work") == 800000
assert sorted(n["calls"] for _, n in nodes("work")) == [100000] * 8
'
gcc -O2 -g -I"$SELINST_ROOT/include" -I"$RT" "$RT/exits.c" "$SELINST_BUILD/libselinst.a" \
	-lyaml -pthread -o exits || fail "compile exits"
./exits longjmp || fail "run longjmp"
pcheck exits.prof 'assert calls("l3") == 1000 and len(p["threads"][0]["nodes"]) == 6'

# Hooks before the runtime has started: a constructor that runs before the
# runtime's (counted) and an IFUNC resolver (dropped, no crash).
for lib in static shared; do
	if [ $lib = static ]; then
		gcc -O2 -I"$SELINST_ROOT/include" -I"$RT" "$RT/early.c" "$SELINST_BUILD/libselinst.a" -lyaml -pthread -o early || fail "compile early"
	else
		rtcc early "$RT/early.c"
	fi
	out=$(./early) || fail "early run ($lib)"
	expect_eq "early output ($lib)" 42 "$out"
	pcheck early.prof 'assert calls("early") == 1 and calls("main") == 1, (calls("early"), calls("main"))'
	rm -f early.prof
done
