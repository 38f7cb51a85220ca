#!/bin/bash
# SPDX-License-Identifier: MIT
# Loop regions: exact entries and iterations at -O0 and -O2 whatever way a
# loop is left (checked with a hook double, independent of the runtime);
# loop decisions in the decision file; vectorization unaffected.
. "$(dirname "$0")/lib.sh"
P=$T/programs
gcc -O2 -I$SELINST_ROOT/include -c $P/loop_hook_double.c -o double.o || fail "double"
for O in -O0 -O2; do
	gcc $O -fchecking -fplugin=$PLUGIN -fplugin-arg-selinst-loop-threshold=0 \
		-fplugin-arg-selinst-decisions=d$O.yaml $P/loop_counts.c double.o -o lc$O || fail "compile $O"
	./lc$O 1000 > out$O.txt 2> loops$O.txt || fail "run $O"
	sort loops$O.txt > sorted$O.txt
done
cmp -s sorted-O0.txt sorted-O2.txt || { diff sorted-O0.txt sorted-O2.txt; fail "-O0 and -O2 differ"; }
gcc -O2 $P/loop_counts.c -o plain && ./plain 1000 > plain.txt
cmp -s plain.txt out-O2.txt || fail "output changed"
check() { grep -q "^loop loop_counts.c:$1 function=$2 entries=$3 iterations=$4\$" sorted-O2.txt \
	|| { cat sorted-O2.txt; fail "loop at line $1: expected entries=$3 iterations=$4"; }; }
check 12 plain_for 10 10000
check 20 with_break 10 60
check 31 nested_goto 10 30        # i = 0, 1, 2 started
check 32 nested_goto 30 20040     # per call 1000 + 1000 + 4 (j = 0..3 started)
check 43 early_return 10 80
check 52 do_while 10 40           # a do-while is named by its do line
check 61 zero_trip 10 0
check 69 with_continue 10 100
check 81 main 1 10

# A test that opens the body is part of the body (the body started), also
# on the loop's own line; parts of a condition ("while (a && b)") are not;
# a do-while whose body opens with a break is named by its do line.
for O in -O0 -O2; do
	gcc $O -fchecking -fplugin=$PLUGIN -fplugin-arg-selinst-loop-threshold=0 \
		-fplugin-arg-selinst-decisions=tb$O.yaml $P/loop_tests_in_body.c double.o -o tb$O || fail "compile tests-in-body $O"
	./tb$O > /dev/null 2> tb$O.txt || fail "run tests-in-body $O"
	sort tb$O.txt > tb-sorted$O.txt
done
cmp -s tb-sorted-O0.txt tb-sorted-O2.txt || { diff tb-sorted-O0.txt tb-sorted-O2.txt; fail "tests-in-body: -O0 and -O2 differ"; }
expect_eq "loops with tests in the body (iterations per 10 entries)" \
	"11:60 12:60 13:30 14:10 18:60 25:60 29:30 40:10" \
	"$(sed -E 's/^loop loop_tests_in_body.c:([0-9]+) .*entries=10 iterations=([0-9]+)$/\1:\2/; s/^loop loop_tests_in_body.c:40 .*iterations=([0-9]+)$/40:\1/' tb-sorted-O2.txt | sort -n | paste -sd' ')"
expect_eq "top_tested" "True True True False False False True True" \
	"$(python3 -c 'import yaml; print(" ".join(str(l["top_tested"]) for l in sorted(yaml.safe_load(open("tb-O2.yaml"))["loops"], key=lambda l: l["line"])))')"

# Loops left by longjmp from a call inside them (one and two deep, and from
# a while loop's test) keep exact counts: the count is stored before each
# call, and the runtime takes it when the resync closes the loop. A loop
# holding the setjmp is left out, with the reason.
for O in -O0 -O2; do
	si_cc $O -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=lj$O.yaml \
		$P/loop_longjmp.c -o lj$O || fail "compile longjmp $O"
	SELINST_OUTPUT=lj$O.prof ./lj$O > /dev/null || fail "run longjmp $O"
	$REPORT --format=json lj$O.prof > lj$O.json || fail "report longjmp $O"
	expect_eq "loops left by longjmp $O (line:entries:iterations:trips)" \
		"17:3:24:{'8': 3} 27:3:3:{'1': 3} 28:3:24:{'8': 3} 38:3:21:{'7': 3}" \
		"$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%d:%d:%d:%s" % (r["line"], r["entries"], r["iterations"], r["trip_counts"])
      for r in sorted(d["regions"], key=lambda r: r["line"]) if r["kind"] == "loop"))' lj$O.json)"
