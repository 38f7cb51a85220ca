#!/bin/bash
# SPDX-License-Identifier: MIT
# Samples in many modules: the runtime lists the modules at each write
# (dl_iterate_phdr) with no cap on their number.  It kept at most 64
# modules with loop tables before (profile version 2): samples in the
# 65th and later got no addresses, so their loops went unnamed, without
# a word.  Here 80 shared libraries built with the plugin and -g each
# hold a loop that runs 10 ms of CPU, three times: the report names the
# loop of 65 of them or more, and the profile lists more than 64
# modules.  A library may get no sample on a loaded machine (the CPU
# clock's timer is checked at the scheduler's ticks): with 70 libraries
# one run under load found only 61; 80 leave room for 15.
. "$(dirname "$0")/lib.sh"
N=80
for i in $(seq 0 $((N - 1))); do
	cat >lib$i.c <<EOF2
#include <time.h>
static double cpu(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}
double f$i(double x)
{
	double t0 = cpu();
	while (cpu() - t0 < 0.01)
		for (int i = 0; i < 2000; i++)
			x = x * 1.0000001 + 1e-9 * $i;
	return x;
}
EOF2
done
seq 0 $((N - 1)) | xargs -P 2 -I{} gcc $SI_CFLAGS -O2 -g -fPIC -shared lib{}.c -o liblib{}.so ||
	fail "compile the libraries"
{
	echo '#include <stdio.h>'
	for i in $(seq 0 $((N - 1))); do echo "double f$i(double);"; done
	echo 'int main(void) { double x = 1; for (int r = 0; r < 3; r++) {'
	for i in $(seq 0 $((N - 1))); do echo "x = f$i(x);"; done
	echo '} printf("%g\n", x); return 0; }'
} >main.c
libs=$(for i in $(seq 0 $((N - 1))); do printf -- '-llib%s ' "$i"; done)
si_cc -O2 main.c -o main -L. $libs -Wl,-rpath,"$PWD" || fail "compile the program"
SELINST_SAMPLE=1000 ./main >/dev/null 2>err.txt || fail "run: $(cat err.txt)"
[ -s err.txt ] && fail "stderr: $(cat err.txt)"
mods=$(yget main.prof 'len(d["sample_modules"])')
[ "$mods" -gt 64 ] || fail "$mods sample modules"
"$REPORT" --format=json main.prof >j.json 2>err.txt || fail "report: $(cat err.txt)"
[ -s err.txt ] && fail "report's stderr: $(cat err.txt)"
named=$(jget j.json 'len({r["name"] for r in d["regions"] if r["name"].startswith("~loop lib")})')
[ "$named" -ge 65 ] || fail "the loops of $named libraries named: $(grep -o '"~loop lib[^"]*"' j.json | sort -u)"
exit 0
