#!/bin/bash
# SPDX-License-Identifier: MIT
# What real programs do to the runtime (issue 11): vfork + exec (G), long
# profile names and symbolic links at the output path (I), temporary files
# left by killed writers, manual regions named from a reused buffer (L),
# thousands of short threads (memory of exited threads), C destructor
# functions with the static runtime.  Each program's
# output and exit status are compared with the plain build's.
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
P=$T/programs
F="-fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0"
# same_as_plain NAME PLAIN INSTRUMENTED ARGS...: same stdout and status.
same_as_plain() { name=$1 plain=$2 inst=$3; shift 3
	"$plain" "$@" > plain.out 2> /dev/null; prc=$?
	"$inst" "$@" > out.txt 2> err.txt; rc=$?
	[ $rc = $prc ] || { cat err.txt; fail "$name: exit status $rc, plain build $prc"; }
	cmp -s plain.out out.txt || fail "$name: output differs from the plain build: $(cat out.txt)"
	return 0; }

# G: a vfork child writes nothing (it used to rename the parent's profile
# into place before each exec).
si_cc -O2 $F $P/vfork_exec.c -o vf || fail "compile vfork_exec"
gcc -O2 $P/vfork_exec.c -o vf_plain || fail "compile plain vfork_exec"
export SELINST_OUTPUT=vf.prof
same_as_plain vfork ./vf_plain ./vf vf.prof
grep -q present out.txt && fail "vfork: the profile was written before exit"
expect_eq "vfork: files" "vf.prof" "$(ls | grep prof)"
pcheck vf.prof 'consistent(); assert calls("work") == 10 and calls("main") == 1'
unset SELINST_OUTPUT

# I: a 255-byte profile name is valid (the temporary name fits NAME_MAX);
# a symbolic link at the output path is written through.
si_cc -O2 $F $P/vfork_exec.c -o vf2 || fail "compile"
long=$(printf 'p%.0s' $(seq 250)).prof
SELINST_OUTPUT=$long ./vf2 x > /dev/null 2> err.txt || true
[ -s err.txt ] && fail "255-byte name: $(cat err.txt)"
[ -f "$long" ] || fail "255-byte name: no profile"
pcheck "$long" 'assert calls("work") == 10'
rm -f "$long"
mkdir sub
echo old > sub/target.prof
ln -s sub/target.prof link.prof
ln -s sub/new.prof dangling.prof
for l in link dangling; do
	SELINST_OUTPUT=$l.prof ./vf2 x > /dev/null 2> err.txt || true
	[ -s err.txt ] && fail "symlink $l: $(cat err.txt)"
	[ -L $l.prof ] || fail "symlink $l: replaced by a regular file"
	pcheck $l.prof 'assert calls("work") == 10'
done
[ -f sub/new.prof ] || fail "dangling symlink: target not created"

# Temporary files of writers that died (SIGKILL during the write) are
# removed by the next final write to the same path; a live process's is
# kept; the names say what they are.
host=$(hostname)
dead=$(( $(cat /proc/sys/kernel/pid_max) + 1 ))
touch "t.prof.tmp.$host.$dead.0" "t.prof.tmp.$host.$$.0" "t.prof.tmp.otherhost.$dead.0"
SELINST_OUTPUT=t.prof ./vf2 x > /dev/null || true
want=$(printf '%s\n' t.prof "t.prof.tmp.$host.$$.0" "t.prof.tmp.otherhost.$dead.0" | sort)
expect_eq "stale temporary files" "$want" "$(ls t.prof* | sort)"

# L: a reused buffer names two regions; memory stays constant.
si_cc -O2 $F $P/manual_reuse.c -o mr || fail "compile manual_reuse"
gcc -O2 $P/manual_reuse.c -o mr_plain || fail "compile plain manual_reuse"
same_as_plain manual ./mr_plain ./mr 1000000
growth=$(sed -n 's/rss growth \([0-9]*\) KB/\1/p' err.txt)
[ "$growth" -lt 2048 ] || fail "manual: peak RSS grew by $growth KB over 800,000 calls"
pcheck mr.prof '
consistent()
m = [r["name"] for r in p["regions"] if r["kind"] == "manual"]
assert sorted(m) == ["phase 0", "phase 1"], m
for name in m:
    ns = nodes(name)
    assert len(ns) == 1 and ns[0][1]["calls"] == 500000, ns
'

# Threads that ended keep a compact copy, not their live structures
# (each used to keep 32-36 KB: 30,000 threads 1 GB).
si_cc -O2 $F $P/thread_churn.c -o churn -pthread || fail "compile thread_churn"
gcc -O2 $P/thread_churn.c -o churn_plain -pthread || fail "compile plain thread_churn"
same_as_plain threads ./churn_plain ./churn 5000
growth=$(sed -n 's/rss growth over the last [0-9]* threads: \([0-9]*\) KB.*/\1/p' err.txt)
[ "$growth" -lt 12000 ] || fail "threads: peak RSS grew by $growth KB over 4,000 ended threads"
pcheck churn.prof '
consistent()
assert len(p["threads"]) == 5001 and calls("work") == 5000
assert all(t["finished"] for t in p["threads"] if t["index"] > 0)
'
# The static runtime writes after the program's destructor functions
# (its atexit handler used to run first and miss them).
cat > dtor.c <<'C'
#include <stdio.h>
static volatile int sink;
void fin_work(void) { for (int i = 0; i < 100; i++) sink += i; }
__attribute__((destructor)) static void fin(void) { fin_work(); fin_work(); }
int main(void) { puts("main"); return 4; }
C
gcc -O2 dtor.c -o dtor_plain || fail "compile plain dtor"
gcc -O2 $SI_CFLAGS $F dtor.c -o dtor "$SELINST_BUILD/libselinst.a" -lyaml -pthread || fail "compile dtor (static runtime)"
same_as_plain "static destructor" ./dtor_plain ./dtor
pcheck dtor.prof 'consistent(); assert calls("fin_work") == 2 and calls("fin") == 1 and calls("main") == 1'
exit 0