done
# A loop still open when a call inside it exits the process: counted as of
# that call (the writer takes the open loop's cell).
cat > deepexit.c <<'C'
#include <stdlib.h>
int stop = 7;
__attribute__((noinline)) void work(int i) { if (i == stop) exit(0); }
__attribute__((noinline)) void run(void) { for (int i = 0; i < 100; i++) work(i); }
int main(void) { run(); return 1; }
C
si_cc -O2 -fplugin-arg-selinst-threshold=0 deepexit.c -o deepexit || fail "compile deepexit"
SELINST_OUTPUT=deepexit.prof ./deepexit || fail "run deepexit"
expect_eq "loop open at exit()" "1:8:{'8': 1}" "$($REPORT --format=json deepexit.prof | python3 -c 'import json, sys
r = [r for r in json.load(sys.stdin)["regions"] if r["kind"] == "loop"][0]
print("%d:%d:%s" % (r["entries"], r["iterations"], r["trip_counts"]))')"

expect_eq "loop holding setjmp" "holds a setjmp receiver or non-local label" \
	"$(python3 -c 'import yaml; print([l["reason"] for l in yaml.safe_load(open("lj-O2.yaml"))["loops"] if l["line"] == 46][0])')"

# Decisions: every loop listed with its metrics; at the default threshold
# main's loop is chosen (it calls functions... none instrumented here, but
# it runs at depth 0), small inner loops of deep callees are not.
python3 - <<'PY' || fail "loop decisions"
import yaml
d = yaml.safe_load(open("d-O2.yaml"))
loops = {l["name"]: l for l in d["loops"]}
assert len(loops) == 9, sorted(loops)
for l in d["loops"]:
    for k in ["name", "function", "file", "line", "nest", "basic_blocks", "statements", "call_sites",
              "weight", "loop_depth", "loop_score", "instrumented_call_sites", "callsite_score",
              "score", "instrument", "reason"]:
        assert k in l, (l["name"], k)
    assert l["score"] == l["weight"] + l["loop_score"] + l["callsite_score"], l
    assert l["instrument"] is True, l   # loop-threshold=0
assert loops["loop_counts.c:32"]["nest"] == 2
assert d["loop_threshold"] == 0
PY
gcc -O2 -fplugin=$PLUGIN -fplugin-arg-selinst-decisions=def.yaml -c $P/loop_counts.c -o def.o || fail "default"
python3 - <<'PY' || fail "default loop decisions"
import yaml
d = yaml.safe_load(open("def.yaml"))
loops = {l["name"]: l for l in d["loops"]}
fns = {f["name"]: f for f in d["functions"]}
assert d["loop_threshold"] == 204800        # follows threshold by default
assert loops["loop_counts.c:81"]["instrument"], loops["loop_counts.c:81"]
# plain_for is called at depth 1: its loop runs at d = 1 with a tiny body.
assert loops["loop_counts.c:12"]["loop_depth"] == 1
assert not loops["loop_counts.c:12"]["instrument"]
assert loops["loop_counts.c:32"]["loop_depth"] == 2
PY
gcc -O2 -fplugin=$PLUGIN -fplugin-arg-selinst-loops=off -fplugin-arg-selinst-threshold=0 -c $P/loop_counts.c -o off.o || fail "loops=off"
nm off.o | grep -q __selinst_loop && fail "loops=off still instruments loops"
gcc -fplugin=$PLUGIN -fplugin-arg-selinst-loops=maybe -c $P/loop_counts.c -o x.o 2>err.txt && fail "loops=maybe accepted"
grep -q "expected 'on' or 'off'" err.txt || fail "loops=maybe message: $(cat err.txt)"

# Vectorization: the same loops vectorize with every loop instrumented.
cat > vec.c <<'C'
void saxpy(float *restrict y, const float *restrict x, float a, int n)
{
	for (int i = 0; i < n; i++)
		y[i] += a * x[i];
}
float dot(const float *restrict x, const float *restrict y, int n)
{
	float s = 0;
	for (int i = 0; i < n; i++)
		s += x[i] * y[i];
	return s;
}
C
gcc -O3 -ffast-math -fopt-info-vec-optimized -c vec.c -o v1.o 2>&1 | grep -o '^vec.c:[0-9]*:[0-9]*: optimized: loop vectorized' | sort > vec-plain.txt
gcc -O3 -ffast-math -fplugin=$PLUGIN -fplugin-arg-selinst-threshold=0 -fopt-info-vec-optimized -c vec.c -o v2.o 2>&1 \
	| grep -o '^vec.c:[0-9]*:[0-9]*: optimized: loop vectorized' | sort > vec-si.txt
