#!/bin/bash
# SPDX-License-Identifier: MIT
# Sampling-only mode (issue 14, point 5): a program with no hooks at all,
# built without the plugin and run with LD_PRELOAD=libselinst.so, or built
# with the plugin but nothing selected and linked with -lselinst, gets a
# function profile from SELINST_SAMPLE's samples alone: the runtime sets
# the main thread up in its constructor and other threads as they start
# (pthread_create), and the report shows the samples outside every region
# as ~function regions at the top of each thread's tree.  hot1 does three
# times hot2's work in the main thread; a second thread runs only hot2:
# the shares must come out within 5 points.
. "$(dirname "$0")/lib.sh"
cat >plain.c <<'EOF'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) double hot1(double x, long n)
{
	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}
__attribute__((noinline)) double hot2(double x, long n)
{
	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}
static long n = 100000000;
static void *thr(void *a) { (void)a; static volatile double s; s = hot2(1, n); return 0; }
int main(int argc, char **argv)
{
	if (argc > 1)
		n = atol(argv[1]);
	double x = 1;
	pthread_t t;
	pthread_create(&t, 0, thr, 0);
	/* Many short rounds: the machine's speed drifts under load (a
	 * shared VM charges stolen time as CPU time), and four long ones
	 * let one drift land on one function (82% and 18% once). */
	for (int k = 0; k < 100; k++) {
		x = hot1(x, 3 * n / 100);
		x = hot2(x, n / 100);
	}
	pthread_join(t, 0);
	printf("%g\n", x);
	return 0;
}
EOF

# check PROFILE: per thread, the root's sampled functions in the expected
# shares (CPU-time samples: load does not change them), as the report
# names them (its per-thread table: estimates from the thread's CPU time
# split by sample counts, so their shares are the counts').
check() {
	"$REPORT" --threads --top 0 --wide "$1" >"$1.threads" || fail "$2: --threads"
	python3 - "$1" "$1.threads" <<'PY' 2>"$1.why"
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))
assert p["sampling"]["hz"] == 1000, p.get("sampling")
assert not p["regions"], p["regions"]
th = sorted(p["threads"], key=lambda t: t["index"])
assert len(th) == 2, len(th)
lines = open(sys.argv[2]).read().split("\n")
at = lines.index("Exclusive seconds by thread")
cols = lines[at + 1].split()[:-1]
assert cols == ["t%d" % t["index"] for t in th], cols
per = {c: {} for c in cols}
for l in lines[at + 2:]:
    if not l.strip():
        break
    f = l.split(None, len(cols))
    for c, v in zip(cols, f):
        if v != "-":
            per[c][f[-1]] = float(v)
def shares(t):
    assert sum(x["count"] for x in t.get("root_samples", [])) >= 100, t["index"]
    s = per["t%d" % t["index"]]
    tot = sum(s.values())
    return {k.lstrip("~"): 100.0 * v / tot for k, v in s.items()}
m, o = shares(th[0]), shares(th[1])
assert abs(m.get("hot1", 0) - 75) <= 5 and abs(m.get("hot2", 0) - 25) <= 5, m
assert o.get("hot2", 0) >= 95, o
PY
}

# run_checked WHAT COMMAND...: the run and its check, up to three times.
# The shares are CPU-time samples', but a loaded shared VM charges stolen
# time to whichever thread it preempted: under CI's load one run in a few
# dozen came out at 69/31 for 75/25 (t-rt-sample-only failed a landing).
# A wrong attribution misses in every run.
run_checked() {
	local what=$1 prof=$2; shift 2
	for try in 1 2 3; do
		rm -f "$prof"
		"$@" >out.txt 2>err.txt || fail "$what run: $(cat err.txt)"
		[ -s err.txt ] && fail "$what: stderr: $(cat err.txt)"
		check "$prof" "$what" && return 0
		echo "$what, try $try: shares off: $(tail -1 "$prof.why")"
	done
	fail "$what: shares from samples, three runs: $(cat "$prof" "$prof.threads" "$prof.why")"
}

gcc -O2 -pthread plain.c -o plain || fail "compile without the plugin"
run_checked LD_PRELOAD plain.prof env SELINST_SAMPLE=1000 LD_PRELOAD=$SELINST_BUILD/libselinst.so ./plain

# The report: ~hot1 and ~hot2 at the top, estimated from the threads'
# CPU time; hot1 3/5 of the whole (main runs 4 n, the other thread n).
"$REPORT" --format=json plain.prof >j.json || fail "report json"
python3 - j.json <<'PY' || fail "report: $(cat j.json)"
import json, sys
j = json.load(open(sys.argv[1]))
r = {x["name"]: x for x in j["regions"]}
assert {"~hot1", "~hot2"} <= set(r), list(r)
assert all(x["kind"] == "sampled" and x["estimated"] for x in r.values())
tot = j["total_seconds"]
assert tot > 0
# A sample may land in libc (thread start, the write): a few ms at most.
others = sum(x["exclusive_seconds"] for n, x in r.items() if n not in ("~hot1", "~hot2"))
assert others <= 0.02 * tot, list(r)
share = 100 * r["~hot1"]["exclusive_seconds"] / tot
assert abs(share - 60) <= 5, share
assert r["~hot2"]["threads"] == 2, r["~hot2"]
PY
"$REPORT" --tree plain.prof >tree.txt || fail "tree"
grep -Eq '^ +[0-9.]+ +[0-9.]+% +[0-9.]+ +[0-9]+ smp ~hot1$' tree.txt || fail "tree: no top-level ~hot1: $(cat tree.txt)"
"$REPORT" --format=folded plain.prof >f.txt || fail "folded"
grep -Eq '^~hot1 [0-9]+$' f.txt || fail "folded: $(cat f.txt)"
"$REPORT" --no-samples --format=json plain.prof >n.json || fail "--no-samples"
jget n.json 'len(d["regions"])' | grep -qx 0 || fail "--no-samples shows sampled regions"
SELINST_REPORT_LIBYAML=1 "$REPORT" --format=folded plain.prof >slow.txt || fail "libyaml path"
cmp -s f.txt slow.txt || fail "the fast YAML path and libyaml differ"

# With SELINST_SAMPLE=off the preloaded runtime sets nothing up.
SELINST_SAMPLE=off LD_PRELOAD=$SELINST_BUILD/libselinst.so ./plain >/dev/null 2>err.txt ||
	fail "run without sampling"
yget plain.prof '"sampling" in d or len(d["threads"])' | grep -qx 0 ||
	fail "threads or sampling with SELINST_SAMPLE=off"
# Unset, it samples (the default rate).
LD_PRELOAD=$SELINST_BUILD/libselinst.so ./plain >/dev/null 2>err.txt || fail "run with the default"
expect_eq "sampled by default" 1000 "$(yget plain.prof 'd["sampling"]["hz"]')"

# Built with the plugin, nothing selected, linked with the runtime.
si_cc -O2 -pthread -fplugin-arg-selinst-threshold=1000000000000 plain.c -o sel ||
	fail "compile with nothing selected"
run_checked "nothing selected" sel.prof env SELINST_SAMPLE=1000 ./sel
exit 0
