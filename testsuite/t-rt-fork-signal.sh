#!/bin/bash
# SPDX-License-Identifier: MIT
# fork() in a signal handler that interrupts selinst_dump or the final
# write (issue 11, H): a 200 us timer forks during 20 dumps and during the
# exit-time write.  That deadlocked in the pthread_atfork handler (the
# registry lock already held by the same thread).  Output and exit status
# as the plain build's, no hang, both profiles whole with exact counts.
# Run 3 again with SELINST_SAMPLE on (issue 14, point 4): the sample
# timer's signal also lands in the dumps, the write and the forks.
# Then fork_at_exit: forks from a handler after the final write, inside
# malloc and free.  glibc's fork takes no lock in a process that never
# had a second thread; the runtime's exit-time writer thread made this
# one take them, and a fork interrupting the same thread's free (or
# __cxa_finalize) waited for itself: t-rt-stress's fih hung once in 2,000
# runs under load, fork_at_exit on every run.  With a handler of the
# program's the write stays in the exiting thread, except when exit()
# comes from inside that handler (exit_in_handler: its signal is blocked
# then): the interrupted malloc may hold its state half updated, and
# writing there with malloc aborted glibc in about 1 run of 3.  The
# write now takes no memory from malloc (runtime/walloc.c) and runs in
# the exiting thread: every profile is written.  Where a trace is on
# (SELINST_MODE=trace) the write still allocates (its files): there a
# child tries a thread start first, and where it dies (or, with a second thread, waits
# on malloc's lock: the exit hung) the parent writes nothing and says so
# (the diechild case makes it die).
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
# Exact counts: every call counted (the default throttle's early rule
# stops a region of under 200 ns a call at 1,001 calls).
export SELINST_THROTTLE=off
bash $T/programs/gen_funcs.sh 100 > funcs.c
F="-fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0"
si_cc -O2 $F $T/programs/fork_in_handler.c funcs.c -o fih || fail "compile"
gcc -O2 $T/programs/fork_in_handler.c funcs.c -o plain || fail "compile plain"
./plain 20 > plain.out; prc=$?
for run in 1 2 3; do
	rm -f *.prof*
	smp=off; [ $run = 3 ] && smp=20000
	SELINST_SAMPLE=$smp timeout 60 ./fih 20 > out.txt 2> err.txt; rc=$?
	[ $rc = 124 ] && fail "run $run: hung (deadlock)"
	[ $rc = $prc ] || { cat err.txt; fail "run $run: exit status $rc, plain build $prc"; }
	cmp -s plain.out out.txt || fail "run $run: output differs: $(cat out.txt)"
	[ -s err.txt ] && fail "run $run: stderr: $(cat err.txt)"
	expect_eq "run $run: files" "fih.prof snap.prof" "$(ls | grep prof | tr '\n' ' ' | sed 's/ $//')"
	for f in fih.prof snap.prof; do
		pcheck $f "
import re
consistent()
assert p['complete'] is ('$f' == 'fih.prof')
fcalls = sum(n['calls'] for t in p['threads'] for n in t['nodes']
             if re.fullmatch(r'f[0-9]+', regions[n['region']]['name']))
assert fcalls == 3 * 4000, fcalls
assert len(p['threads']) == 1
assert ($run == 3) == any(n.get('samples') for t in p['threads'] for n in t['nodes'])
"
	done
done

si_cc -O2 $F $T/programs/fork_at_exit.c -o fae || fail "compile fork_at_exit"
for run in 1 2 3; do
	rm -f *.prof*
	timeout 20 ./fae fae.prof > out.txt 2> err.txt; rc=$?
	[ $rc = 124 ] && fail "fork_at_exit run $run: hung (deadlock): $(cat out.txt)"
	[ $rc = 0 ] || { cat err.txt; fail "fork_at_exit run $run: exit status $rc"; }
	[ -s err.txt ] && fail "fork_at_exit run $run: stderr: $(cat err.txt)"
	expect_eq "fork_at_exit run $run" "written 1 single 1 forks yes" "$(sed -n 2p out.txt)"
	pcheck fae.prof "consistent(); assert p['complete']; assert calls('work') == 100, calls('work')"
done

