#!/bin/bash
# SPDX-License-Identifier: MIT
# model=default|paper (issue 10): the default model's refinements
# (straight-line, depth-through, recursion, pull-depth, context-depth,
# unseen-small, leaf-loop, loop-free, indirect-depth, whole-body, hand-off,
# handler-depth, nest-depth;
# pull-depth's shallow chain; small-body and always_inline loops), the
# paper's formula alone
# with model=paper, the same decisions at every -O level, output equal to
# the plain build, a bad model name refused; and an inline function whose
# label address is taken stays inlined (GCC's 990208-1 idea) in every model.
. "$(dirname "$0")/lib.sh"
src=$T/programs/model_refinements.c
gcc -O2 "$src" -o plain && ./plain 300 > plain.txt || fail "plain build"
for m in default paper; do
	for O in -O0 -O1 -O2 -O3 -Os; do
		si_cc $O -fplugin-arg-selinst-model=$m \
			-fplugin-arg-selinst-decisions=$m$O.yaml "$src" -o p-$m$O ||
			fail "compile model=$m $O"
		SELINST_OUTPUT=$m$O.prof ./p-$m$O 300 > out.txt || fail "run model=$m $O"
		cmp -s out.txt plain.txt || fail "model=$m $O: output differs from the plain build"
	done
done
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=t0.yaml "$src" -o p-t0 || fail "compile threshold 0"
SELINST_OUTPUT=t0.prof ./p-t0 300 > out.txt && cmp -s out.txt plain.txt || fail "threshold 0 output"
python3 - <<'PY' || fail "decisions"
import yaml, sys
ok = True
def bad(msg):
    global ok; ok = False; print(msg)
def fns(path):
    d = yaml.safe_load(open(path))
    return d["model"], {f["name"]: f for f in d["functions"]}
for m in ["default", "paper"]:
    ref = None
    for O in ["-O0", "-O1", "-O2", "-O3", "-Os"]:
        model, f = fns("%s%s.yaml" % (m, O))
        if model != m: bad("%s%s: model %r in the decision file" % (m, O, model))
        row = sorted((n, x["instrument"], x["score"], x["loop_depth"], x["reason"]) for n, x in f.items())
        if ref is None: ref = row
        elif row != ref: bad("model=%s %s differs from -O0: %s" % (m, O, set(row) ^ set(ref)))
_, d = fns("default-O2.yaml")
_, p = fns("paper-O2.yaml")
# The formula alone: the helper scores 204809 at depth 0 and is chosen.
for name in ["host_is_little_endian", "common_prefix", "report_total"]:
    if not p[name]["instrument"]: bad("paper: %s not instrumented" % name)
if p["host_is_little_endian"]["score"] != 204809: bad("paper helper score %r" % p["host_is_little_endian"]["score"])
# straight-line: no loop and no instrumented callee.
s = d["size_from_args"]
if s["instrument"] or "refinement straight-line" not in s["reason"] or s["has_loops"]:
    bad("default size_from_args: %r" % s)
if not p["size_from_args"]["instrument"]: bad("paper: size_from_args not instrumented")
# depth-through: run_step is always_inline and runs at depth 3.
h = d["host_is_little_endian"]
if h["instrument"] or h["loop_depth"] != 3: bad("default helper: %r" % h)
c = d["common_prefix"]
if c["instrument"] or c["loop_depth"] != 3 or not c["has_loops"]: bad("default common_prefix: %r" % c)
if p["common_prefix"]["loop_depth"] != 0: bad("paper common_prefix depth")
# inline and loop-free, though it calls an instrumented function.
r = d["report_total"]
if r["instrument"] or "inline and loop-free" not in r["reason"] or not r["declared_inline"]:
    bad("default report_total: %r" % r)
# recursion: the walk is entered at depth 0 but runs as its own loop.
t = d["sum_tree"]
if t["instrument"] or not t["recursive"] or t["loop_depth"] != 1: bad("default sum_tree: %r" % t)
if not p["sum_tree"]["instrument"]: bad("paper: sum_tree not instrumented")
# pull-depth: count_bits (a loop, depth 0 in its caller) would pull its
# caller in, but that caller runs two loops deep in main; context-depth:
# count_bits then runs at depth 2 below main, the nearest region.
b = d["count_bits"]
if b["instrument"] or "context-depth" not in b["reason"] or b["loop_depth"] != 2:
    bad("default count_bits: %r" % b)
