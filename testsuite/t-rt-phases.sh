#!/bin/bash
# SPDX-License-Identifier: MIT
# Phases and iterations (issue 15): SELINST_ITERATE=FILE:LINE records what
# each iteration of that loop cost; selinst_phase_begin/end do the same for
# a phase; selinst-report --phases prints a table per loop or phase and
# flags iterations far from the median; bad input is reported once.
. "$(dirname "$0")/lib.sh"
src=$T/programs/phases.c
si_cc -O2 -pthread -fplugin-arg-selinst-threshold=0 "$src" -o ph || fail "compile"
line=$(grep -n 'for (int step = 1' "$src" | cut -d: -f1)
cline=$(grep -n 's += (double)i \* 0.5' "$src" | cut -d: -f1); cline=$((cline - 1))	# compute's loop

# 1. 50 time steps, step 17 a hundred times slower: 50 iterations, 17
# flagged and the slowest; calls per iteration exact (compute and exchange
# once).  Times are wall times: a preemption longer than step 17 on a
# loaded machine could beat it, so up to 3 runs.
for try in 1 2 3; do
	SELINST_ITERATE=phases.c:$line SELINST_OUTPUT=ph.prof ./ph steps 50 >out.txt 2>err.txt || fail "run"
	[ ! -s err.txt ] || { cat err.txt; fail "stderr not empty"; }
	"$REPORT" --phases --format=json ph.prof >ph.json || fail "report --phases json"
	slowest=$(jget ph.json "max(d['phases'][0]['iterations'], key=lambda i: i['seconds'])['iteration']")
	[ "$slowest" = 17 ] && break
	[ $try = 3 ] && fail "slowest iteration: expected 17, got $slowest (3 runs)"
done
expect_eq "iterate header" "{'loop': 'phases.c:$line', 'found': True, 'iterable': True}" \
	"$(yget ph.prof "d['iterate']")"
expect_eq "recorded" 50 "$(yget ph.prof "d['threads'][0]['iterations'][0]['recorded']")"
expect_eq "kind" loop "$(yget ph.prof "d['threads'][0]['iterations'][0]['kind']")"
expect_eq "json iterations" 50 "$(jget ph.json "len(d['phases'][0]['iterations'])")"
expect_eq "json first iteration number" 1 "$(jget ph.json "d['phases'][0]['iterations'][0]['iteration']")"
expect_eq "17 flagged" True "$(jget ph.json "d['phases'][0]['iterations'][16]['flagged']")"
# The slow step took about 100x the median.
r=$(jget ph.json "round(d['phases'][0]['iterations'][16]['seconds'] / d['phases'][0]['median_seconds'])")
[ "$r" -ge 20 ] || fail "step 17 only ${r}x the median"
expect_eq "compute's loop calls in each iteration" "[1]" \
	"$(jget ph.json "sorted({r['calls'] for i in d['phases'][0]['iterations'] for r in i['regions'] if r['line'] == $cline})")"
# The iterations' times add up to the loop's inclusive time (within 5%).
python3 - ph.prof ph.json <<'PY' || fail "iterations do not add up to the loop's time"
import sys, yaml, json
p = yaml.safe_load(open(sys.argv[1])); j = json.load(open(sys.argv[2]))
t = p["threads"][0]
node = [n for n in t["nodes"] if n["id"] == t["iterations"][0]["node"]][0]
s = sum(i["seconds"] for i in j["phases"][0]["iterations"]) * 1e9
assert abs(s - node["inclusive_ns"]) < 0.05 * node["inclusive_ns"], (s, node["inclusive_ns"])
PY
"$REPORT" --phases ph.prof >ph.txt || fail "report --phases"
grep -q "^loop phases.c:$line in main: 50 iterations, 1 thread" ph.txt || { cat ph.txt; fail "text header"; }
grep -q "^ *17 .*<- jitter" ph.txt || { cat ph.txt; fail "17 not flagged in text"; }
# A whole-run profile is still there: the loop's own node, 50 iterations.
expect_eq "loop iterations (whole run)" 50 \
	"$(yget ph.prof "[n['iterations'] for n in d['threads'][0]['nodes'] if d['regions'][n['region']]['line'] == $line][0]")"

