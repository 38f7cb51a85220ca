#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime: every way out keeps the profile right: exit() with regions open,
# longjmp past instrumented frames, fork, signal handlers running
# instrumented code (signals landing inside hooks), fatal signals (SIGINT,
# SIGPIPE and the other terminating ones too).
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
rtcc exits "$RT/exits.c"

# exit() with three regions open: closed at exit time, exit status kept.
./exits exit; rc=$?
expect_eq "exit status" 5 $rc
pcheck exits.prof '
for nm in ("main", "a", "b", "c"):
    assert calls(nm) == 1, nm
(t, c), = nodes("c")
assert path(t, c) == ("main", "a", "b", "c")
assert 2e6 <= c["inclusive_ns"] < 1e9, c
(t, m), = nodes("main")
assert m["inclusive_ns"] >= c["inclusive_ns"]
assert p["complete"] is True
'
rm -f exits.prof

# longjmp from three frames down, 1000 times, with a moving catcher frame.
./exits longjmp || fail "longjmp run"
pcheck exits.prof '
for nm in ("catcher", "l1", "l2", "l3", "rt.c:11"):
    assert calls(nm) == 1000, (nm, calls(nm))
    (t, n), = nodes(nm)
for nm, want in (("l1", ("main", "catcher", "l1")), ("l3", ("main", "catcher", "l1", "l2", "l3"))):
    (t, n), = nodes(nm)
    assert path(t, n) == want, path(t, n)
assert len(p["threads"][0]["nodes"]) == 6, p["threads"][0]["nodes"]
(t, l), = nodes("rt.c:11")
assert l["iterations"] == 3000 and l["trip_counts"] == {"3": 1000}, l   # from the loop cell
'
rm -f exits.prof

# fork: the child writes its own file (fresh profile, its own pid).
./exits fork > fork.out || fail "fork run"
child=$(cat fork.out)
[ -f exits.prof ] || fail "no parent profile"
[ -f exits.$child.prof ] || fail "no child profile exits.$child.prof: $(ls)"
pcheck exits.prof 'assert calls("f") == 15, calls("f"); assert p["pid"] != '$child
pcheck exits.$child.prof '
assert p["pid"] == '$child', p["pid"]
assert calls("f") == 3, calls("f")
assert calls("main") == 0, calls("main")
assert len(p["threads"]) == 1
'
rm -f exits*.prof

# A signal handler running instrumented code, signals every 20 us.
./exits signal > sig.out || fail "signal run"
read handled hran < sig.out
pcheck exits.prof '
assert calls("f") == 3000000, calls("f")
for t, n in nodes("f"):
    assert path(t, n) == ("main", "f"), path(t, n)
hs = nodes("h")
for t, n in hs:
    assert path(t, n) in (("main", "h"), ("main", "f", "h")), path(t, n)
hc = calls("h")
print("signals handled '$handled', h recorded", hc)
assert 0 < hc <= '$hran', hc
'
rm -f exits.prof

# Fatal signals: profile written, then the signal does what it would have done.
for m in segv:139 abort:134 term:143; do
	mode=${m%:*}; want=${m#*:}
	./exits $mode 2>/dev/null; rc=$?
	expect_eq "$mode exit status" $want $rc
	pcheck exits.prof '
assert calls("f") == 1 and calls("a") == 1, p
assert p["signal"] == {"segv": 11, "abort": 6, "term": 15}["'$mode'"]
'
	rm -f exits.prof
done
# ...unless the program installed its own handler.
out=$(./exits own); rc=$?
expect_eq "own handler exit status" 3 $rc
expect_eq "own handler output" "own handler" "$out"

# Ctrl-C, hang-up, quit, CPU and file-size limits: the profile is written
# (signal: N) and the process dies of the signal, as it would without
# selinst (128+N).  env --default-signal: the test may run where the
# caller ignores them (a background job's SIGINT and SIGQUIT).
ulimit -c 0
dflt="env --default-signal=INT,HUP,QUIT,PIPE,XCPU,XFSZ"
for s in INT HUP QUIT XCPU XFSZ TERM; do
	n=$(kill -l $s)
	$dflt ./exits sig $n 2>/dev/null; rc=$?
	expect_eq "SIG$s exit status" $((128 + n)) $rc
	[ -f exits.prof ] || fail "SIG$s: no profile"
	pcheck exits.prof 'assert calls("f") == 1 and calls("a") == 1, p; assert p["signal"] == '$n', p["signal"]'
	rm -f exits.prof
done
# SIGPIPE: a write to a pipe nobody reads, and `prog | head`.
$dflt ./exits pipe; rc=$?
expect_eq "SIGPIPE exit status" 141 $rc
pcheck exits.prof 'assert calls("a") == 1 and p["signal"] == 13, p.get("signal")'
rm -f exits.prof
$dflt ./exits yes | head -c 10 > /dev/null; rc=${PIPESTATUS[0]}
expect_eq "prog | head exit status" 141 $rc
pcheck exits.prof 'assert calls("a") == 1 and p["signal"] == 13, p.get("signal")'
rm -f exits.prof
# A signal ignored at start-up stays ignored: the program goes on.
env --ignore-signal=INT ./exits sig 2 || fail "ignored SIGINT killed the program"
pcheck exits.prof 'assert "signal" not in p and p["complete"] is True and calls("a") == 1'
rm -f exits.prof
# The program's own SIGINT handler from a constructor is left alone: with
# the static library it runs before the runtime starts (the runtime must
# not install over it), with the shared one after (it replaces ours).
gcc -O2 -g -I"$SELINST_ROOT/include" -I"$RT" "$RT/exits.c" "$SELINST_BUILD/libselinst.a" \
	-lyaml -pthread -o exits-static || fail "compile exits-static"
for prog in exits exits-static; do
	out=$(EXITS_OWN_INT=1 $dflt ./$prog sig 2); rc=$?
	expect_eq "own SIGINT handler exit status ($prog)" 3 $rc
	expect_eq "own SIGINT handler output ($prog)" "own handler" "$out"
	[ ! -f $prog.prof ] || fail "profile written over the own SIGINT handler ($prog)"
done
exit 0
