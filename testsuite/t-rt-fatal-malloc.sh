#!/bin/bash
# SPDX-License-Identifier: MIT
# A fatal signal that lands in malloc, in a program with threads: the
# runtime's handler writes the profile in the interrupted thread, and the
# write's first allocation waited for the arena lock that thread held.
# A double free caught by malloc (its abort comes with the lock held)
# hung instead of dying of SIGABRT, and SIGTERM to a program busy in
# malloc hung 9 times in 10 (only SIGKILL ended it).  Then a child tried
# the write's first steps, and where it could not, the process died of
# its signal without a profile, and said so: 9 SIGTERMs of 10 lost it.
# Now the write takes no memory from malloc (runtime/walloc.c): every
# profile is written, and the process still dies of its signal.  With a
# trace on (SELINST_MODE=trace) the write still allocates (its files),
# and the child's probe decides as before.
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
cat > df.c <<'C'
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
static void *sleeper(void *a) { for (;;) pause(); return a; }
__attribute__((noinline)) void twice(char **p)
{
	*p = malloc(5000);
	(*p)[0] = 1;
	void *q = malloc(5000);
	free(*p);
	free(q);
	free(*p);
}
int main(int argc, char **argv)
{
	(void)argv;
	pthread_t t;
	if (argc > 1)
		pthread_create(&t, NULL, sleeper, NULL);
	char *p;
	twice(&p);
	return 0;
}
C
F=-fplugin-arg-selinst-threshold=0
si_cc -O2 -pthread $F df.c -o df || fail "compile df.c"
# exit_in_handler 0 chld thread: no alarm (it allocates until killed), a
# SIGCHLD handler that would print (the runtime's child must not reach
# it) and a second thread.
si_cc -O2 -pthread $F $T/programs/exit_in_handler.c -o busy || fail "compile exit_in_handler.c"
export SELINST_THROTTLE=off
for mode in single threads; do
	arg=; [ $mode = threads ] && arg=x
	rm -f *.prof
	timeout -k 1 20 ./df $arg > /dev/null 2> err.txt; rc=$?
	expect_eq "double free ($mode): exit status (124: hung)" 134 "$rc"
	grep -v 'double free' err.txt | grep -q . \
		&& fail "double free ($mode): stderr: $(cat err.txt)"
	[ -e df.prof ] || fail "double free ($mode): no profile"
	pcheck df.prof "consistent(); assert p['complete']; assert p['signal'] == 6; assert calls('twice') == 1"
done

# A trace on: the write allocates (its files), and with a second thread
# the lock is held.
export SELINST_MODE=trace
rm -f *.prof
timeout -k 1 20 ./df x > /dev/null 2> err.txt; rc=$?
expect_eq "double free (threads, trace): exit status (124: hung)" 134 "$rc"
[ -e df.prof ] && fail "double free with threads, trace: a profile was written while malloc held its lock?"
grep -q '^selinst: a fatal signal may have interrupted malloc: the profile is not written' err.txt \
	|| fail "double free (threads, trace): no profile and no word why: $(cat err.txt)"

# The parent killed while its child probes (the child waits on the lock
# for up to 1 s): the child must not stay behind, blocked for ever with
# every signal blocked (review, F2).
cp df dfprobe$$
./dfprobe$$ x > /dev/null 2>&1 &
pid=$!
sleep 0.5
kill -KILL $pid
wait $pid 2>/dev/null
sleep 3
left=$(pgrep -x "dfprobe$$" | xargs)
[ -z "$left" ] || { kill -KILL $left; fail "the probe child outlived its parent: $left"; }

unset SELINST_MODE
for run in 1 2 3 4 5; do
	rm -f *.prof
	./busy 0 chld thread > out.txt 2> err.txt &
	pid=$!
	# In its allocating loop: 0.1 s of CPU time (10 s at most, under load).
	for i in $(seq 100); do
		cpu=$(awk '{print $14 + $15}' /proc/$pid/stat 2>/dev/null || echo 0)
		[ "${cpu:-0}" -ge 10 ] && break
		sleep 0.1
	done
	kill -TERM $pid
	for i in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
	if kill -0 $pid 2>/dev/null; then
		kill -KILL $pid
		fail "SIGTERM run $run: still running 10 s later (hung)"
	fi
	wait $pid; rc=$?
	expect_eq "SIGTERM run $run: exit status" 143 "$rc"
	[ -s out.txt ] && fail "SIGTERM run $run: $(cat out.txt)"
	[ -s err.txt ] && fail "SIGTERM run $run: stderr: $(cat err.txt)"
	pcheck busy.prof "consistent(); assert p['complete']; assert p['signal'] == 15; assert calls('churn') > 0"
done
exit 0