if not p["count_bits"]["instrument"]: bad("paper: count_bits not instrumented")
w = d["row_weight"]
if w["instrument"] or "pull-depth" not in w["reason"] or w["loop_depth"] != 2: bad("default row_weight: %r" % w)
if not p["row_weight"]["instrument"]: bad("paper: row_weight not pulled in")
for name in ["scan_block", "print_digits", "main"]:
    if not d[name]["instrument"]: bad("default: %s not instrumented" % name)
    if not d[name]["from_main"]: bad("default: %s not reached from main" % name)
# small-body: a loop of weight under 64 that main reaches only through a
# pointer, and its loop, are no regions in the default; the formula takes
# them.  main's and print_digits's loops (reached from main) stay.
g = d["mix_bytes"]
if g["instrument"] or "small-body" not in g["reason"] or g["weight"] >= 64 \
        or not g["has_loops"] or g["from_main"]:
    bad("default mix_bytes: %r" % g)
if not p["mix_bytes"]["instrument"]: bad("paper: mix_bytes not instrumented")
def loops(path):
    return yaml.safe_load(open(path)).get("loops") or []
for l in loops("default-O2.yaml"):
    if l["function"] == "mix_bytes" and (l["instrument"] or "small-body" not in l["reason"]):
        bad("default loop %r" % l)
    if l["function"] in ("main", "print_digits") and l["nest"] == 1 and not l["instrument"]:
        bad("default: %s's loop %s left out" % (l["function"], l["name"]))
if not [l for l in loops("paper-O2.yaml") if l["function"] == "mix_bytes" and l["instrument"]]:
    bad("paper: mix_bytes's loop left out")
# leaf-loop: to_codes's loop (innermost, only inline helpers called, weight
# 64 to 255, main not in view) is no region at every -O level, its
# function is; with a call out of view in it the same loop is a region;
# the formula takes both.
for O in ["-O0", "-O1", "-O2", "-O3", "-Os"]:
    for l in loops("default%s.yaml" % O):
        if l["function"] == "to_codes" and (l["instrument"] or "leaf-loop" not in l["reason"]
                                            or not 64 <= l["weight"] < 256):
            bad("default%s: to_codes loop %r" % (O, l))
        if l["function"] == "to_codes_logged" and not l["instrument"]:
            bad("default%s: to_codes_logged loop left out" % O)
    _, f = fns("default%s.yaml" % O)
    if not f["to_codes"]["instrument"]: bad("default%s: to_codes not a region" % O)
if len([l for l in loops("paper-O2.yaml") if l["function"].startswith("to_codes") and l["instrument"]]) != 2:
    bad("paper: the to_codes loops left out")
# loop-free: classify (no loop, weight 64 to 255, its callee's loop small,
# main not in view) is no region at every -O level; classify_logged, the
# same body also calling to_codes_logged (a bigger loop), is; the formula
# takes both.
for O in ["-O0", "-O1", "-O2", "-O3", "-Os"]:
    _, f = fns("default%s.yaml" % O)
    k = f["classify"]
    if k["instrument"] or "loop-free" not in k["reason"] or not 64 <= k["weight"] < 256:
        bad("default%s classify: %r" % (O, k))
    if not f["classify_logged"]["instrument"]: bad("default%s: classify_logged left out" % O)
if not (p["classify"]["instrument"] and p["classify_logged"]["instrument"]):
    bad("paper: classify left out")
# indirect-depth: digits_cmp (a loop, weight 64 or more, no call site in
# view, called through a pointer in sort_digits's inner loop) runs at that
# call's depth in the default, below the sort's region; the formula scores
# it at depth 0 and takes it.
for O in ["-O0", "-O1", "-O2", "-O3", "-Os"]:
    _, f = fns("default%s.yaml" % O)
    k = f["digits_cmp"]
    if (k["instrument"] or k["loop_depth"] != 2 or k.get("pointer_call_depth") != 2
            or k["weight"] < 64 or not k["has_loops"]):
        bad("default%s digits_cmp: %r" % (O, k))
    if not f["sort_digits"]["instrument"]: bad("default%s: sort_digits left out" % O)
if not p["digits_cmp"]["instrument"] or p["digits_cmp"]["loop_depth"] != 0:
    bad("paper: digits_cmp %r" % p["digits_cmp"])