# SELINST_ITERATE=auto picks the outermost loop whose iterations took the
# most time (the steps, not the 200 cheap warm-up iterations before them).
SELINST_ITERATE=auto SELINST_OUTPUT=auto.prof ./ph steps 20 >/dev/null 2>err.txt || fail "run auto"
[ ! -s err.txt ] || { cat err.txt; fail "stderr not empty (auto)"; }
expect_eq "auto's choice" "{'loop': 'auto', 'chosen': '$src:$line'}" "$(yget auto.prof "d['iterate']")"
expect_eq "auto keeps one table of 20" "[20]" "$(yget auto.prof "[i['recorded'] for i in d['threads'][0]['iterations']]")"

# The plots: one time series per region shown plus the iteration's, one
# heatmap cell per (thread, iteration), a circle per flagged iteration,
# self-contained, drawn by headless Chromium (data-ready: what it drew).
"$REPORT" --phases --format=svg ph.prof >ph.svg || fail "report --phases svg"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' ph.svg || fail "svg not well-formed"
grep -q 'href=\|src=' ph.svg && fail "svg refers to an external file"
nflag=$(jget ph.json "sum(i['flagged'] for i in d['phases'][0]['iterations'])")
nser=$(( $(jget ph.json "len(d['phases'][0]['iterations'][0]['regions'])") + 1 ))
grep -q '<title>iteration 17: ' ph.svg || fail "step 17 not circled in the svg"
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$chrome" ]; then
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--user-data-dir="$WORK/prof" --dump-dom "file://$WORK/ph.svg" >dom.txt 2>/dev/null
	grep -q "data-ready=\"$nser 50 $nflag\"" dom.txt || { grep -o 'data-ready="[^"]*"' dom.txt; fail "chromium drew other than $nser series, 50 cells, $nflag circles"; }
else
	echo "note: chromium not installed; the svg was checked as XML only"
fi

# 2. SELINST_ITERATE_MAX: the rest counted as dropped; -O0 marks the same.
SELINST_ITERATE=phases.c:$line SELINST_ITERATE_MAX=10 SELINST_OUTPUT=max.prof ./ph steps 50 >/dev/null || fail "run max"
expect_eq "recorded (max 10)" "10 40" \
	"$(yget max.prof "'%d %d' % (d['threads'][0]['iterations'][0]['recorded'], d['threads'][0]['iterations'][0]['dropped'])")"
si_cc -O0 -pthread -fplugin-arg-selinst-threshold=0 "$src" -o ph0 || fail "compile -O0"
SELINST_ITERATE=phases.c:$line SELINST_OUTPUT=o0.prof ./ph0 steps 30 >/dev/null || fail "run -O0"
expect_eq "recorded at -O0" 30 "$(yget o0.prof "d['threads'][0]['iterations'][0]['recorded']")"

# 3. Phases in two threads: 20 iterations each, one table, imbalance (one
# thread does twice the work of the other), phases nest under main's tree.
SELINST_OUTPUT=thr.prof ./ph threads >/dev/null 2>err.txt || fail "run threads"
[ ! -s err.txt ] || { cat err.txt; fail "stderr not empty (threads)"; }
"$REPORT" --phases --format=json thr.prof >thr.json || fail "report threads"
expect_eq "one phase" "timestep phase 2 20" \
	"$(jget thr.json "'%s %s %d %d' % (d['phases'][0]['name'], d['phases'][0]['kind'], d['phases'][0]['threads'], len(d['phases'][0]['iterations']))")"
