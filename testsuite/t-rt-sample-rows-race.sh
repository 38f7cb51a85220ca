#!/bin/bash
# SPDX-License-Identifier: MIT
# A write copies a live thread's sample table while that thread's handler
# goes on adding slots, at any index.  The copy must look at every slot:
# it used to stop after as many slots as the table held when the copy
# began, so a slot added meanwhile below the last ones pushed the last
# one out of the profile (t-rt-sample-only once wrote a main thread with
# samples: 658 and rows of 527).  A slot's count only grows, so over
# successive dumps of a running thread no sampled address's count may go
# down (the profile's module and file address: a root sample in the
# program's own code is one slot per address); the last dump names 100
# functions or more (selinst-report names them).
# The worker walks 1024 functions (-O0: each loop has some 60 addresses)
# so that nearly every sample is a new slot; the main thread dumps 100
# times, each after 15 ms of the worker's CPU time (its CPU clock: load
# does not thin the samples out).  A dump's copy is fast, so a slot comes
# in during one only now and then: three rounds, of which the old code
# failed at least one in 2 runs of the test out of 3 (this code: 6 of 6
# passed).
. "$(dirname "$0")/lib.sh"
{
	echo '#include <pthread.h>'
	echo '#include <stdio.h>'
	echo '#include <time.h>'
	echo '#include <unistd.h>'
	echo '#include <selinst.h>'
	echo 'static volatile int stop;'
	for i in $(seq 0 1023); do
		echo "__attribute__((noinline)) double f$i(double x) { for (int i = 0; i < 500; i++) { x = x * 1.0000001 + 1e-9 * $i; x = x * 0.9999999 + 2e-9; x = x * 1.0000002 - 1e-9; x = x * 0.9999998 + 3e-9; x = x * 1.0000003 - 2e-9; } return x; }"
	done
	echo 'static double (*const fs[])(double) = {'
	for i in $(seq 0 1023); do echo "f$i,"; done
	echo '};'
	cat <<'C'
static void *work(void *a)
{
	(void)a;
	static volatile double s;
	double x = 1;
	while (!stop)
		for (unsigned i = 0; i < sizeof fs / sizeof fs[0]; i++)
			x = fs[i](x);
	s = x;
	return 0;
}
int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, work, 0);
	clockid_t wc;
	if (pthread_getcpuclockid(t, &wc) != 0)
		return 1;
	char path[64];
	for (int k = 0; k < 100; k++) {
		struct timespec c0, c;
		clock_gettime(wc, &c0);
		do {
			usleep(2000);
			clock_gettime(wc, &c);
		} while ((c.tv_sec - c0.tv_sec) * 1000000000L + c.tv_nsec - c0.tv_nsec < 15000000L);
		snprintf(path, sizeof path, "d%03d.prof", k);
		if (selinst_dump(path) != 0)
			return 1;
	}
	stop = 1;
	pthread_join(t, 0);
	return 0;
}
C
} >race.c
gcc -O0 -g -pthread -I"$SELINST_ROOT/include" race.c -o race $SI_LIBS || fail "compile"
for round in 1 2 3; do
	rm -f d*.prof
	SELINST_SAMPLE=1000 ./race 2>err.txt || fail "run: $(cat err.txt)"
	[ -s err.txt ] && fail "stderr: $(cat err.txt)"
	python3 - d*.prof <<'PY' || fail "round $round: a dump lost samples of the running thread"
import sys, yaml
prev, grew = {}, 0
for f in sys.argv[1:]:
    p = yaml.safe_load(open(f))
    th = [t for t in p["threads"] if t["index"] == 1]
    if not th:
        continue
    mods = p.get("sample_modules") or []
    cur = {}
    for x in th[0].get("root_samples") or []:
        if "function" in x:	# named in the process (the vDSO; no module)
            cur[x["function"]] = cur.get(x["function"], 0) + x["count"]
            continue
        m, ad = mods[x["module"]]["path"], x["addresses"]
        for a, n in zip(ad[0::2], ad[1::2]):
            cur[(m, a)] = cur.get((m, a), 0) + n
    for k, n in prev.items():
        assert cur.get(k, 0) >= n, (f, k, n, cur.get(k, 0))
    grew += len(cur) > len(prev)
    prev = cur
assert grew >= 10 and len(prev) >= 100, (grew, len(prev))
PY
	last=$(ls d*.prof | tail -1)
	"$REPORT" --format=json "$last" >last.json || fail "round $round: report"
	jget last.json 'sum(r["name"].startswith("~f") for r in d["regions"])' >nf.txt
	[ "$(cat nf.txt)" -ge 100 ] || fail "round $round: $(cat nf.txt) functions named in $last"
done
exit 0