# pull-depth's shallow chain: src_file and dst_file run at depth 1 (in
# decode_all's loop) with one chosen callee and a small body, and main
# reaches them through calls outside loops: both are regions at every -O
# level, and decode_frame below them; without the chain none of the three.
for O in ["-O0", "-O1", "-O2", "-O3", "-Os"]:
    _, f = fns("default%s.yaml" % O)
    for name in ["src_file", "dst_file"]:
        k = f[name]
        if not k["instrument"] or k["loop_depth"] != 1 or not k["shallow_caller"] \
                or k["weight"] >= 256 or k["instrumented_call_sites"] != 1:
            bad("default%s %s: %r" % (O, name, k))
    if not f["decode_frame"]["instrument"] or f["decode_frame"]["context_depth"] != 0:
        bad("default%s decode_frame: %r" % (O, f["decode_frame"]))
    if f["decode_all"]["shallow_caller"] is not True or f["main"]["shallow_caller"]:
        bad("default%s: shallow_caller of decode_all %r, main %r"
            % (O, f["decode_all"]["shallow_caller"], f["main"]["shallow_caller"]))
# small-body and always_inline loops: block_fast (small, copies in a loop
# of weight 64 or more) is a region at every -O level, block_tiny (copies
# in no loop) is not (straight-line).
for O in ["-O0", "-O1", "-O2", "-O3", "-Os"]:
    _, f = fns("default%s.yaml" % O)
    k = f["block_fast"]
    if not k["instrument"] or k["weight"] >= 64 or k["has_loops"]:
        bad("default%s block_fast: %r" % (O, k))
    if f["block_tiny"]["instrument"]:
        bad("default%s block_tiny: %r" % (O, f["block_tiny"]))
# whole-body: run_codes's byte-code loop (90% or more of its function, no
# instrumented callee, main not in view) is no region at every -O level,
# its function is; to_codes_logged's loop (under 90%) stays; the formula
# and threshold 0 take run_codes's loop.
for O in ["-O0", "-O1", "-O2", "-O3", "-Os"]:
    _, f = fns("default%s.yaml" % O)
    if not f["run_codes"]["instrument"]: bad("default%s: run_codes not a region" % O)
    r = [l for l in loops("default%s.yaml" % O) if l["function"] == "run_codes"]
    if len(r) != 1 or r[0]["instrument"] or "whole-body" not in r[0]["reason"] \
            or r[0]["weight"] * 10 < f["run_codes"]["weight"] * 9:
        bad("default%s: run_codes loop %r" % (O, r))
for path in ["paper-O2.yaml", "t0.yaml"]:
    if not [l for l in loops(path) if l["function"] == "run_codes" and l["instrument"]]:
        bad("%s: run_codes's loop left out" % path)
# nest-depth: sort_rows (a merge sort whose loops nest two deep around
# merge_runs's loop) runs at depth 1 below run_rows and is a region at
# every -O level; put_row (weight 64 or more, depth 1, an innermost
# bounded loop nested in its loop: one level) is not, nor is merge_runs
# (depth 2 below sort_rows); the formula leaves sort_rows out at depth 1.
for O in ["-O0", "-O1", "-O2", "-O3", "-Os"]:
    _, f = fns("default%s.yaml" % O)
    k = f["sort_rows"]
    if not k["instrument"] or "nest-depth" not in k["reason"] or k.get("loop_nest") != 2 \
            or k["context_depth"] != 1 or k["recursive"]:
        bad("default%s sort_rows: %r" % (O, k))
    k = f["put_row"]
    if k["instrument"] or k.get("loop_nest") != 1 or k["context_depth"] != 1 or k["weight"] < 64:
        bad("default%s put_row: %r" % (O, k))
    if f["merge_runs"]["instrument"] or not f["run_rows"]["instrument"]:
        bad("default%s: merge_runs %r, run_rows %r" % (O, f["merge_runs"]["instrument"],
                                                      f["run_rows"]["instrument"]))
if p["sort_rows"]["instrument"]: bad("paper: sort_rows instrumented at depth 1")
sys.exit(0 if ok else 1)
PY
# The profiles: the paper's build calls the helper once per step, the
# default's has no region for it.
calls() { "$REPORT" --format=json "$1" > r.json || fail "report $1"
	jget r.json "sum(r['calls'] for r in d['regions'] if r['name']=='$2')"; }
expect_eq "paper: helper calls" 4736 "$(calls paper-O2.prof host_is_little_endian)"
expect_eq "default: helper calls" 0 "$(calls default-O2.prof host_is_little_endian)"
expect_eq "default: scan_block calls" 1 "$(calls default-O2.prof scan_block)"

# A model that does not exist, or none: an error naming the accepted ones.
for arg in -fplugin-arg-selinst-model=fast -fplugin-arg-selinst-model; do
	si_cc -c "$src" -o x.o $arg 2> err.txt && fail "$arg accepted"
	grep -q "accepted models: 'default'.*and 'paper'" err.txt || fail "$arg: $(cat err.txt)"