imb=$(jget thr.json "sorted(i['imbalance'] for i in d['phases'][0]['iterations'])[10]")
python3 -c "import sys; sys.exit(0 if $imb > 1.15 else 1)" || fail "median imbalance $imb, expected about 1.33"
# compute runs inside the phase: its node's parent is the phase's.
expect_eq "compute under timestep" True "$(yget thr.prof "all(d['regions'][[m for m in t['nodes'] if m['id'] == n['parent']][0]['region']]['name'] == 'timestep' for t in d['threads'] for n in t['nodes'] if d['regions'][n['region']]['name'] == 'compute')")"

# 4. Bad input: a spec naming no loop, a malformed spec, a bad maximum,
# unbalanced ends (reported once, the program's result unchanged).
SELINST_ITERATE=phases.c:1 SELINST_OUTPUT=none.prof ./ph steps 5 >out.txt 2>err.txt || fail "run (no loop)"
grep -q "SELINST_ITERATE=phases.c:1: no loop region" err.txt || { cat err.txt; fail "no-loop message"; }
expect_eq "found false" False "$(yget none.prof "d['iterate']['found']")"
SELINST_ITERATE=nonsense SELINST_OUTPUT=bad.prof ./ph steps 5 >out.txt 2>err.txt || fail "run (bad spec)"
expect_eq "bad spec reported once" 1 "$(grep -c 'SELINST_ITERATE=nonsense: expected FILE:LINE' err.txt)"
SELINST_ITERATE_MAX=0 SELINST_OUTPUT=bad.prof ./ph steps 5 >out.txt 2>err.txt || fail "run (bad max)"
grep -q "SELINST_ITERATE_MAX=0" err.txt || fail "bad maximum not reported"
SELINST_OUTPUT=unb.prof ./ph unbalanced >out.txt 2>err.txt || fail "run (unbalanced)"
expect_eq "output" "done unbalanced" "$(cat out.txt)"
expect_eq "unbalanced reported once" 1 "$(grep -c 'selinst_phase_end' err.txt)"
expect_eq "outer recorded once" 1 "$(yget unb.prof "sum(i['recorded'] for t in d['threads'] for i in t.get('iterations', []))")"
SELINST_OUTPUT=cross.prof ./ph cross >out.txt 2>err.txt || fail "run (cross)"
expect_eq "phase ended in another thread reported once" 1 "$(grep -c 'selinst_phase_end("cross")' err.txt)"
expect_eq "cross: one iteration, in the thread that began it" "[1]" \
	"$(yget cross.prof "[i['recorded'] for t in d['threads'] for i in t.get('iterations', [])]")"
expect_eq "inner inside outer" outer "$(yget unb.prof "[d['regions'][[m for m in t['nodes'] if m['id'] == n['parent']][0]['region']]['name'] for t in d['threads'] for n in t['nodes'] if d['regions'][n['region']]['name'] == 'inner'][0]")"

# 5. Fortran, through include/selinst.fi: 12 phase iterations, the work
# loop's time growing with the step (1000 * step iterations).
gfortran -O2 $SI_CFLAGS -fplugin-arg-selinst-threshold=0 "$T/programs/phases_f.f90" $SI_LIBS -o pf \
	|| fail "compile Fortran"
SELINST_OUTPUT=pf.prof ./pf >out.txt 2>err.txt || fail "run Fortran"
[ ! -s err.txt ] || { cat err.txt; fail "stderr not empty (Fortran)"; }
"$REPORT" --phases --format=json pf.prof >pf.json || fail "report Fortran"
expect_eq "Fortran phase" "timestep 12" "$(jget pf.json "'%s %d' % (d['phases'][0]['name'], len(d['phases'][0]['iterations']))")"
expect_eq "work's loop once an iteration" "[1]" \
	"$(jget pf.json "sorted({r['calls'] for i in d['phases'][0]['iterations'] for r in i['regions'] if r['line'] == 21})")"
expect_eq "step 12's loop slower than step 2's" True \
	"$(jget pf.json "[r['seconds'] for r in d['phases'][0]['iterations'][11]['regions'] if r['line'] == 21][0] > [r['seconds'] for r in d['phases'][0]['iterations'][1]['regions'] if r['line'] == 21][0]")"

