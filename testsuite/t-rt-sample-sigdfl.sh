#!/bin/bash
# SPDX-License-Identifier: MIT
# A program that puts SIG_DFL or SIG_IGN back on the sampling signal after
# sampling started (issue 14): without the runtime's interposed signal()
# and sigaction() the next timer signal would end it (SIG_DFL on a
# real-time signal).  It must run to its end, be sampled throughout (0.7 s
# of CPU time at 1000 Hz: about 700 samples; 0.2 s of them before the
# first reset), read back its own settings as the old actions, and other
# signals' handlers must work as usual.
. "$(dirname "$0")/lib.sh"
cat >dfl.c <<'EOF2'
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
static volatile sig_atomic_t got;
static void on_usr1(int sig) { got = sig; }
static double spin(double secs)
{
	struct timespec a, b;
	double s = 0;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 100000; i++)
			s += i * 1e-9;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9 < secs);
	return s;
}
int main(void)
{
	double s = spin(0.2);
	signal(SIGRTMIN + 3, SIG_DFL);
	s += spin(0.2);
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGRTMIN + 3, &sa, &old);
	printf("%s\n", old.sa_handler == SIG_DFL ? "SIG_DFL" : "other");
	sa.sa_handler = SIG_DFL;
	sigaction(SIGRTMIN + 3, &sa, &old);
	printf("%s\n", old.sa_handler == SIG_IGN ? "SIG_IGN" : "other");
	signal(SIGUSR1, on_usr1);
	raise(SIGUSR1);
	printf("usr1 %d\n", got == SIGUSR1);
	s += spin(0.3);
	printf("%d\n", s > 0);
	return 0;
}
EOF2
gcc -O2 dfl.c -o dfl || fail "compile"
SELINST_SAMPLE=1000 SELINST_OUTPUT=dfl.prof LD_PRELOAD=$SELINST_BUILD/libselinst.so ./dfl >out.txt 2>err.txt ||
	fail "the program did not run to its end (status $?): $(cat err.txt)"
[ "$(cat out.txt)" = "$(printf 'SIG_DFL\nSIG_IGN\nusr1 1\n1')" ] || fail "output: $(cat out.txt)"
[ -s err.txt ] && fail "stderr: $(cat err.txt)"
n=$(sed -n 's/^  samples: //p' dfl.prof)
[ -n "$n" ] && [ "$n" -ge 450 ] || fail "samples: '$n', want about 700 (sampling stopped at a reset?)"
grep -q handler_replaced dfl.prof && fail "handler_replaced for a SIG_DFL"
exit 0
