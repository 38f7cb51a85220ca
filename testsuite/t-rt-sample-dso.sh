#!/bin/bash
# SPDX-License-Identifier: MIT
# Sampling across a shared library (issue 14, point 6): an uninstrumented
# leaf in a shared library built without the plugin, called from a hooked
# loop of the program, is named from the library's symbol table and shows
# as ~dso_leaf under that loop, holding most of the loop's time; a leaf
# in a library opened with dlopen the same way.
. "$(dirname "$0")/lib.sh"
cat >lib.c <<'EOF'
double dso_leaf(double x)
{
	for (int i = 0; i < 20000; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}
EOF
cat >main.c <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
double dso_leaf(double x);
static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}
__attribute__((noinline)) double work(double (*f)(double), double secs)
{
	double x = 1, t0 = cpu_now();
	while (cpu_now() - t0 < secs)	/* secs of CPU, however busy the machine */
		x = f(x);
	return x;
}
__attribute__((noinline)) double opened(double secs)
{
	void *h = dlopen("./libdl2.so", RTLD_NOW);
	double (*f)(double) = h ? (double (*)(double))dlsym(h, "dl2_leaf") : NULL;
	return f ? work(f, secs) : -1;	/* the library stays open: its names are read at exit */
}
int main(void)
{
	printf("%g %g\n", work(dso_leaf, 0.3), opened(0.2));
	return 0;
}
EOF
sed 's/dso_leaf/dl2_leaf/' lib.c >dl2.c
gcc -O2 -fPIC -shared lib.c -o libleaf.so || fail "compile the library"
gcc -O2 -fPIC -shared dl2.c -o libdl2.so || fail "compile the dlopen'ed library"
si_cc -O2 -fplugin-arg-selinst-threshold=0 main.c -o main -L. -lleaf -ldl -Wl,-rpath,"$PWD" ||
	fail "compile the program"
SELINST_SAMPLE=1000 ./main >/dev/null 2>err.txt || fail "run: $(cat err.txt)"
[ -s err.txt ] && fail "stderr: $(cat err.txt)"
sampled_paths main.prof >paths.txt || fail "the report's tree"
python3 - main.prof paths.txt "$T/rt" <<'PY' || fail "the library's leaf not under the loop: $(cat paths.txt)"
import sys, yaml
sys.path.insert(0, sys.argv[3])
from sampled import named, tree_path, node_samples
p = yaml.safe_load(open(sys.argv[1]))
by = named(sys.argv[2])
regions = {r["id"]: r for r in p["regions"]}
(t,) = p["threads"]
found = {}
for n in t["nodes"]:
    if regions[n["region"]]["kind"] != "loop":
        continue
    at = tree_path(p, t, n)
    for leaf in ("dso_leaf", "dl2_leaf"):
        k = by.get(at + ";~" + leaf, 0)
        if k >= 0.8 * node_samples(n) and k >= 100:
            found[leaf] = at
assert found.get("dso_leaf", "").startswith("main;work;"), found
assert found.get("dl2_leaf", "").startswith("main;opened;work;"), found
PY
"$REPORT" --format=folded main.prof >f.txt || fail "folded"
grep -Eq '^main;work;main\.c:[0-9]+;~dso_leaf [0-9]+$' f.txt || fail "folded: $(cat f.txt)"
grep -Eq '^main;opened;work;main\.c:[0-9]+;~dl2_leaf [0-9]+$' f.txt || fail "folded: $(cat f.txt)"
exit 0
