#!/bin/bash
# SPDX-License-Identifier: MIT
# Profile feedback (issue 13 point 2): -fplugin-arg-selinst-profile=FILE
# and -fplugin-arg-selinst-budget=PCT.  A first build (the paper's formula)
# runs unthrottled (exact counts); the second build drops the hot cheap region
# (tiny and its loop) with the reason, keeps the rest, adds the loop and
# the function inside the bottleneck (heavy's outer loop), and its profile
# shows it; budget=100 drops nothing; a merged JSON and two profiles work;
# bad profiles are compile errors naming the file.
. "$(dirname "$0")/lib.sh"
SRC=$T/programs/feedback.c
# The builds use the paper's formula: it measures the hot cheap function
# (tiny), which the default's refinement small-body already leaves out.
build() { # OUT DECISIONS extra flags...
	local out=$1 dec=$2; shift 2
	rm -f "$dec"
	si_cc -O2 -fplugin-arg-selinst-model=paper -fplugin-arg-selinst-decisions="$dec" \
		"$@" "$SRC" -o "$out"
}
# decision FILE KIND NAME: "instrument reason" of a function or loop
decision() {
	python3 -c 'import sys,yaml
d=yaml.safe_load(open(sys.argv[1]))
for r in d[sys.argv[2]]:
    if r["name"] == sys.argv[3]: print(r["instrument"], r["reason"]); sys.exit()
print("absent")' "$@"
}
regions() { yget "$1" "sorted(r['name'] for r in d['regions'])"; }

build a a.yaml || fail "first build"
SELINST_THROTTLE=off SELINST_OUTPUT=a.prof ./a 400000 >/dev/null || fail "run a"
case "$(regions a.prof)" in *"'tiny'"*"'feedback.c:14'"*|*"'feedback.c:14'"*"'tiny'"*) ;;
	*) fail "the first build should measure tiny and its loop: $(regions a.prof)";; esac

build b b.yaml -fplugin-arg-selinst-profile=a.prof -fplugin-arg-selinst-budget=1 \
	|| fail "feedback build"
d=$(decision b.yaml functions tiny)
[[ $d =~ ^False\ dropped:\ predicted\ [0-9.]+%\ \>\ budget\ 1%\ \(profile\ a.prof\)$ ]] \
	|| fail "tiny: expected dropped with its predicted cost, got '$d'"
d=$(decision b.yaml loops feedback.c:14)
[[ $d == "False dropped: "* ]] || fail "tiny's loop: expected dropped, got '$d'"
for f in main heavy mid; do
	d=$(decision b.yaml functions $f)
	[[ $d == "True kept: predicted "* ]] || fail "$f: expected kept, got '$d'"
done
d=$(decision b.yaml loops feedback.c:41)
[[ $d == "True loop added: in bottleneck feedback.c:39 ("*"% exclusive)"* ]] \
	|| fail "heavy's inner loop: expected added in the bottleneck, got '$d'"
d=$(decision b.yaml functions helper)
[[ $d == "True function added: in bottleneck feedback.c:39"* ]] \
	|| fail "helper: expected added in the bottleneck, got '$d'"
ok=$(yget b.yaml "d['feedback']['predicted_kept'] + d['feedback']['predicted_added'] <= 1 < d['feedback']['predicted_all']")
expect_eq "predicted cost: over the budget before, within it after" True "$ok"

SELINST_THROTTLE=off SELINST_OUTPUT=b.prof ./b 400000 >/dev/null || fail "run b"
r=$(regions b.prof)
case "$r" in *"'tiny'"*|*"'feedback.c:14'"*) fail "the feedback build still measures tiny: $r";; esac
case "$r" in *"'feedback.c:41'"*"'helper'"*) ;; *) fail "added regions not measured: $r";; esac