done
grep -q "unknown model 'fast'" <(si_cc -c "$src" -o x.o -fplugin-arg-selinst-model=fast 2>&1) ||
	fail "the bad name is not named"

# An address-taken label in an inline function: the plain build inlines
# it twice (two label addresses); so must every selection.
cat > labels.c <<'C'
#include <stdio.h>
static void *first_mark, *second_mark;
static int enabled = 1;
static inline void mark(void **where, int on)
{
	if (on) {
	spot:
		*where = &&spot;
	}
}
__attribute__((noinline)) static void mark_first(int on) { mark(&first_mark, on); }
__attribute__((noinline)) static void mark_second(int on) { mark(&second_mark, on); }
int main(void)
{
	mark_first(enabled);
	mark_second(enabled);
	puts(first_mark != second_mark ? "distinct" : "same");
	return 0;
}
C
for O in -O1 -O2 -O3 -Os; do
	gcc $O labels.c -o lp && ./lp > lp.txt || fail "labels plain $O"
	expect_eq "plain build $O inlines twice" distinct "$(cat lp.txt)"
	for sel in "" -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-model=paper; do
		si_cc $O labels.c $sel -fplugin-arg-selinst-decisions=l.yaml -o ls ||
			fail "labels $O $sel"
		expect_eq "labels $O $sel" distinct "$(SELINST_OUTPUT=/dev/null ./ls)"
		grep -q "label's address is taken" l.yaml || fail "labels $O $sel: no reason in the decision file"
	done
done
# straight-line spares main: a loop-free main calling a helper of another
# unit is still the profile's root (a helper like it in the same unit is
# dropped); C and C++.
cat >entry.c <<'C'
#include <stdio.h>
int work(int);
int twice(int x) { return work(x) * 2; }
int main(void) { printf("%d\n", twice(20)); return 0; }
C
echo 'int work(int x) { return x + 1; }' >work.c
sed 's/^int work(int);/extern "C" int work(int);/' entry.c >entry.cc
si_cc -O2 entry.c work.c -fplugin-arg-selinst-decisions=e.yaml -o entry || fail "entry build"
si_cxx -O2 -x c++ entry.cc -x c work.c -fplugin-arg-selinst-decisions=ex.yaml -o entryx || fail "entry C++ build"
for f in e.yaml ex.yaml; do
	python3 - "$f" <<'PY' || fail "main exemption ($f)"
import sys, yaml
fs = {}
for doc in yaml.safe_load_all(open(sys.argv[1])):
    for x in doc["functions"]: fs[x["symbol"]] = x
