#!/bin/bash
# SPDX-License-Identifier: MIT
# inline=on|off (issues 10 and 13): with inline=on (the default) GCC may
# inline instrumented bodies, whose hooks travel with them: an inlined copy
# enters and leaves the same region (one region for every copy, the
# throttle counting them together), its exception exits with it, and the
# profile is the one inline=off gives, at -O0 to -Os, recursion inlined
# into itself included.  Bodies that a setjmp caller could inline stay out
# of line in both modes (the longjmp resync tells frames apart by stack
# pointer, and an inlined copy shares its host's): a longjmp past them
# leaves no region open.  Under inline=on bodies holding loop regions stay
# out of line too (bench/README.md); the decision file says why.
. "$(dirname "$0")/lib.sh"
# Every call counted (exact counts below; the default throttle's early
# rule would stop helper at 1,001 calls); the throttle's part sets its own.
export SELINST_THROTTLE=off
src=$T/programs/inline_regions.c
gcc -O2 "$src" -o plain && ./plain > plain.txt || fail "plain build"

# Every region's calls and iterations by calling path, and the functions
# of the binary (which bodies stayed out of line).
summary() {
	python3 - "$1" <<'PY'
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))
names = {r["id"]: r["name"] for r in p["regions"]}
rows = {}
for t in p["threads"]:
    nodes = {n["id"]: n for n in t["nodes"]}
    for n in t["nodes"]:
        path, m = [], n
        while m is not None:
            path.append(names.get(m["region"], "?"))
            m = nodes.get(m.get("parent"))
        key = "/".join(reversed(path))
        c, it = rows.get(key, (0, 0))
        rows[key] = (c + n["calls"], it + n.get("iterations", 0))
for k in sorted(rows):
    print(k, *rows[k])
PY
}

for O in -O0 -O1 -O2 -O3 -Os; do
	for m in on off; do
		si_cc $O -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-inline=$m \
			-fplugin-arg-selinst-decisions=d$m$O.yaml "$src" -o p$m$O ||
			fail "compile inline=$m $O"
		SELINST_OUTPUT=$PWD/p$m$O.prof ./p$m$O > out.txt || fail "run inline=$m $O"
		cmp -s out.txt plain.txt || fail "inline=$m $O: output differs from the plain build"
		summary p$m$O.prof > s$m$O.txt || fail "profile inline=$m $O"
	done
	# The same regions, paths, calls and iterations both ways.
	diff so{ff,n}$O.txt >/dev/null || fail "inline=on $O differs from inline=off: $(diff soff$O.txt son$O.txt)"
	# helper's two callers each hold a copy at -O2: one region, one name.
	[ "$(grep -c '/helper ' son$O.txt)" = 2 ] || fail "$O: helper's two paths: $(cat son$O.txt)"
	grep -q "use_a/inline_regions.c:20/helper 2000 0" son$O.txt || fail "$O: helper in use_a"
	# The longjmp skipped jumpy and jumpy_loop's loop: after() is
	# catcher's child, never theirs.
	grep -q "main/inline_regions.c:80/catcher/after 30 0" son$O.txt || fail "$O: after's path: $(grep after son$O.txt)"
	[ "$(grep -c 'after' son$O.txt)" = 1 ] || fail "$O: after under a region left by longjmp: $(grep after son$O.txt)"
done
cat son-O2.txt
# inline=on inlines at -O2 (helper has no body of its own), inline=off
# does not; the setjmp caller's helpers stay out in both, and say why, as
# does walk, which holds a loop region (its hooks in a host's loop nest
# cost more than the call: bench/README.md).
nm pon-O2 | grep -q ' helper$' && fail "inline=on: helper not inlined"
nm poff-O2 | grep -q ' helper$' || fail "inline=off: helper inlined"
nm pon-O2 | grep -q ' jumpy$' || fail "inline=on: jumpy inlined into the setjmp caller"
python3 - don-O2.yaml <<'PY' || fail "decision file"
import sys, yaml
for path in sys.argv[1:]:
    f = {x["name"]: x for x in yaml.safe_load(open(path))["functions"]}
    for n in ("jumpy", "jumpy_loop", "thrower", "after"):
        assert "setjmp" in f[n].get("out_of_line", ""), (path, n, f[n])
    for n in ("helper", "depth"):
        assert "out_of_line" not in f[n], (path, n, f[n])
    # walk holds a loop region: out of line, why said
    assert "loop regions" in f["walk"].get("out_of_line", ""), f["walk"]
PY
nm pon-O3 | grep -q ' walk$' || fail "inline=on -O3: walk (loop regions) inlined"

