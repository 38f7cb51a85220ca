#!/bin/bash
# SPDX-License-Identifier: MIT
# Writing the samples costs little beside the run (issue 14, point 4), and
# so does naming them in selinst-report (profile version 3; the runtime
# named them at write time before).  Each distinct sampled PC is named by
# the innermost inlined function that holds it; dwarf_getscopes, used
# before, walked the whole compilation unit again for each inlined PC
# (its abstract origin's scopes): in a unit of 400 functions with 6
# inlined helpers each, a dump of the profile after 0.25 s of work at
# 10000 Hz took 23-25 ms of CPU (about 10% of the work), the walk down
# the scopes that hold the PC 1.5 ms (0.6%); the write without naming
# about 0.1 ms, the report's run about 2.5 ms.  Bounds: the dump 3% of
# the same thread's CPU time in the work before it (a ratio in one run,
# so load does not move it much), the report 5%.  And the names are
# still the helpers' own.
. "$(dirname "$0")/lib.sh"
python3 - > many.c <<'PY'
print("#include <stdio.h>\n#include <stdlib.h>\n#include <time.h>\n#include <selinst.h>")
print("static double cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);"
      " return t.tv_sec + t.tv_nsec / 1e9; }")
for k in range(16):
    print("static inline double h%d(double x, double y) { double a = x * %d.5 + y;"
          " double b = a * a - y; return b / (a + %d.25); }" % (k, k + 1, k + 1))
for i in range(400):	# a large unit: many DIEs with children
    body = " ".join("s += h%d(s, x + %d);" % ((i + j) % 16, j) for j in range(6))
    print("__attribute__((noinline)) double f%d(double x) { double s = x; %s return s; }" % (i, body))
print("__attribute__((noinline)) double work(long n) { double s = 1, t = 0;")
print("  for (long i = 0; i < n; i++) {")
for k in range(16):
    print("    s = h%d(s, (double)i) * 1e-3; t += s;" % k)
print("  } return t; }")
print("int main(int argc, char **argv) {")
print("  double c0 = cpu(), t = work(atol(argv[1])), c1 = cpu();")
print("  if (selinst_dump(argv[2]) != 0) return 2;")
print("  double c2 = cpu();")
for i in range(400):
    print("  if (t < -1) t += f%d(t);" % i)
print('  printf("%.6f %.6f\\n", c1 - c0, c2 - c1); return 0; }')
PY
si_cc -O2 -g many.c -o many || fail "compile"
read -r work dump < <(SELINST_SAMPLE=10000 SELINST_OUTPUT=$WORK/m.prof ./many 2000000 $WORK/d.prof) ||
	fail "run"
echo "work ${work}s, dump ${dump}s"
python3 -c "import sys; sys.exit(not ($dump < 0.03 * $work))" ||
	fail "the dump took ${dump}s of CPU, over 3% of the work's ${work}s"
read -r rep < <(python3 - "$REPORT" d.prof <<'PY'
import resource, subprocess, sys
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
subprocess.run([sys.argv[1], "--tree", sys.argv[2]], stdout=subprocess.DEVNULL, check=True)
r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f" % (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime))
PY
) || fail "report"
echo "report ${rep}s"
python3 -c "import sys; sys.exit(not ($rep < 0.05 * $work))" ||
	fail "the report took ${rep}s of CPU, over 5% of the work's ${work}s"
sampled_paths d.prof | sed 's/.*;~\([^;]*\)\t.*/\1/' | sort -u >names.txt
# Which helpers keep code of their own depends on the compiler (GCC 11
# folds some into their neighbours), so at least half of the 16 by name.
[ "$(grep -cx 'h[0-9]*' names.txt)" -ge 8 ] ||
	fail "the inlined helpers are not named: $(cat names.txt)"
exit 0