# 6. #pragma selinst phase start|end NAME, in C and C++: 8 iterations of
# timestep, one of "tail phase"; no warning with the plugin; without it
# GCC ignores the pragmas (a -Wunknown-pragmas warning) and the program
# runs the same; a bad pragma is an error naming it.
for lang in c cxx; do
	if [ $lang = c ]; then cc=si_cc; s=$T/programs/phases_pragma.c; else cc=si_cxx; cp "$T/programs/phases_pragma.c" pp.cc; s=pp.cc; fi
	$cc -O2 -Wall -Werror "$s" -o pp-$lang || fail "compile pragmas ($lang)"
	SELINST_OUTPUT=pp-$lang.prof ./pp-$lang >out.txt || fail "run pragmas ($lang)"
	"$REPORT" --phases --format=json pp-$lang.prof >pp.json || fail "report pragmas ($lang)"
	expect_eq "pragma phases ($lang)" "['tail phase 1', 'timestep 8']" \
		"$(jget pp.json "sorted('%s %d' % (p['name'], len(p['iterations'])) for p in d['phases'])")"
	expect_eq "timestep iterations grow ($lang)" True \
		"$(jget pp.json "[p for p in d['phases'] if p['name'] == 'timestep'][0]['iterations'][7]['seconds'] > [p for p in d['phases'] if p['name'] == 'timestep'][0]['iterations'][0]['seconds']")"
done
gcc -O2 -Wall "$T/programs/phases_pragma.c" -o pp-plain 2>warn.txt || fail "compile pragmas without the plugin"
grep -q "Wunknown-pragmas" warn.txt || fail "no unknown-pragma warning without the plugin"
expect_eq "plain build output" ok "$(./pp-plain)"
printf 'void f(void) {\n#pragma selinst phase middle x\n}\n' >badp.c
gcc $SI_CFLAGS -c badp.c -o badp.o 2>err.txt && fail "a bad pragma was accepted"
grep -q "badp.c:2:.*#pragma selinst phase.*expected .start. or .end." err.txt || { cat err.txt; fail "bad pragma message"; }

# 7. The predecessor graph (SELINST_FLOW=1) of a CG-like loop in two
# threads: axpy -> spmv 24 times in each (the repetition), the loop ->
# spmv once; --suggest-phases names the sequence, its count and the loop.
si_cc -O2 -pthread -fplugin-arg-selinst-threshold=0 "$T/programs/flow_cg.c" -o fl || fail "compile flow"
fline=$(grep -n 'for (int it = 0; it < 25' "$T/programs/flow_cg.c" | cut -d: -f1)
SELINST_FLOW=1 SELINST_OUTPUT=fl.prof ./fl >/dev/null 2>err.txt || fail "run flow"
[ ! -s err.txt ] || { cat err.txt; fail "stderr not empty (flow)"; }
"$REPORT" --format=flow fl.prof >fl.dot || fail "report --format=flow"
id() { grep -o "n[0-9]* \[label=\"$1\"" fl.dot | head -1 | cut -d' ' -f1; }
grep -q "^  $(id axpy) -> $(id spmv) \[label=\"1-2|24\", style=dashed\]" fl.dot || { cat fl.dot; fail "back edge axpy -> spmv 1-2|24"; }
grep -q "^  $(id "flow_cg.c:$fline") -> $(id spmv) \[label=\"1-2|1\"\]" fl.dot || { cat fl.dot; fail "loop -> spmv 1-2|1"; }
grep -q "^  $(id spmv) -> $(id dot) \[label=\"1-2|25\", style=dashed\]" fl.dot || fail "spmv -> dot 1-2|25"
if command -v dot >/dev/null; then dot -Tsvg fl.dot >/dev/null || fail "Graphviz refuses the flow graph"; fi
"$REPORT" --suggest-phases fl.prof >sug.txt || fail "--suggest-phases"
grep -q "^under flow_cg.c:$fline: spmv -> dot -> axpy repeats 50 times (2 entries of flow_cg.c:$fline, 2 threads; back edge axpy -> spmv: 48)" sug.txt \
	|| { cat sug.txt; fail "suggested sequence"; }