m, t = fs["main"], fs.get("twice") or fs["_Z5twicei"]
assert m["instrument"] and m["reason"] == "score >= threshold", m
assert not t["instrument"] and "straight-line" in t["reason"], t
PY
done
expect_eq "entry output" 42 "$(SELINST_OUTPUT=e.prof ./entry)"
grep -q 'name: "main"' e.prof || fail "main not in the profile"
# unseen-small: a library unit whose functions no call
# site in view reaches.  A hidden helper's lexer (a loop, called below it
# at depth 0) and its reader are no regions; an exported accessor with a
# small loop is none; an exported entry calling two workers with loops is
# a region and so are they; the same at every -O level; model=paper and a
# sites= file (depths from other units) restore the formula's view.
cat >lexlib.c <<'C'
#include <string.h>
struct lx { const char *p; long n, sum; };
static long read_number(struct lx *s)
{
	long v = 0;
	while (*s->p >= '0' && *s->p <= '9') { v = v * 10 + (*s->p - '0'); s->p++; }
	if (v > 1000000) v %= 1000003;
	if (v & 1) s->sum += v; else s->sum -= v / 2;
	return v;
}
static int lexer(struct lx *s)
{
	for (;;) {
		switch (*s->p) {
		case 0: return 0;
		case ' ': case '\t': case '\n': s->p++; continue;
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
			s->n++; return (int)read_number(s);
		case '#': while (*s->p && *s->p != '\n') s->p++; continue;
		case ',': case ';': s->p++; s->sum++; return 1;
		default: s->p++; s->sum += 3; return 2;
		}
	}
}
__attribute__((visibility("hidden"))) int lx_next(struct lx *s) { return lexer(s); }
void set_top(long *stack, long *top, long idx)
{
	long diff = idx - *top;
	for (; diff > 0; diff--)
		stack[(*top)++] = 0;
	if (diff < 0)
		*top += diff;
	if (*top < 0)
		*top = 0;
	if (*top > 60)
		*top = 60;
	if (stack[0] > 1000)
		stack[0] = idx;
}
static long sum_pass(const char *t, long n)
{
	long s = 0;
	for (long i = 0; i < n; i++) {
		s += t[i];
		if (t[i] == ',') s ^= i;
		else if (t[i] == ' ') s -= 3;
		else s += i & 7;
	}
	return s;
}
static long count_pass(const char *t, long n)
{
	long c = 0;
	for (long i = 0; i < n; i++) {
		if (t[i] >= '0' && t[i] <= '9') c++;
		else if (t[i] == '#') c += 2;
		else if (t[i] == ',') c ^= i;
		else c += t[i] & 3;
	}
	return c;
}
long run_text(const char *t) { long n = (long)strlen(t); return sum_pass(t, n) + count_pass(t, n); }
C
cat >lexmain.c <<'C'
#include <stdio.h>
struct lx { const char *p; long n, sum; };
int lx_next(struct lx *s);
void set_top(long *stack, long *top, long idx);
long run_text(const char *t);
int main(void)
{
	static char text[40000];
	int k = 0;
	for (int i = 0; i < 4000; i++) k += snprintf(text + k, sizeof text - (size_t)k, "%d, ", i * 7);
	struct lx s = { text, 0, 0 };
	long stack[64], top = 0, acc = 0;
	while (lx_next(&s)) { set_top(stack, &top, s.n % 60); acc += top; }
	printf("%ld %ld %ld %ld\n", s.n, s.sum, acc, run_text(text));
	return 0;
}
C
gcc -O2 lexmain.c lexlib.c -o lexplain && ./lexplain > lexplain.txt || fail "lex plain"
for O in -O0 -O1 -O2 -O3 -Os; do
	si_cc $O lexmain.c lexlib.c -fplugin-arg-selinst-decisions=lex%u$O.yaml -o lexsel ||
		fail "lex build $O"
	SELINST_OUTPUT=lex$O.prof ./lexsel > lexsel.txt && cmp -s lexsel.txt lexplain.txt ||
		fail "lex $O: output differs"
done
si_cc -O2 -c lexlib.c -fplugin-arg-selinst-model=paper -fplugin-arg-selinst-decisions=lexpaper.yaml ||
	fail "lex paper"
printf '# depths other units call at\n0 lx_next\n0 set_top\n0 run_text\n' > lexsites.txt
si_cc -O2 -c lexlib.c -fplugin-arg-selinst-sites=$PWD/lexsites.txt \
	-fplugin-arg-selinst-decisions=lexsites.yaml || fail "lex sites"
python3 - <<'PY' || fail "unseen-small decisions"
import glob, yaml
def fs(path):
    return {x["name"]: x for x in yaml.safe_load(open(path))["functions"]}
ref = None
for O in ["-O0", "-O1", "-O2", "-O3", "-Os"]:
    f = fs(glob.glob("lexlexlib*%s.yaml" % O)[0])
    row = sorted((n, x["instrument"], x["reason"], x["context_depth"]) for n, x in f.items())
    assert ref is None or row == ref, (O, set(row) ^ set(ref))
    ref = row
assert not f["lx_next"]["instrument"], f["lx_next"]
for n in ["lexer", "read_number"]:
    assert not f[n]["instrument"] and f[n]["context_depth"] >= 2, f[n]
assert "context-depth" in f["lexer"]["reason"], f["lexer"]
assert not f["set_top"]["instrument"] and "unseen-small" in f["set_top"]["reason"], f["set_top"]
for n in ["run_text", "sum_pass", "count_pass"]:
    assert f[n]["instrument"], f[n]
p, s = fs("lexpaper.yaml"), fs("lexsites.yaml")
for n in ["lexer", "set_top"]:
    assert p[n]["instrument"], ("paper", p[n])
    assert s[n]["instrument"], ("sites", s[n])
