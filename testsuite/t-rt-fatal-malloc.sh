#!/bin/bash
# SPDX-License-Identifier: MIT
# A fatal signal that lands in malloc, in a program with threads: the
# runtime's handler writes the profile in the interrupted thread, and the
# write's first allocation waited for the arena lock that thread held.
# A double free caught by malloc (its abort comes with the lock held)
# hung instead of dying of SIGABRT, and SIGTERM to a program busy in
# malloc hung 9 times in 10 (only SIGKILL ended it).  Now a child tries
# the write's first steps; where it cannot, the process dies of its
# signal as the plain build does, without a profile, and says so.
. "$(dirname "$0")/lib.sh"
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
cat > busy.c <<'C'
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static void *sleeper(void *a)
{
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
	for (;;)
		pause();
	return a;
}
__attribute__((noinline)) static void *churn(unsigned i)
{
	void *b[32];
	for (unsigned k = 0; k < 32; k++) {
		b[k] = malloc(16 + 97 * ((i + k) % 64));
		memset(b[k], 1, 16);
	}
	for (unsigned k = 0; k < 32; k++)
		free(b[k]);
	return malloc(5000 + (i % 7) * 1000);
}
int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, sleeper, NULL);
	write(1, "ready\n", 6);
	for (unsigned i = 0;; i++)
		free(churn(i));
}
C
F=-fplugin-arg-selinst-threshold=0
si_cc -O2 -pthread $F df.c -o df || fail "compile df.c"
si_cc -O2 -pthread $F busy.c -o busy || fail "compile busy.c"
export SELINST_THROTTLE=off
for mode in single threads; do
	arg=; [ $mode = threads ] && arg=x
	rm -f *.prof
	timeout -k 1 20 ./df $arg > /dev/null 2> err.txt; rc=$?
	expect_eq "double free ($mode): exit status (124: hung)" 134 "$rc"
	if [ -e df.prof ]; then
		:
	else
		grep -q '^selinst: a fatal signal interrupted malloc: the profile is not written' err.txt \
			|| fail "double free ($mode): no profile and no word why: $(cat err.txt)"
	fi
done
[ -e df.prof ] && fail "double free with threads: a profile was written while malloc held its lock?"

lost=0
for run in 1 2 3 4 5; do
	rm -f *.prof
	./busy > out.txt 2> err.txt &
	pid=$!
	for i in $(seq 100); do [ -s out.txt ] && break; sleep 0.05; done
	sleep 0.2
	kill -TERM $pid
	for i in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
	if kill -0 $pid 2>/dev/null; then
		kill -KILL $pid
		fail "SIGTERM run $run: still running 10 s later (hung)"
	fi
	wait $pid; rc=$?
	expect_eq "SIGTERM run $run: exit status" 143 "$rc"
	[ -e busy.prof ] && continue
	grep -q '^selinst: a fatal signal interrupted malloc' err.txt \
		|| fail "SIGTERM run $run: no profile and no word why: $(cat err.txt)"
	lost=$((lost + 1))
done
echo "SIGTERM in malloc with threads: $lost of 5 profiles not written"
exit 0