grep -q "mark it: SELINST_ITERATE=.*flow_cg.c:$fline" sug.txt || fail "suggestion names the loop"
# Without SELINST_FLOW nothing is recorded, and the report says how to.
SELINST_OUTPUT=nofl.prof ./fl >/dev/null || fail "run without flow"
grep -q "^  flow:" nofl.prof && fail "flow recorded without SELINST_FLOW"
"$REPORT" --suggest-phases nofl.prof | grep -q "SELINST_FLOW=1" || fail "no hint without a graph"
SELINST_FLOW=yes SELINST_OUTPUT=nofl.prof ./fl >/dev/null 2>err.txt || fail "run bad flow"
grep -q "SELINST_FLOW=yes: expected 1" err.txt || fail "bad SELINST_FLOW not reported"

# 8. The report refuses a damaged table, naming file and line.
python3 - ph.prof <<'PY'
import sys
s = open(sys.argv[1]).read().split("\n")
i = [k for k, l in enumerate(s) if l.strip().startswith("rows: [[")][0]
s[i] = s[i].replace("[[", "[[1, ", 1)	# the first row has one number too many
open("damaged.prof", "w").write("\n".join(s))
print(i + 1, file=open("line.txt", "w"))
PY
"$REPORT" --phases damaged.prof >/dev/null 2>err.txt; rc=$?
expect_eq "damaged: exit" 2 "$rc"
grep -q "damaged.prof:$(cat line.txt): a row has" err.txt || { cat err.txt; fail "damaged: message"; }
# 9. Packed rows: beyond 100 iterations each value is kept to 0.2% and the
# rows are compressed (rows_packed); SELINST_ITERATE_EXACT=1 keeps them
# text.  The same run's report agrees with the exact one to 0.2% per value
# (the two runs differ, so compare each with its own profile's rows), and
# 2,000 iterations cost under 3 bytes each instead of 10 or more.
SELINST_ITERATE=phases.c:$line SELINST_OUTPUT=pk.prof ./ph steps 2000 >/dev/null || fail "run packed"
SELINST_ITERATE=phases.c:$line SELINST_ITERATE_EXACT=1 SELINST_OUTPUT=ex.prof ./ph steps 2000 >/dev/null || fail "run exact"
SELINST_OUTPUT=whole.prof ./ph steps 2000 >/dev/null || fail "run whole"
grep -q '^ *rows_packed:' pk.prof || fail "no rows_packed beyond 100 iterations"
grep -q '^ *rows: \[\[' ex.prof || fail "SELINST_ITERATE_EXACT=1 did not keep text rows"
grep -q '^ *rows: \[\[' ph.prof || fail "50 iterations not kept as text"
"$REPORT" --phases --format=json pk.prof >pk.json || fail "report packed"
"$REPORT" --phases --format=json ex.prof >ex.json || fail "report exact"
python3 - pk.prof pk.json ex.json whole.prof <<'PY' || fail "packed rows"
import sys, os, json, zlib, base64, math
p, j, e, w = sys.argv[1:]
pk = [l for l in open(p) if l.strip().startswith(("scale:", "zlib:", "bytes:"))]
scale = json.loads(pk[1].split(":", 1)[1]); raw = zlib.decompress(base64.b64decode(pk[2].split(":", 1)[1].strip()))
assert len(raw) == int(pk[0].split(":")[1]), "bytes"
codes, v, sh = [], 0, 0
for b in raw:                                   # the format, decoded independently
    v |= (b & 127) << sh; sh += 7
    if b < 128: codes.append(v); v, sh = 0, 0
