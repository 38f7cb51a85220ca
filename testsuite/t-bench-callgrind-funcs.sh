#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/callgrind_funcs.py, which the feedback benches read callgrind's
# figures with, gives the write at exit (si_write_profile, inclusive) as
# it is wherever it is run from.  callgrind_annotate shortens file names
# under its working directory, and run in the tree that built libselinst
# it lists the write under two names, one with only part of it:
# bench/real-projects.sh took that one and recorded zstd's write at 0.3
# of its 1.15 million instructions.  An inclusive cost holds at least
# the own cost of the emitter's functions (em_*, called only by the
# write); the part did not.  Then the split of a build's instructions
# over plain: runtime, loader and libc, the program's functions.
. "$(dirname "$0")/lib.sh"
need valgrind
need callgrind_annotate
CF=$SELINST_ROOT/bench/callgrind_funcs.py
# fbnodes at threshold 0: eleven regions, a few call-tree nodes each
cp "$T/programs/fbnodes.c" ctx.c
gcc -O2 ctx.c -o plain || fail "build plain"
si_cc -O2 -fplugin-arg-selinst-threshold=0 ctx.c -o ctx || fail "build"
SELINST_SAMPLE=off SELINST_OUTPUT=$PWD/ctx.prof valgrind --tool=callgrind --callgrind-out-file=cg.out ./ctx 1000 1000 \
	> /dev/null 2> vg.txt || fail "run: $(tail -3 vg.txt)"
valgrind --tool=callgrind --callgrind-out-file=plain.out ./plain 1000 1000 > /dev/null 2> vg.txt ||
	fail "run plain: $(tail -3 vg.txt)"
# from the tree that built the runtime, and from here
w_root=$(cd "$SELINST_ROOT" && python3 "$CF" incl "$WORK/cg.out" si_write_profile)
w_here=$(python3 "$CF" incl "$WORK/cg.out" si_write_profile)
expect_eq "the write from the source tree and from elsewhere" "$w_here" "$w_root"
emit=$(cd "$SELINST_ROOT" && python3 - "$CF" "$WORK/cg.out" <<'PY'
import os, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))
import callgrind_funcs
d = callgrind_funcs.own(sys.argv[2])
print(sum(v for (kind, fn), v in d.items() if kind == "runtime" and fn.startswith("em_")))
PY
)
echo "write $w_root instructions, the emitter's own $emit"
[ "$emit" -gt 0 ] || fail "no em_ function in the runtime's share"
[ "$w_root" -ge "$emit" ] || fail "the write ($w_root) is less than the emitter's own cost ($emit)"
# the split adds up to the run's instructions over plain
read -r over run sysl grown shrunk < <(cd "$SELINST_ROOT" &&
	python3 "$CF" split "$WORK/plain.out" -- "$WORK/cg.out")
tot() { awk '/^(summary|totals):/ {print $2; exit}' "$1"; }
expect_eq "over plain" $(( $(tot cg.out) - $(tot plain.out) )) "$over"
expect_eq "the split's sum" "$over" $((run + sysl + grown + shrunk))
[ "$run" -ge "$emit" ] || fail "runtime $run less than the emitter's own $emit"
[ "$shrunk" -le 0 ] && [ "$grown" -ge 0 ] || fail "grown $grown, shrunk $shrunk"
echo "over plain $over: runtime $run, loader and libc $sysl, program +$grown $shrunk"