PY
# handler-depth: an exported C function that no call in view names and
# whose address a statement stores (a SAX-style handler struct filled in
# at run time) is called per element through the pointer by other units:
# it runs at depth 2 with what it calls (no region, its helper's loop
# neither), at every -O level; one stored only in a variable's
# initializer (SQLite's API table) keeps the formula's depth 0 and stays
# a region, and so does the handler with model=paper or threshold 0;
# an address only returned or compared is no stored handler.
cat >hlib.c <<'C'
struct handler { long (*item)(const char *, long); long (*table)(const char *, long); };
static long digits(const char *t, long n)
{
	long v = 0;
	for (long i = 0; i < n && t[i] >= '0' && t[i] <= '9'; i++)
		v = v * 10 + (t[i] - '0');
	return v;
}
long on_item(const char *t, long n)
{
	long s = 0;
	for (long i = 0; i < n; i++) {
		switch (t[i]) {
		case ',': s ^= i; break;
		case ' ': s -= 3; break;
		case '0': case '2': case '4': case '6': case '8': s += 2 * i; break;
		case '1': case '3': case '5': case '7': case '9': s += i / 3; break;
		case '-': s = -s; break;
		case '.': s >>= 1; break;
		default: s += t[i] & 7;
		}
		if (s > 1000000) s %= 1000003;
		if (s < -1000000) s = -(-s % 1000003);
	}
	return s + digits(t, n);
}
long table_item(const char *t, long n)
{
	long c = 0;
	for (long i = 0; i < n; i++) {
		long w = t[i] & 15;
		for (long j = 0; j < w; j++)
			c += (j ^ i) & 5;
		if (t[i] == ',') c ^= i * 3;
		else if (t[i] == '-') c = -c;
		else if (t[i] == '.') c >>= 2;
		else if (t[i] == ' ') c += 17;
		if (c > 1000000) c %= 1000033;
		if (c < -1000000) c = -(-c % 1000033);
	}
	return c;
}
const struct handler table_handler = { 0, table_item };
void init_handler(struct handler *h)
{
	h->item = on_item;
	h->table = 0;
}
/* Addresses only returned or compared: no handler stored. */
long worker(const char *t, long n)
{
	long w = 0, q = 5;
	for (long i = 0; i < n; i++) {
		w = w * 31 + (t[i] ^ (w >> 7));
		if (t[i] == ',') q += w & 3;
		else if (t[i] == ' ') q -= 2;
		else if (t[i] > '5') q ^= i;
		else if (t[i] > '2') q += i * 5;
		if (q > 100000) q %= 99991;
		if (w > 1000000) w %= 1000081;
	}
	return (w ^ q) & 0xffff;
}
long (*get_worker(void))(const char *, long) { return worker; }
long other(const char *t, long n)
{
	long w = 1, z = 0;
	for (long i = 0; i < n; i++) {
		w += (t[i] * i) % 13;
		if (t[i] == '9') z += 4;
		else if (t[i] == '0') z -= w & 7;
		else if (t[i] < '4') z ^= 3 * i;
		else if (t[i] == ',') z += w >> 2;
		if (z > 50000) z %= 49999;
		if (z < -50000) z = -(-z % 49999);
	}
	return w + z;
}
int is_other(long (*p)(const char *, long)) { return p == other; }
C
cat >hmain.c <<'C'
#include <stdio.h>
#include <string.h>
struct handler { long (*item)(const char *, long); long (*table)(const char *, long); };
void init_handler(struct handler *h);
extern const struct handler table_handler;
long (*get_worker(void))(const char *, long);
int is_other(long (*p)(const char *, long));
long other(const char *t, long n);
int main(void)
{
	struct handler h;
	char buf[32];
	long acc = 0;
	init_handler(&h);
	for (int i = 0; i < 20000; i++) {
		int n = snprintf(buf, sizeof buf, "%d, %d", i * 7, i);
		acc += h.item(buf, n) + table_handler.table(buf, (long)strlen(buf));
		if (i % 1000 == 0)
			acc += get_worker()(buf, n) + is_other(h.item) + (is_other(other) ? other(buf, n) : 0);
	}
	printf("%ld\n", acc);
	return 0;
}
C
gcc -O2 hmain.c hlib.c -o hplain && ./hplain > hplain.txt || fail "handler plain"
for O in -O0 -O1 -O2 -O3 -Os; do
	si_cc $O hmain.c hlib.c -fplugin-arg-selinst-decisions=h%u$O.yaml -o hsel ||
		fail "handler build $O"
	SELINST_OUTPUT=h$O.prof ./hsel > hsel.txt && cmp -s hsel.txt hplain.txt ||
		fail "handler $O: output differs"
done
si_cc -O2 -c hlib.c -fplugin-arg-selinst-model=paper -fplugin-arg-selinst-decisions=hpaper.yaml ||
	fail "handler paper"
si_cc -O2 -c hlib.c -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=ht0.yaml ||
	fail "handler threshold 0"
python3 - <<'PY' || fail "handler-depth decisions"
import glob, yaml
def fs(path):
    return {x["name"]: x for x in yaml.safe_load(open(path))["functions"]}
