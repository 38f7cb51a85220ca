#!/bin/bash
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
check 54 do_while 10 40           # a do-while is named by its while line
check 61 zero_trip 10 0
check 69 with_continue 10 100
check 81 main 1 10

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
cmp -s vec-plain.txt vec-si.txt || { diff vec-plain.txt vec-si.txt; fail "vectorization changed"; }
nm v2.o | grep -q "U __selinst_loop_exit" || fail "loops were not instrumented"
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
		"[('loop_shapes.c:10', 10, 8), ('loop_shapes.c:14', 10, 13), ('loop_shapes.c:22', 2, 5), ('loop_shapes.c:30', 1, 9), ('loop_shapes.c:46', 1, 4), ('loop_shapes.c:54', 1, 10)]" \
		"$(jget shapes$O.json "sorted((r['name'], r['entries'], r['iterations']) for r in d['regions'] if r['kind']=='loop')")"
done
exit 0