# A body that is no region but holds a loop region (jumpy_loop at a
# threshold nothing reaches): its loop hooks would land in the setjmp
# caller's frame just as well, in both modes (inline=off used to inline
# it, and a longjmp out of the loop left it open: after() below it).
for m in on off; do
	si_cc -O2 -fplugin-arg-selinst-threshold=999999999999 -fplugin-arg-selinst-loop-threshold=0 \
		-fplugin-arg-selinst-inline=$m "$src" -o lo$m || fail "compile loops only inline=$m"
	SELINST_OUTPUT=$PWD/lo$m.prof ./lo$m > out.txt && cmp -s out.txt plain.txt ||
		fail "run loops only inline=$m"
	summary lo$m.prof > lo$m.txt || fail "profile loops only inline=$m"
	grep -q "^inline_regions.c:80/inline_regions.c:58 20 36$" lo$m.txt || fail "loops only inline=$m: no loop: $(cat lo$m.txt)"
	[ "$(grep after lo$m.txt)" = "inline_regions.c:80/after 30 0" ] ||
		fail "loops only inline=$m: after's paths: $(grep after lo$m.txt)"
done

# The throttle counts the inlined copies together: helper is switched
# off at its 1001st call over use_a's and use_b's copies.
SELINST_THROTTLE=1000:1000000000 SELINST_OUTPUT=$PWD/th.prof ./pon-O2 > out.txt &&
	cmp -s out.txt plain.txt || fail "throttled run"
python3 - th.prof <<'PY' || fail "throttle over inlined copies"
import yaml
p = yaml.safe_load(open("th.prof"))
h = [r for r in p["regions"] if r["name"] == "helper"][0]
assert (h.get("throttled") or {}).get("calls") == 1001, h
calls = sum(n["calls"] for t in p["threads"] for n in t["nodes"] if n["region"] == h["id"])
assert calls == 1001, calls
PY

# Recursion inlined into itself (-O3 inlines fib into fib): each inlined
# level enters the same region again, so the calls are the source's.
# With off-copy=off: the default puts the hooks into a copy that stays
# out of line (t-plugin-off-copy), so only the hook-free body is inlined.
cat > rec.c <<'C'
#include <stdio.h>
#include <stdlib.h>
static inline int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(int argc, char **argv) { printf("%d\n", fib(argc > 1 ? atoi(argv[1]) : 20)); return 0; }
C
for m in on off; do
	si_cc -O3 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-inline=$m \
		-fplugin-arg-selinst-off-copy=off rec.c -o rec$m ||
		fail "compile recursion inline=$m"
	[ "$(SELINST_OUTPUT=$PWD/rec$m.prof ./rec$m)" = 6765 ] || fail "recursion inline=$m output"
	summary rec$m.prof > rec$m.txt || fail "recursion profile inline=$m"
done
grep -q "^main/fib 21891 0$" recon.txt && diff recoff.txt recon.txt > /dev/null ||
	fail "recursion: $(cat recon.txt) against $(cat recoff.txt)"
on=$(objdump -d recon | grep -c 'call.*<__selinst_enter')
off=$(objdump -d recoff | grep -c 'call.*<__selinst_enter')
[ "$on" -gt "$off" ] || fail "recursion: fib not inlined into itself ($on enter calls, $off with inline=off)"

# C++: an inlined body left by an exception closes its region on the way
# out (its own cleanup, copied with it), before the caller's handler.
need g++
eh=$T/programs/inline_eh.cc
g++ -O2 "$eh" -o ehplain && ./ehplain > ehplain.txt || fail "plain C++ build"
# With off-copy=off (the default keeps the hooks in an out-of-line copy,
# t-plugin-off-copy); the default (oc) gives the same profile.
for O in -O0 -O2 -O3 -Os; do
	for m in on off oc; do
		oc=-fplugin-arg-selinst-off-copy=off
		[ $m = oc ] && oc=
		g++ $SI_CFLAGS $O -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-inline=${m/oc/on} \
			$oc "$eh" -o eh$m $SI_LIBS || fail "compile C++ inline=$m $O"
		SELINST_OUTPUT=$PWD/eh$m.prof ./eh$m > out.txt || fail "run C++ inline=$m $O"
		cmp -s out.txt ehplain.txt || fail "C++ inline=$m $O: output differs"
		summary eh$m.prof > eh$m.txt || fail "C++ profile inline=$m $O"
	done
	diff eh{off,on}.txt > /dev/null || fail "C++ $O: inline=on differs: $(diff ehoff.txt ehon.txt)"
	diff eh{off,oc}.txt > /dev/null || fail "C++ $O: off-copy differs: $(diff ehoff.txt ehoc.txt)"
	grep -q "run(int)/void after(int) 10 0" ehon.txt || fail "C++ $O: after's path: $(cat ehon.txt)"
	[ "$(grep -c 'after' ehon.txt)" = 1 ] || fail "C++ $O: after under guarded: $(cat ehon.txt)"
	[ $O = -O0 ] || ! nm -C ehon | grep -q ' guarded(int)$' || fail "C++ $O: guarded not inlined"
done

# A bad value is refused.
si_cc -c "$src" -o x.o -fplugin-arg-selinst-inline=maybe 2> err.txt && fail "inline=maybe accepted"
grep -q "expected 'on' or 'off'" err.txt || fail "inline=maybe message: $(cat err.txt)"
echo "ok"
