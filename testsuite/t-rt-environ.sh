#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime: the profile's path comes from SELINST_OUTPUT as it was at
# start-up; the exit-time write reads no environment.  gnulib's configure
# check "whether unsetenv works" (sed 4.9, gawk, ...) points environ at an
# array in main's frame and returns: the write's getenv walked the dead
# frame and crashed (status 139), so configure replaced unsetenv in every
# gnulib project built with selinst.  A program that clears its
# environment before exit wrote its profile to the default path instead.
. "$(dirname "$0")/lib.sh"
cat > envstack.c <<'C'
#include <stdlib.h>
#include <errno.h>
extern char **environ;
int main(void)
{
	char entry1[] = "a=1";
	char entry2[] = "b=2";
	char *env[] = { entry1, entry2, NULL };
	if (putenv((char *)"a=1")) return 1;
	if (putenv(entry2)) return 2;
	entry2[0] = 'a';
	unsetenv("a");
	if (getenv("a")) return 3;
	if (!unsetenv("") || errno != EINVAL) return 4;
	entry2[0] = 'b';
	environ = env;
	if (!getenv("a")) return 5;
	entry2[0] = 'a';
	unsetenv("a");
	if (getenv("a")) return 6;
	return 0;
}
C
cat > clear.c <<'C'
#include <stdlib.h>
__attribute__((noinline)) static int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i * (s | 1);
	return s;
}
int main(int argc, char **argv)
{
	(void)argv;
	int s = work(1000 * argc);
	clearenv();
	return s == 42;
}
C
si_cc -O2 -g -fplugin-arg-selinst-threshold=0 envstack.c -o envstack || fail "compile envstack"
# Several runs: what the dead frame holds at exit varies with the layout.
for i in 1 2 3 4 5; do
	SELINST_OUTPUT=$WORK/es.%p.prof ./envstack 2>err.txt
	rc=$?
	[ $rc = 0 ] || fail "envstack run $i: status $rc (plain: 0): $(cat err.txt)"
done
[ "$(ls es.*.prof | wc -l)" = 5 ] || fail "envstack profiles: $(ls)"
for f in es.*.prof; do
	$REPORT "$f" > es.txt || fail "report of $f"
	grep -q "func main" es.txt || fail "main not in $f: $(cat es.txt)"
done
si_cc -O2 -g -fplugin-arg-selinst-threshold=0 clear.c -o clear || fail "compile clear"
mkdir -p out
SELINST_OUTPUT=$WORK/out/cleared.prof ./clear || fail "clear run"
[ -f out/cleared.prof ] || fail "profile not where SELINST_OUTPUT said before clearenv: $(ls . out)"
[ -e clear.prof ] && fail "profile written to the default path after clearenv"
$REPORT out/cleared.prof | grep -q "func work" || fail "work not in the profile"
exit 0
