#!/bin/bash
# SPDX-License-Identifier: MIT
# The profile writer's cost is a few dozen instructions a byte, and its
# text reads back as what was written.  Through libyaml's emitter the
# write cost about 200 instructions a byte (Lua's 36 KB profile: 7.2
# million instructions, zstd's two: 6 million, most of what a default
# build cost over the plain one); runtime/emit.c writes the same layout
# directly.  Instructions of si_write_profile (callgrind, inclusive) per
# byte of the profile, on a program with about 4,000 calling contexts;
# then a command line with quotes, backslashes, control characters,
# U+2028, U+00E9 and bytes that are not UTF-8, read back by PyYAML.
. "$(dirname "$0")/lib.sh"
need valgrind
need callgrind_annotate
python3 - > ctx.c <<'PY'
print("#include <stdio.h>")
print("volatile long sink;")
for i in range(64):
    print("__attribute__((noinline)) void f%d(long x) { for (long j = 0; j < x; j++) sink += j; }" % i)
for i in range(64):
    calls = " ".join("f%d(x);" % ((i * 7 + k) % 64) for k in range(64))
    print("__attribute__((noinline)) void g%d(long x) { %s }" % (i, calls))
print("int main(void) {")
for i in range(64):
    print("  g%d(3);" % i)
print('  printf("%ld\\n", sink); return 0; }')
PY
si_cc -O2 -fplugin-arg-selinst-threshold=0 ctx.c -o ctx || fail "build"
SELINST_OUTPUT=$PWD/ctx.prof valgrind --tool=callgrind --callgrind-out-file=cg.out ./ctx \
	> /dev/null 2> vg.txt || fail "run: $(tail -3 vg.txt)"
bytes=$(stat -c %s ctx.prof)
w=$(callgrind_annotate --auto=no --inclusive=yes --threshold=100 cg.out |
	awk '/output\.c:si_write_profile \[/ {gsub(",", "", $1); print $1; exit}')
[ -n "$w" ] || fail "no si_write_profile in callgrind's output"
nodes=$(grep -c '^  - {id:' ctx.prof)
echo "profile $bytes bytes, $nodes nodes, write $w instructions: $((w / bytes)) a byte"
[ "$nodes" -ge 4000 ] || fail "only $nodes nodes"
[ $((w / bytes)) -lt 80 ] || fail "the write costs $((w / bytes)) instructions a byte"
"$REPORT" ctx.prof > report.txt || fail "profile unreadable"
grep -q " g63$" report.txt || fail "g63 not in the report"

# Strings: the command line is written double-quoted.
cat > one.c <<'C'
int main(void) { return 0; }
C
si_cc -O2 one.c -o one || fail "build one"
arg1=$'q"uo\\te\ttab\nnl\x01ctl'
arg2=$'\xe2\x80\xa8ls \xc3\xa9 bad\xff\xc0end'
SELINST_OUTPUT=$PWD/one.prof ./one "$arg1" "$arg2" || fail "run one"
"$REPORT" one.prof > /dev/null || fail "one.prof unreadable"
python3 - one.prof <<'PY' || fail "command did not read back"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
want = './one q"uo\\te\ttab\nnl\x01ctl \u2028ls \u00e9 bad??end'
if d["command"] != want:
    sys.exit("got %r, want %r" % (d["command"], want))
assert d["end"] is True and d["threads"][0]["nodes"], d
PY
echo ok