W = len(scale)
def val(k, c):
    if c == 0: return 0
    z = c - 1; q = -(z >> 1) - 1 if z & 1 else z >> 1
    return scale[k % W] * math.exp(q / 256)
jp = json.load(open(j))["phases"][0]["iterations"]
assert len(jp) == 2000 and len(codes) == 2000 * W, (len(jp), len(codes))
for i, it in enumerate(jp):
    assert abs(it["seconds"] * 1e9 - val(i * W, codes[i * W])) <= 1, (i, it["seconds"])
ex = json.load(open(e))["phases"][0]["iterations"]
assert ex[16]["flagged"] and jp[16]["flagged"], "17 flagged in both"
# quantization: every decoded wall time within 0.2% of a value the codes can hold
for i in range(0, 2000 * W, W):
    x = val(i, codes[i]); assert x == 0 or abs(math.log(x / scale[0]) * 256 - round(math.log(x / scale[0]) * 256)) < 1e-6
size = lambda f: os.path.getsize(f)
per = (size(p) - size(w)) / 2000; per_ex = (size(e) - size(w)) / 2000
assert per < 3 and per_ex > 3 * per, (per, per_ex)
print("packed %.2f B/iteration, exact %.2f" % (per, per_ex))
PY
# A damaged packed table is refused with file and line.
sed 's/^\( *zlib: ....\)/\1*/' pk.prof >dpk.prof
"$REPORT" --phases dpk.prof >/dev/null 2>err.txt && fail "damaged packed rows accepted"
grep -q "dpk.prof:[0-9]*: 'zlib' of rows_packed is not base64" err.txt || { cat err.txt; fail "damaged packed: message"; }
sed 's/^\( *bytes: \)\([0-9]*\)/\11\2/' pk.prof >dpk.prof
"$REPORT" --phases dpk.prof >/dev/null 2>err.txt && fail "wrong byte count accepted"
grep -q "dpk.prof:[0-9]*: .*rows_packed" err.txt || { cat err.txt; fail "wrong byte count: message"; }
"$REPORT" --jitter 3 ph.prof >/dev/null 2>&1 && fail "--jitter without --phases accepted"
"$REPORT" --phases --format=folded ph.prof >/dev/null 2>&1 && fail "--phases --format=folded accepted"
# Threads in the svg: two heatmap rows of 20 cells.
"$REPORT" --phases --format=svg thr.prof >thr.svg || fail "svg threads"
expect_eq "heatmap cells (2 threads x 20)" 40 "$(grep -c 'class="cell"' thr.svg)"
# A loop in a function on a folded recursion cycle: its node's id carries
# the recursion bit, which once made the series' bookkeeping wrap and
# grow forever (the run hung in grow_last).
cat >rec.c <<'EOF'
#include <stdio.h>
volatile int sink;
__attribute__((noinline)) int f(int x) { sink += x; return x & 3; }
__attribute__((noinline)) int rec(int n) {
	int s = 0;
	for (int i = 0; i < n; i++) s += f(i) + (n > 1 ? rec(n / 2) : 0);
	return s;
}
int main(void) { long t = 0; for (int r = 0; r < 20; r++) t += rec(r % 9); printf("%ld\n", t); return 0; }
EOF
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 rec.c -o rec ||
	fail "compile rec.c"
SELINST_ITERATE=rec.c:6 SELINST_OUTPUT=rec.prof timeout 60 ./rec >rec.out 2>err.txt ||
	fail "SELINST_ITERATE on a recursive function's loop: exit $? (hung?) $(cat err.txt)"
gcc -O2 rec.c -o rec.plain && ./rec.plain >rec.expect && cmp -s rec.out rec.expect || fail "rec.c output differs"
"$REPORT" --phases rec.prof >rec.txt || fail "report --phases rec.prof"
grep -q "^loop rec.c:6 in rec: [0-9]* iterations" rec.txt || { cat rec.txt; fail "rec.c:6 iterations not reported"; }
echo ok
