#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime: C++ exceptions crossing instrumented frames (exit hooks from
# destructors, a loop region left open by the exception) keep counts exact.
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
need g++
g++ -O2 -g -Wall -Wextra -I"$SELINST_ROOT/include" "$RT/exc.cc" -L"$SELINST_BUILD" -lselinst \
	-Wl,-rpath,"$SELINST_BUILD" -o exc || fail "compile"
out=$(./exc) || fail "run"
expect_eq "caught" 500 "$out"
pcheck exc.prof '
assert calls("main") == 1 and calls("mid") == 1000, (calls("main"), calls("mid"))
assert calls("exc.cc:4") == 1000
assert calls("thrower") == 500 * 3 + 500, calls("thrower")
(t, n), = nodes("thrower")
assert path(t, n) == ("main", "mid", "exc.cc:4", "thrower"), path(t, n)
(t, l), = nodes("exc.cc:4")
# entries left by the exception are closed with their cell: 1 body start
assert l["iterations"] == 1500 + 500, l
assert l["trip_counts"] == {"3": 500, "1": 500}, l["trip_counts"]
assert len(p["threads"][0]["nodes"]) == 4
'