# Shares are of the threads' CPU time (cpu_ns), not of their wall-clock
# (exclusive) time: a profile whose threads ran half the time they were
# on the clock (a loaded machine) predicts every cost about twice as high;
# without a CPU time (~), or with one above the wall clock, the wall clock.
cpu_as() { # IN OUT HOW: each thread's cpu_ns as HOW (half, none, over)
	python3 - "$@" <<'PY'
import re, sys, yaml
text = open(sys.argv[1]).read()
d = yaml.safe_load(text)
vals = []
for t in d["threads"]:
    excl = sum(n["exclusive_ns"] for n in t["nodes"])
    vals.append({"half": str(excl // 2), "none": "~", "over": str(excl * 3)}[sys.argv[3]])
it = iter(vals)
out, n = re.subn(r"(?m)^(\s*cpu_ns: ).*$", lambda m: m.group(1) + next(it), text)
assert n == len(vals), (n, len(vals))
open(sys.argv[2], "w").write(out)
PY
}
for how in half none over; do
	cpu_as a.prof cpu-$how.prof $how || fail "cpu_ns $how"
	build x x-$how.yaml -fplugin-arg-selinst-profile=cpu-$how.prof -fplugin-arg-selinst-budget=100 \
		|| fail "build with cpu_ns $how"
done
all() { yget "$1" "d['feedback']['predicted_all']"; }
expect_eq "no CPU time, or one over the wall clock: wall-clock shares" "$(all x-none.yaml)" "$(all x-over.yaml)"
# At least twice: the run time is less the measured hooks' predicted cost
# C, so halving T turns (T - C) into (T/2 - C), at most half of it (how
# much less depends on the calibrated pair cost, which varies with load).
ok=$(python3 -c "import sys; h, w = map(float, sys.argv[1:]); print(w > 0 and h / w >= 1.9)" \
	"$(all x-half.yaml)" "$(all x-none.yaml)")
expect_eq "half the CPU time: shares at least twice ($(all x-half.yaml)% vs $(all x-none.yaml)%)" True "$ok"

# budget=100: nothing predicted at or under 100% is dropped, the reasons
# name the profile.  (On a quiet machine tiny is predicted at about 20%
# and nothing is dropped; CI under load saw drops: the first run's pair
# cost, measured in the run, rose to 45 ns and all regions together were
# predicted at 174% of the run.  So a drop must say a prediction over the
# budget: its own, or all regions' when predicted_all is over it.)
build c c.yaml -fplugin-arg-selinst-profile=a.prof -fplugin-arg-selinst-budget=100 \
	|| fail "budget=100 build"
python3 - c.yaml <<'PY' || fail "budget=100: $(grep -A12 '^feedback:' c.yaml)"
import re, sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
ok = True
over_all = float(d["feedback"]["predicted_all"]) > 100
for r in d["functions"] + d["loops"]:
    reason = str(r["reason"])
    m = re.match(r"(kept|dropped): predicted ([0-9.]+)% ", reason)
    all_over = over_all and re.search(r"all regions ([0-9.]+)% > budget 100%", reason)
    if reason.startswith("dropped") and not (m and (float(m.group(2)) > 100 or all_over)):
        ok = False; print("dropped without a prediction over 100%:", r["name"], reason)
    if m and m.group(1) == "kept" and float(m.group(2)) > 100:
        ok = False; print("kept over the budget:", r["name"], reason)
    if r["name"] == "tiny" and not m:
        ok = False; print("tiny has no prediction:", reason)
sys.exit(0 if ok else 1)
PY

# The merged JSON of the report, and two profiles, decide the same.
"$REPORT" --format=json a.prof >a.json || fail "report json"
build d d.yaml -fplugin-arg-selinst-profile=a.json || fail "json build"
[[ $(decision d.yaml functions tiny) == "False dropped: "* ]] || fail "json: tiny not dropped"
cp a.prof a2.prof
build e e.yaml -fplugin-arg-selinst-profile=a.prof:a2.prof || fail "two profiles"
[[ $(decision e.yaml functions tiny) == "False dropped: "*"(profile a.prof, a2.prof)" ]] \
	|| fail "two profiles: $(decision e.yaml functions tiny)"

# Bad profiles: compile errors naming the file.
bad() { # WHAT FILE-LIST EXPECTED-MESSAGE-PART
	build x x.yaml -fplugin-arg-selinst-profile="$2" 2>err.txt \
		&& fail "$1: compiled"
	grep -q -- "$3" err.txt || fail "$1: expected '$3' in: $(cat err.txt)"
}
bad "missing file" nope.prof "cannot read profile 'nope.prof'"
head -n 12 a.prof >cut.prof
bad "truncated at a line" cut.prof "cut.prof:[0-9]*: profile is truncated"
head -c 700 a.prof >cut2.prof
bad "truncated mid-line" cut2.prof "cut2.prof:[0-9]*: "
head -c 300 a.json >cut.json
bad "truncated JSON" cut.json "cut.json:[0-9]*: bad profile"
sed 's/^version: 3$/version: 4/' a.prof >new.prof
bad "newer version" new.prof "new.prof:2: format version 4 is newer"
sed 's|^program: .*|program: /usr/bin/other|' a.prof >other.prof
bad "two programs" a.prof:other.prof "other.prof: a profile of 'other', but a.prof is a profile of"
echo "not: [a profile" >junk.prof
bad "not YAML" junk.prof "junk.prof:[0-9]*: bad profile"
# An empty value is no number (the reader once read past it: a crash
# when the plugin is built without optimisation); an empty cpu_ns is no
# CPU time (the wall clock then).
sed 's/^hook_pair_ns: .*/hook_pair_ns:/' a.prof >empty.prof
bad "empty number" empty.prof "empty.prof:[0-9]*: expected a non-negative number for 'hook_pair_ns'"
sed 's/^\(  cpu_ns:\) .*/\1/' a.prof >emptycpu.prof
build x x.yaml -fplugin-arg-selinst-profile=emptycpu.prof -fplugin-arg-selinst-budget=100 \
	|| fail "empty cpu_ns: not a CPU time"
build x x.yaml -fplugin-arg-selinst-profile=a.prof -fplugin-arg-selinst-budget=lots 2>err.txt \
	&& fail "budget=lots compiled"
grep -q "bad value 'lots' for argument 'budget'" err.txt || fail "budget=lots: $(cat err.txt)"
# Effective counts (the OpenUH paper: with runtime information the weight
# "will use the effective number of basic blocks, statements and
# callsites invoked at runtime").  feedback-eff.c's busy (static weight
# 33, called at depth 1) is left out by the static model; its loop runs
# 1024 times per call, so its effective weight reaches the threshold.
# rare (static weight over 2048) is chosen statically; its loop never
# iterates, so its effective weight is small and it is left out.
EFF=$T/programs/feedback-eff.c
effb() { # OUT DECISIONS extra flags...
	local out=$1 dec=$2; shift 2
	rm -f "$dec"
	si_cc -O2 -fplugin-arg-selinst-decisions="$dec" "$@" "$EFF" -o "$out"
}
# decided FILE KIND NAME GLOB WHAT: the decision matches GLOB
decided() {
	local d
	d=$(decision "$1" "$2" "$3")
	# shellcheck disable=SC2053 # $4 is a glob
	[[ $d == $4 ]] || fail "$3, $5, got '$d'"
}
effb es es.yaml || fail "static build"
decided es.yaml functions busy "False score < threshold" "static: expected left out"
decided es.yaml functions rare "True score >= threshold" "static: expected chosen"
effb e0 e0.yaml -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 \
	|| fail "threshold 0 build"
SELINST_THROTTLE=off SELINST_OUTPUT=e0.prof ./e0 >/dev/null || fail "run e0"
effb ef ef.yaml -fplugin-arg-selinst-profile=e0.prof -fplugin-arg-selinst-budget=100 \
	|| fail "effective build"
eff="effective weight from measured loop iterations per call; static weight"
decided ef.yaml functions busy "True kept: predicted *% (score >= threshold; $eff 33)" \
	"effective: expected chosen by its effective weight"
decided ef.yaml functions rare "False score < threshold; $eff *" \
	"effective: expected left out by its effective weight"
ok=$(yget ef.yaml "[f['weight'] for f in d['functions'] if f['name'] == 'busy'][0] > 1024 * 10")
expect_eq "busy's effective weight counts its loop body 1024 times" True "$ok"

# Bottleneck additions estimate a callee's calls from the bottleneck's
# counts only when nothing else calls it: main's loop (the default
# build's bottleneck) calls busy once per iteration (added, estimated)
# and the recursive walk once, which then calls itself 3.5 times on
# average (not added: its calls are unknown).
effb ed ed.yaml || fail "default build"
SELINST_THROTTLE=off SELINST_OUTPUT=ed.prof ./ed >/dev/null || fail "run ed"
effb ex ex.yaml -fplugin-arg-selinst-profile=ed.prof -fplugin-arg-selinst-budget=100 \
	|| fail "feedback build from the default"
decided ex.yaml functions busy "True function added: in bottleneck *, calls estimated, predicted *" \
	"from the default: expected added in the bottleneck"
decided ex.yaml functions walk "False *" "recursive: expected not added"

# The out-of-line term (include/selinst-predict.h): a function region's
# call costs 0.55 ns besides its hook pair (GCC often will not inline a
# hooked body); a loop's entries cost the pair alone.  rare and its loop
# have the same calls (one entry of 0 iterations per call): at threshold
# 0 the function's predicted cost is the loop's x (pair + 0.55) / pair,
# each besides its own write at exit.
# In instructions (of the regions kept) the decision file says 78
# a pair, 9 a function call, 3 a loop iteration, the write of 2,600 a
# function's node, 5,000 a loop's and 2,700 + 29 a byte of name, file
# and function a regions-table entry, and 243,000 for the process.
effb ea ea.yaml -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 \
	-fplugin-arg-selinst-profile=e0.prof -fplugin-arg-selinst-budget=100 || fail "threshold 0 feedback build"
ok=$(python3 - ea.yaml e0.prof <<'PY'
import re, yaml, sys
d = yaml.safe_load(open(sys.argv[1]))
pct = lambda r: float(re.match(r"kept: predicted ([0-9.]+)%", r["reason"]).group(1))
fn = pct([f for f in d["functions"] if f["name"] == "rare"][0])
lp = pct([l for l in d["loops"] if l["function"] == "rare"][0])
pair = d["feedback"]["hook_pair_ns"]
got = d["feedback"]["predicted_kept_instructions"]
p = yaml.safe_load(open(sys.argv[2]))
kinds = [r["kind"] for r in p["regions"]]
nodes = [n for t in p["threads"] for n in t["nodes"]]
dropped = {r["name"] for k in ("functions", "loops") for r in d[k] or []
           if str(r["reason"]).startswith("dropped")}
names = [r["name"] for r in p["regions"]]
regs = p["regions"]
want = 243000 + sum(n["calls"] * (78 + (9 if kinds[n["region"]] == "function" else 0))
                    + n.get("iterations", 0) * (0 if regs[n["region"]].get("counter") == "folded" else 3)
                    + (2600 if kinds[n["region"]] == "function" else 5000) for n in nodes
                    if names[n["region"]] not in dropped) + sum(
    2700 + 29 * (len(r["name"]) + len(r["file"]) + len(r.get("function", ""))) for r in regs
    if r["name"] not in dropped)
# Each region's write at exit (its node and its regions-table entry, at
# 5.2 instructions a ns) is apart from the calls: the run's length B from
# the loop's figure, then the function's from B.
def one(kind):
    r = [r for r in regs if r["kind"] == kind and (r["name"] == "rare" or r.get("function") == "rare")][0]
    n = [n for n in nodes if regs[n["region"]] is r]
    write = (sum(2600 if kind == "function" else 5000 for _ in n) + 2700
             + 29 * (len(r["name"]) + len(r["file"]) + len(r.get("function", "")))) / 5.2
    return sum(x["calls"] for x in n), write
calls, wf = one("function")
lcalls, wl = one("loop")
base = 100 * (lcalls * pair + wl) / lp
want_fn = 100 * (calls * (pair + 0.55) + wf) / base
good = abs(fn - want_fn) <= 0.012 and fn > lp and abs(got - want) <= 1
print(good or "function %.2f%% (expected %.3f%%), loop %.2f%%, pair %s ns; instructions %s, expected %d"
      % (fn, want_fn, lp, pair, got, want))
PY
)
expect_eq "a function's calls cost the pair and the lost inlining, in time and instructions" True "$ok"

# The whole prediction (include/selinst-predict.h): pairs, 0.55 ns a
# function call, 0.5 ns a loop
# iteration, the write at exit (its instructions above at 5.2 a
# nanosecond), 25 us a process
# (start-up), over the CPU time less the hooks (budget 100: nothing
# dropped, so predicted_all holds every term).  Then the same profile
# with samples: a thread whose samples found a hook running often enough
# (SELINST_SAMPLE) has its pairs measured in situ, CPU time x that share /
# 0.48, in place of calls x the calibrated pair (the old code ignored
# the samples and predicted the first figure for both).
predict_all() { # PROFILE [SAMPLES IN_HOOKS]: predicted_all by the rule
	python3 - "$@" <<'PY'
import yaml, sys
d = yaml.safe_load(open(sys.argv[1]))
fn = lambda n: d["regions"][n["region"]]["kind"] == "function"
# iterations that pay for a loop's counter: none where it is folded
it = lambda n: 0 if d["regions"][n["region"]].get("counter") == "folded" else n.get("iterations", 0)
pair, hooks, run = d["hook_pair_ns"], 0.0, 0.0
for t in d["threads"]:
    excl = sum(n["exclusive_ns"] for n in t["nodes"])
    cpu = t.get("cpu_ns")
    time = cpu if isinstance(cpu, int) and 0 < cpu <= excl else excl
    run += time
    calls = sum(n["calls"] for n in t["nodes"])
    if len(sys.argv) > 2 and t["index"] == 0:
        hooks += time * float(sys.argv[3]) / float(sys.argv[2]) / 0.48
    else:
        hooks += calls * pair
    for n in t["nodes"]:
        hooks += it(n) * 0.5 + fn(n) * n["calls"] * 0.55
write = (sum(2600 if fn(n) else 5000 for t in d["threads"] for n in t["nodes"])
         + sum(2700 + 29 * (len(r["name"]) + len(r["file"]) + len(r.get("function", "")))
               for r in d["regions"])) / 5.2
hooks += write
cost = write + sum(n["calls"] * (pair + fn(n) * 0.55) + it(n) * 0.5
                   for t in d["threads"] for n in t["nodes"])
print("%.6g" % (100 * (cost + 25000) / max(run - hooks, run / 10)))
PY
}
near() { # GOT WANT
	python3 -c 'import sys; g, w = map(float, sys.argv[1:]); print(abs(g - w) <= 0.0006 * w or "%s, expected %s" % (g, w))' "$@"
}
got=$(python3 -c 'import yaml,sys; print(yaml.safe_load(open(sys.argv[1]))["feedback"]["predicted_all"])' ea.yaml)
expect_eq "predicted_all counts every term" True "$(near "$got" "$(predict_all e0.prof)")"
# Thread 0 with 1000 samples, 400 of them in the hooks.
python3 - e0.prof e0s.prof <<'PY'
import sys
out = []
for line in open(sys.argv[1]):
    if line.startswith("  overflow_calls:") and not out[-1:] == ["seen"]:
        line += "  samples: 1000\n  samples_in_runtime: 400\n"
        out.append(line)
        out.append("seen")
        continue
    out.append(line)
open(sys.argv[2], "w").write("".join(l for l in out if l != "seen"))
PY
grep -q "samples_in_runtime: 400" e0s.prof || fail "could not add samples to the profile"
effb es2 es2.yaml -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 \
	-fplugin-arg-selinst-profile=e0s.prof -fplugin-arg-selinst-budget=100 || fail "in situ feedback build"
got=$(python3 -c 'import yaml,sys; print(yaml.safe_load(open(sys.argv[1]))["feedback"]["predicted_all"])' es2.yaml)
expect_eq "pairs in situ from the samples" True "$(near "$got" "$(predict_all e0s.prof 1000 400)")"

# profile-base=: the run without hooks from a lighter build's profiles
# (here the static build's run, es: a few hooks), so that a threshold-0
# run, mostly hooks, is not its own base; its regions and counts are not
# the feedback's (predicted_all is e0's costs over es's run).
mkdir -p light && cp es light/e0 || fail "copy es"	# the same program's name
SELINST_THROTTLE=off SELINST_OUTPUT=es.prof light/e0 >/dev/null || fail "run es"
effb eb eb.yaml -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 \
	-fplugin-arg-selinst-profile=e0.prof -fplugin-arg-selinst-profile-base=es.prof \
	-fplugin-arg-selinst-budget=100 || fail "build with profile-base"
ok=$(python3 - e0.prof es.prof eb.yaml <<'PY'
import yaml, sys
def load(f): return yaml.safe_load(open(f))
def cost_of(d):
    fn = lambda n: d["regions"][n["region"]]["kind"] == "function"
    write = (sum(2600 if fn(n) else 5000 for t in d["threads"] for n in t["nodes"])
             + sum(2700 + 29 * (len(r["name"]) + len(r["file"]) + len(r.get("function", "")))
                   for r in d["regions"])) / 5.2
    folded = lambda n: d["regions"][n["region"]].get("counter") == "folded"
    return write + sum(n["calls"] * (d["hook_pair_ns"] + fn(n) * 0.55)
                       + (not folded(n)) * n.get("iterations", 0) * 0.5
                       for t in d["threads"] for n in t["nodes"])
def run(d):
    run = 0.0
    for t in d["threads"]:
        excl = sum(n["exclusive_ns"] for n in t["nodes"])
        cpu = t.get("cpu_ns")
        run += cpu if isinstance(cpu, int) and 0 < cpu <= excl else excl
    return max(run - cost_of(d), run / 10)
d = load(sys.argv[1])
cost = cost_of(d)
want = 100 * (cost + 25000) / run(load(sys.argv[2]))
fb = load(sys.argv[3])["feedback"]
got = fb["predicted_all"]
print(abs(got - want) <= 0.0006 * want and fb["profile_base"] == "es.prof"
      or "predicted_all %s, expected %.4g" % (got, want))
PY
)
expect_eq "profile-base= gives the run without hooks" True "$ok"
si_cc -O2 -fplugin-arg-selinst-profile-base=es.prof "$EFF" -o nb 2>err.txt
expect_eq "profile-base without profile" 1 $?
grep -q "argument 'profile-base' needs 'profile'" err.txt || { cat err.txt; fail "message"; }

# Regions that never ran: the first build instrumented everything
# (threshold 0, loops too), so a function or loop of a measured file that
# its profile does not name never ran, and the feedback build leaves it
# out (at threshold 0 the static model would choose it, and its hooks
# cost its host's inlining); from a build that chose (es: the default),
# an unnamed region may have run, and the model decides.
# The run does some milliseconds of work in libc (not instrumented), so
# that the hooks' fixed costs stay far under budget=100 even when a
# loaded machine inflates them (CI once predicted 110% for a run of a
# few microseconds).
cat > nr.c <<'C'
#include <stdio.h>
#include <string.h>
static volatile int sink;
static char buf[1 << 25];
__attribute__((noinline)) int used(int n) { int s = 0; for (int i = 0; i < n; i++) s += i * sink; return s; }
__attribute__((noinline)) int unused(int n) { int s = 0; for (int i = 0; i < n; i++) s ^= i + sink; return s; }
int main(int argc, char **argv)
{
	char *volatile b = buf;
	memset(b, argc, sizeof buf);
	int s = used(1000 + argc) + b[12345];
	if (argc > 5) {
		s += unused(argc);
		for (int i = 0; i < argc; i++)
			s += argv[i][0];
	}
	printf("%d\n", s);
	return 0;
}
C
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 nr.c -o nr \
	|| fail "nr threshold 0 build"
SELINST_THROTTLE=off SELINST_OUTPUT=nr.prof ./nr >/dev/null || fail "run nr"
rm -f nr2.yaml
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 \
	-fplugin-arg-selinst-profile=nr.prof -fplugin-arg-selinst-budget=100 \
	-fplugin-arg-selinst-decisions=nr2.yaml nr.c -o nr2 || fail "nr feedback build"
decided nr2.yaml functions unused "False dropped: not run (profile nr.prof of a build that instrumented everything)" \
	"never called: expected left out"
decided nr2.yaml functions used "True kept: *" "called: expected kept"
ok=$(yget nr2.yaml "sorted((l['function'], l['instrument'], l['reason'].startswith('dropped: not run')) for l in d['loops'])")
expect_eq "loops that never ran left out" "[('main', False, True), ('unused', False, True), ('used', True, False)]" "$ok"
# From a default build's profile nothing is left out as not run.
si_cc -O2 nr.c -o nr-default || fail "nr default build"
SELINST_THROTTLE=off SELINST_OUTPUT=nrd.prof ./nr-default >/dev/null || fail "run nr default"
rm -f nr3.yaml
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 \
	-fplugin-arg-selinst-profile=nrd.prof -fplugin-arg-selinst-budget=100 \
	-fplugin-arg-selinst-decisions=nr3.yaml nr.c -o nr3 || fail "nr feedback build from the default"
grep -q "not run" nr3.yaml && { cat nr3.yaml; fail "left out as not run from a default build's profile"; }
exit 0