si_cc -O2 -pthread $F $T/programs/exit_in_handler.c -o eih || fail "compile exit_in_handler"
for ((run = 0; run < 30; run++)); do
	rm -f *.prof*
	timeout 20 ./eih 20000 chld > out.txt 2> err.txt; rc=$?
	[ $rc = 0 ] || { cat err.txt; fail "exit_in_handler run $run: exit status $rc"; }
	[ -s out.txt ] && fail "exit_in_handler run $run: $(cat out.txt)"
	[ -s err.txt ] && fail "exit_in_handler run $run: stderr: $(cat err.txt)"
	expect_eq "exit_in_handler run $run: files" eih.prof "$(ls | grep prof)"
	pcheck eih.prof "consistent(); assert p['complete']"
	churned=$(yget eih.prof "sum(n['calls'] for t in d['threads'] for n in t['nodes'] if {r['id']: r['name'] for r in d['regions']}[n['region']] == 'churn')")
	[ "$churned" -gt 0 ] && any_churn=1
done
# The alarm comes 20 ms into main, inside churn's loop (on a loaded
# machine a run may be preempted before its first call).
[ -n "${any_churn:-}" ] || fail "exit_in_handler: no run counted a churn call"

# With a second thread malloc locks, and a write that allocated waited for
# the lock the interrupted malloc held: the exit hung on nearly every run,
# then (a child's probe) lost the profile.  Now it is written.
for ((run = 0; run < 5; run++)); do
	rm -f *.prof*
	timeout -k 1 20 ./eih 20000 chld thread > out.txt 2> err.txt; rc=$?
	[ $rc = 0 ] || fail "exit_in_handler with a thread, run $run: exit status $rc (124: hung)"
	[ -s out.txt ] && fail "exit_in_handler with a thread, run $run: $(cat out.txt)"
	[ -s err.txt ] && fail "exit_in_handler with a thread, run $run: stderr: $(cat err.txt)"
	pcheck eih.prof "consistent(); assert p['complete']"
done

# With a trace on the write allocates: the child's start times out, the
# program exits 0 and says why there is no profile.
export SELINST_MODE=trace
lost=0
for ((run = 0; run < 5; run++)); do
	rm -f *.prof*
	timeout -k 1 20 ./eih 20000 chld thread > out.txt 2> err.txt; rc=$?
	[ $rc = 0 ] || fail "exit_in_handler with a thread, run $run: exit status $rc (124: hung)"
	[ -s out.txt ] && fail "exit_in_handler with a thread, run $run: $(cat out.txt)"
	[ -e eih.prof ] && continue
	grep -q '^selinst: exit() was called in a signal handler that may have interrupted malloc' err.txt \
		|| fail "exit_in_handler with a thread, run $run: no profile, and no word why: $(cat err.txt)"
	lost=$((lost + 1))
done
echo "exit_in_handler with a thread, trace: $lost of 5 profiles not written"

# A trace on: where the child's thread start dies (a pthread_create that
# aborts in any process but the first: the heap case without its
# timing), the program still exits 0, its SIGCHLD handler sees nothing,
# and stderr says why there is no profile.
cat > diechild.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
static pid_t first;
__attribute__((constructor)) static void at_load(void) { first = getpid(); }
int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg)
{
	if (getpid() != first)
		abort();
	int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) =
		(int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))
		dlsym(RTLD_NEXT, "pthread_create");
	return real(t, a, f, arg);
}
C
gcc -O2 -shared -fPIC diechild.c -o diechild.so -ldl || fail "compile the pthread_create shim"
rm -f *.prof*
LD_PRELOAD=$PWD/diechild.so timeout 20 ./eih 20000 chld > out.txt 2> err.txt; rc=$?
expect_eq "exit_in_handler, the child's thread dies: exit status" 0 "$rc"
[ -s out.txt ] && fail "the child's SIGCHLD reached the program: $(cat out.txt)"
expect_eq "exit_in_handler, the child's thread dies: profiles" "" "$(ls | grep prof)"
grep -q '^selinst: exit() was called in a signal handler that may have interrupted malloc' err.txt \
	|| fail "no word why: $(cat err.txt)"
expect_eq "stderr lines" 1 "$(wc -l < err.txt)"
exit 0