ref = None
for O in ["-O0", "-O1", "-O2", "-O3", "-Os"]:
    f = fs(glob.glob("hhlib*%s.yaml" % O)[0])
    row = sorted((n, x["instrument"], x["reason"], x["loop_depth"]) for n, x in f.items())
    assert ref is None or row == ref, (O, set(row) ^ set(ref))
    ref = row
    o = f["on_item"]
    assert not o["instrument"] and o["loop_depth"] == 2 and o.get("stored_handler"), (O, o)
    assert not f["digits"]["instrument"] and f["digits"]["context_depth"] >= 2, (O, f["digits"])
    t = f["table_item"]
    assert t["instrument"] and t["loop_depth"] == 0 and "stored_handler" not in t, (O, t)
    for n in ("worker", "other"):
        assert f[n]["instrument"] and "stored_handler" not in f[n], (O, f[n])
p = fs("hpaper.yaml")
assert p["on_item"]["instrument"] and "stored_handler" not in p["on_item"], ("paper", p["on_item"])
t0 = fs("ht0.yaml")
assert t0["on_item"]["instrument"] and "stored_handler" not in t0["on_item"], ("t0", t0["on_item"])
PY
# straight-line, outside main's view: a loop-free C++ function whose
# only loops are the standard library's (std::vector, std::string) is no
# region; with main in view (the same function called from main in its
# unit) it still is, and model=paper keeps it.
cat >stdlib.cc <<'C'
#include <string>
#include <vector>
struct Rec { std::vector<int> v; std::string s; long sum = 0; };
void add_item(Rec &r, int x)
{
	r.v.push_back(x);
	r.s += std::to_string(x);
	if (x & 1) r.s += ',';
	else r.s += ';';
	if (x % 3 == 0) r.sum += x;
	else if (x % 3 == 1) r.sum -= x / 2;
	else r.sum ^= x;
	if (r.v.size() > 1000) r.v.erase(r.v.begin(), r.v.begin() + 500);
	if (r.s.size() > 4000) r.s.erase(0, 2000);
	if (r.sum > 1000000) r.sum %= 1000003;
	if (r.sum < -1000000) r.sum = -(-r.sum % 1000003);
	if (x == 77) r.s.insert(0, "seventy-seven");
	if (x == 99) r.v.insert(r.v.begin(), 99);
}
C
{ cat stdlib.cc; echo 'int main() { Rec r; add_item(r, 7); add_item(r, 8); return (int)(r.sum & 1); }'; } > stdmain.cc
for O in -O0 -O2; do
	si_cxx $O -c stdlib.cc -fplugin-arg-selinst-decisions=std$O.yaml -o stdlib.o || fail "stdlib $O"
done
si_cxx -O2 -c stdlib.cc -fplugin-arg-selinst-model=paper -fplugin-arg-selinst-decisions=stdpaper.yaml -o stdlib.o ||
	fail "stdlib paper"
si_cxx -O2 stdmain.cc -fplugin-arg-selinst-decisions=stdmain.yaml -o stdmain || fail "stdmain"
python3 - <<'PY' || fail "straight-line's system-header case"
import yaml
def fn(path):
    return [x for x in yaml.safe_load(open(path))["functions"] if x["name"].startswith("void add_item")][0]
for O in ["-O0", "-O2"]:
    f = fn("std%s.yaml" % O)
    assert not f["instrument"] and "system-header" in f["reason"] and f["weight"] >= 128, f