[ -s vec-plain.txt ] || fail "nothing vectorized even without the plugin"
# Each function is three bodies (off-copy, README "What gets inserted"):
# all three vectorize the same loops.
sort -u vec-si.txt | cmp -s - <(sort -u vec-plain.txt) &&
	[ "$(wc -l < vec-si.txt)" = $((3 * $(wc -l < vec-plain.txt))) ] ||
	{ diff vec-plain.txt vec-si.txt; fail "vectorization changed"; }
nm v2.o | grep -q "U __selinst_loop_exit" || fail "loops were not instrumented"
# Real kernels at the default thresholds: the set of vectorized loops of
# the BT-, MG- and CG-like workloads is the plain build's. (At
# loop-threshold=0 an outer loop whose tiny inner loops get hooks is no
# longer vectorized: those inner loops are no longer unrolled away.)
# GCC 11 (not 12) stops vectorizing BT's compute_rhs inner loop once the
# function has hooks (loops=off too): that one line is left out there.
vecset() { gcc -O3 -fopt-info-vec-optimized -c "$@" -o /dev/null 2>&1 | grep -o '^[^ ]*: optimized: loop vectorized' | sort -u; }
gcc11_known=
[ "$(gcc -dumpversion | cut -d. -f1)" = 11 ] && gcc11_known='/bt.c:227:'
for w in bt mg cg; do
	src=$SELINST_ROOT/bench/workloads/$w.c
	vecset "$src" | grep -v "${gcc11_known:-^$}" > $w-plain.txt
	vecset "$src" -fplugin=$PLUGIN | grep -v "${gcc11_known:-^$}" > $w-si.txt
	[ -s $w-plain.txt ] || fail "$w: nothing vectorized without the plugin"
	cmp -s $w-plain.txt $w-si.txt || { diff $w-plain.txt $w-si.txt; fail "$w: vectorized loops changed"; }
done
# Loops on one source line (here made by one macro) are distinct regions:
# "<file>:<line>", then "#2", "#3" from the outside in; each counts its
# own iterations.
cat > same.c <<'C'
#include <stdio.h>
#define SWEEP(N) for (int i = 0; i < N; i++) for (int j = 0; j < N + 1; j++) for (int k = 0; k < 2; k++) acc += i ^ j ^ k
int main(void)
{
	volatile long acc = 0;
	SWEEP(3);
	printf("%ld\n", (long)acc);
	return 0;
}
C
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=same.yaml same.c -o same || fail "compile same-line loops"
SELINST_OUTPUT=same.prof ./same > /dev/null || fail "run same-line loops"
expect_eq "same-line loop names" "['same.c:6', 'same.c:6#2', 'same.c:6#3']" \
	"$(yget same.yaml "sorted(l['name'] for l in d['loops'])")"
$REPORT --format=json same.prof > same.json || fail "report same-line loops"
expect_eq "same-line loop iterations" "[('same.c:6', 3), ('same.c:6#2', 12), ('same.c:6#3', 24)]" \
	"$(jget same.json "sorted((r['name'], r['iterations']) for r in d['regions'] if r['kind']=='loop')")"
# Loop shapes whose counts once differed between levels (see the
# program): the same entries and iterations, and names, at -O0, -O2, -Os.
cp $T/programs/loop_shapes.c .
for O in -O0 -O2 -Os; do
	si_cc $O -fplugin-arg-selinst-threshold=0 loop_shapes.c -o shapes$O || fail "compile shapes $O"
	SELINST_OUTPUT=shapes$O.prof ./shapes$O > /dev/null || fail "run shapes $O"
	$REPORT --format=json shapes$O.prof > shapes$O.json || fail "report shapes $O"
	expect_eq "loop shapes $O" \
		"[('loop_shapes.c:10', 10, 8), ('loop_shapes.c:14', 10, 13), ('loop_shapes.c:22', 2, 5), ('loop_shapes.c:30', 1, 9), ('loop_shapes.c:44', 1, 4), ('loop_shapes.c:54', 1, 10)]" \
		"$(jget shapes$O.json "sorted((r['name'], r['entries'], r['iterations']) for r in d['regions'] if r['kind']=='loop')")"
done
exit 0
