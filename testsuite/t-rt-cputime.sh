#!/bin/bash
# SPDX-License-Identifier: MIT
# Per-thread times are elapsed time; each thread's CPU time is recorded
# beside them (cpu_ns), read at thread exit or when the profile is
# written, and shown by --threads: a thread that sleeps in a region has
# the region's elapsed time but next to no CPU time, a busy thread's CPU
# time is about its elapsed time (at most, give or take clock reading).
. "$(dirname "$0")/lib.sh"
cat >ct.c <<'EOF2'
#include <pthread.h>
#include <time.h>
__attribute__((noinline)) void nap(void) { struct timespec ts = { 0, 300000000 }; nanosleep(&ts, 0); }
__attribute__((noinline)) double spin(void)
{
	struct timespec a, b;
	volatile double x = 0;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {	/* 200 ms of CPU, however busy the machine */
		for (int i = 0; i < 100000; i++) x += i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec) < 2e8);
	return x;
}
void *sleeper(void *arg) { (void)arg; nap(); return 0; }
int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, sleeper, 0);
	spin();
	pthread_join(t, 0);
	return 0;
}
EOF2
si_cc -O1 -pthread -fplugin-arg-selinst-threshold=0 ct.c -o ct || fail "compile"
./ct || fail "run"
python3 - <<'PY' || fail "cpu_ns"
import yaml
p = yaml.safe_load(open("ct.prof"))
regions = {r["id"]: r["name"] for r in p["regions"]}
for t in p["threads"]:
    names = {regions[n["region"]]: n for n in t["nodes"]}
    cpu = t["cpu_ns"]
    assert isinstance(cpu, int), t.get("cpu_ns")
    if "nap" in names:
        el = names["nap"]["inclusive_ns"]
        assert el >= 250e6 and cpu < 0.5 * el, ("sleeper", el, cpu)
    if "spin" in names:
        el = names["spin"]["inclusive_ns"]
        # spin() ran 200 ms of CPU; the rest of main's CPU time is small
        assert 190e6 <= cpu <= el + 20e6, ("spinner", el, cpu)
PY
"$REPORT" --threads ct.prof >th.txt || fail "--threads"
grep -q 'cpu s' th.txt || fail "--threads lacks the cpu column: $(cat th.txt)"
grep -q 'elapsed time in regions per thread' th.txt || fail "--threads does not say what it measures"
exit 0