assert fn("stdpaper.yaml")["instrument"], fn("stdpaper.yaml")
m = fn("stdmain.yaml")
assert m["from_main"] and m["instrument"], m
PY
# hand-off (C++): a function of a library unit, called in view once
# (outside loops) by an exported entry, that builds an object of a class
# another unit of the project implements and runs it (its loops out of
# view) is a region: straight-line took it for bounded work (yaml-cpp's
# emitting phase, operator<<(Emitter&, const Node&), was main's).  Two
# calls to other units that build no object (an emitter's per-scalar
# steps) are not enough, nor the same entry called in a loop, directly or
# through a pointer.
cat >hand.h <<'C'
struct node { int v; node *kid[2]; };
struct sink { long n, sum; };
long tree_walk(const node *n, sink &s);
void sink_flush(sink &s);
class Walker {
public:
	explicit Walker(const node *root);
	long run(sink &s);
private:
	const node *root_;
	long seen_;
};
C
cat >handlib.cc <<'C'
#include "hand.h"
static long emit_doc(const node *root, sink &s)
{
	s.n = 0;
	s.sum = 0;
	Walker w(root);
	long k = w.run(s);
	return k + s.n;
}
long emit_all(const node *root, sink &s) { return emit_doc(root, s) * 2; }
static long step_two(const node *root, sink &s)
{
	s.n++;
	long k = tree_walk(root, s);
	sink_flush(s);
	return k + s.n;
}
long count_two(const node *root, sink &s) { return step_two(root, s) + 1; }
static long emit_leaf(const node *n, sink &s)
{
	Walker w(n);
	return w.run(s);
}
long emit_kids(const node *root, sink &s)
{
	long t = 0;
	for (int i = 0; i < 2; i++)
		if (root->kid[i]) t += emit_leaf(root->kid[i], s);
	return t;
}
static long emit_cb(const node *root, sink &s)
{
	s.n = 0;
	Walker w(root);
	return w.run(s) + s.n;
}
long emit_cb_once(const node *root, sink &s) { return emit_cb(root, s) * 3; }
long (*emit_table[1])(const node *, sink &) = { emit_cb };
long emit_each(const node *root, sink &s)
{
	long t = 0;
	for (int i = 0; i < 2; i++)
		if (root->kid[i]) t += emit_table[0](root->kid[i], s);
	return t;
}
C
cat >handwork.cc <<'C'
#include "hand.h"
long tree_walk(const node *n, sink &s)
{
	long k = 0;
	for (; n; n = n->kid[1]) {
		k += 1 + (n->kid[0] ? tree_walk(n->kid[0], s) : 0);
		s.sum += n->v;
		s.n++;
	}
	return k;
}
void sink_flush(sink &s) { s.sum ^= s.n; }
Walker::Walker(const node *root) : root_(root), seen_(0) {}
long Walker::run(sink &s) { seen_ = tree_walk(root_, s); sink_flush(s); return seen_; }
C
cat >handmain.cc <<'C'
#include <cstdio>
#include <cstdlib>
#include "hand.h"
long emit_all(const node *root, sink &s);
long count_two(const node *root, sink &s);
long emit_kids(const node *root, sink &s);
long emit_cb_once(const node *root, sink &s);
long emit_each(const node *root, sink &s);
static node *grow(int depth, int *v)
{
	if (depth == 0) return nullptr;
	node *n = static_cast<node *>(calloc(1, sizeof *n));
	n->v = (*v)++;
	n->kid[0] = grow(depth - 1, v);
	n->kid[1] = grow(depth - 1, v);
	return n;
}
int main()
{
	int v = 0;
	node *root = grow(16, &v);
	sink s = { 0, 0 };
	long a = emit_all(root, s), b = count_two(root, s), c = emit_kids(root, s);
	long d = emit_cb_once(root, s), e = emit_each(root, s);
	printf("%ld %ld %ld %ld %ld %ld\n", a, b, c, d, e, s.sum);
	return 0;
}
C
g++ -O2 handmain.cc handlib.cc handwork.cc -o handplain && ./handplain > handplain.txt ||
	fail "hand plain"
for O in -O0 -O1 -O2 -O3 -Os; do
	si_cxx $O handmain.cc handlib.cc handwork.cc \
		-fplugin-arg-selinst-decisions=hand%u$O.yaml -o handsel || fail "hand build $O"
	SELINST_OUTPUT=hand$O.prof ./handsel > handsel.txt && cmp -s handsel.txt handplain.txt ||
		fail "hand $O: output differs"
	grep -q 'name: "long int emit_doc' hand$O.prof || fail "hand $O: emit_doc not in the profile"
done
python3 - <<'PY' || fail "hand-off decisions"
import glob, yaml
def fs(path):
    return {x["name"].split("(")[0].split()[-1]: x for x in yaml.safe_load(open(path))["functions"]}
ref = None
for O in ["-O0", "-O1", "-O2", "-O3", "-Os"]:
    f = fs(glob.glob("handhandlib*%s.yaml" % O)[0])
    row = sorted((n, x["instrument"], x["reason"]) for n, x in f.items())
    assert ref is None or row == ref, (O, set(row) ^ set(ref))
    ref = row
e = f["emit_doc"]
assert e["instrument"] and e["other_unit_callees"] == 2 and not e["from_main"], e
t = f["step_two"]
assert not t["instrument"] and t["other_unit_callees"] == 2, t
assert not f["emit_leaf"]["instrument"] and f["emit_leaf"]["loop_depth"] == 1, f["emit_leaf"]
# Called once in view but also through a pointer in a loop: no phase entry.
c = f["emit_cb"]
assert not c["instrument"] and c.get("pointer_call_depth") == 1 and "straight-line" in c["reason"], c
PY
exit 0
