#!/bin/bash
# SPDX-License-Identifier: MIT
# Plugin arguments: bad ones are compile errors that say what is accepted;
# exact thresholds of any size.
. "$(dirname "$0")/lib.sh"
cat > p.c <<'C'
int helper(int x) { return x * 2; }
int main(void) { return helper(0); }
C
# expect_error ARGS... : compile must fail; prints the diagnostics.
compile() { gcc -fchecking -fplugin=$PLUGIN "$@" -c p.c -o p.o 2>err.txt; }
must_fail() {
	compile "$@" && fail "accepted: $*"
	cat err.txt
}
must_fail -fplugin-arg-selinst-threshold=abc | grep -q "bad value 'abc' for argument 'threshold'.*non-negative decimal integer" \
	|| fail "threshold=abc message: $(cat err.txt)"
must_fail -fplugin-arg-selinst-threshold=-5 | grep -q "bad value '-5'" || fail "negative threshold: $(cat err.txt)"
must_fail -fplugin-arg-selinst-threshold= | grep -q "needs a value" || fail "empty threshold: $(cat err.txt)"
must_fail -fplugin-arg-selinst-threshold | grep -q "needs a value" || fail "bare threshold: $(cat err.txt)"
must_fail -fplugin-arg-selinst-threshold=5 -fplugin-arg-selinst-threshold=6 \
	| grep -q "argument '-fplugin-arg-selinst-threshold' given more than once, with different values ('5', '6')" \
	|| fail "repeated threshold: $(cat err.txt)"
must_fail -fplugin-arg-selinst-verbose -fplugin-arg-selinst-verbose= | grep -q "given more than once, with different values ('', '')" \
	|| fail "verbose, then verbose=: $(cat err.txt)"
# The same value again is no conflict: gawk's build puts CFLAGS on each
# compile command of support/ and extension/ twice, and its build broke.
# End to end, as there: the program built and run, its profile read.
si_cc -O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=%u.rep.yaml -fplugin-arg-selinst-verbose \
	-O2 -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=%u.rep.yaml -fplugin-arg-selinst-verbose \
	p.c -o rep 2>err.txt || fail "the same arguments twice: $(cat err.txt)"
expect_eq "repeated decisions= written" "[True, True]" "$(yget p.c.rep.yaml '[f["instrument"] for f in d["functions"]]')"
expect_eq "repeated verbose: its table once" 1 "$(grep -c "^selinst: p.c, threshold 0" err.txt)"
SELINST_OUTPUT=rep.prof ./rep || fail "run with repeated arguments"
$REPORT rep.prof > rep.txt || fail "report of rep.prof"
grep -q "func helper" rep.txt || fail "helper not a region with threshold=0 given twice: $(cat rep.txt)"
must_fail -fplugin-arg-selinst-loops | grep -q "argument 'loops' needs a value" || fail "bare loops: $(cat err.txt)"
must_fail -fplugin-arg-selinst-treshold=5 | grep -q "unknown argument '-fplugin-arg-selinst-treshold'; accepted: threshold=N, loop-threshold=N" \
	|| fail "unknown key message: $(cat err.txt)"
# The list comes from the plugin's one option table: every key it names is
# documented (README, selinst(7)) and in the help GCC prints for plugins.
keys=$(sed -n "s/.*accepted: //p" err.txt | tr ',' '\n' | sed 's/^ *//; s/=.*//')
[ "$(echo "$keys" | wc -l)" -ge 15 ] || fail "accepted list too short: $keys"
gcc -fplugin=$PLUGIN -v --help > help.txt 2>&1
for k in $keys; do
	grep -q -- "^| .*\`$k[=\`]" "$SELINST_ROOT/README.md" || fail "README's argument table lacks $k"
	grep -qF -- "${k//-/\\-}" "$SELINST_ROOT/doc/man/selinst.7" || fail "selinst.7 lacks $k"
	grep -q -- "-fplugin-arg-selinst-$k" help.txt || fail "plugin help lacks $k"
done
must_fail -fplugin-arg-selinst-verbose=yes | grep -q "takes no value" || fail "verbose=yes: $(cat err.txt)"
must_fail -fplugin-arg-selinst-decisions=/nonexistent/dir/d.yaml | grep -q "cannot write decision file '/nonexistent/dir/d.yaml'.*No such file" \
	|| fail "unwritable decisions: $(cat err.txt)"
must_fail -fplugin-arg-selinst-loop-unit=1.5 | grep -q "bad value '1.5' for argument 'loop-unit'" || fail "loop-unit: $(cat err.txt)"

# Any size, exactly: 10^30 selects nothing, 0 everything.
compile -fplugin-arg-selinst-threshold=1000000000000000000000000000000 \
	-fplugin-arg-selinst-decisions=big.yaml || fail "huge threshold rejected: $(cat err.txt)"
expect_eq "threshold echoed exactly" 1000000000000000000000000000000 "$(yget big.yaml 'd["threshold"]')"
expect_eq "nothing instrumented" "[False, False]" "$(yget big.yaml '[f["instrument"] for f in d["functions"]]')"
nm p.o | grep -v " __selinst_note" | grep -q __selinst && fail "hooks with a huge threshold"
compile -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=zero.yaml || fail "threshold 0"
expect_eq "all instrumented" "[True, True]" "$(yget zero.yaml '[f["instrument"] for f in d["functions"]]')"
nm p.o | grep -q "U __selinst_enter" || fail "no hooks at threshold 0"

# Constants are configurable: with block weight and loop base 0 a score is
# the statements and calls alone.
compile -fplugin-arg-selinst-threshold=1 -fplugin-arg-selinst-loop-base=0 -fplugin-arg-selinst-block-weight=0 \
	-fplugin-arg-selinst-decisions=k.yaml || fail "constants"
expect_eq "constants recorded" "{'block_weight': 0, 'loop_base': 0, 'loop_unit': 2048, 'call_unit': 2048}" "$(yget k.yaml 'd["constants"]')"
expect_eq "helper weight only (2 statements)" "2" "$(yget k.yaml '[f["score"] for f in d["functions"] if f["name"]=="helper"][0]')"

# Several units into one file: documents appended, not clobbered; %u gives
# one file per unit.
cat > q.c <<'C'
int other(int x) { return x + 1; }
C
gcc -fplugin=$PLUGIN -fplugin-arg-selinst-decisions=all.yaml -c p.c q.c || fail "two units"
expect_eq "two documents" "['p.c', 'q.c']" "$(python3 -c 'import yaml; print(sorted(d["unit"] for d in yaml.safe_load_all(open("all.yaml"))))')"
# Parallel compiles appending to one file: every document whole.
for i in 1 2 3 4 5 6 7 8; do
	sed "s/other/other$i/" q.c > q$i.c
	gcc -fplugin=$PLUGIN -fplugin-arg-selinst-decisions=par.yaml -c q$i.c -o q$i.o &
done
wait
expect_eq "8 parallel appends" "['q1.c', 'q2.c', 'q3.c', 'q4.c', 'q5.c', 'q6.c', 'q7.c', 'q8.c']" \
	"$(python3 -c 'import yaml; print(sorted(d["unit"] for d in yaml.safe_load_all(open("par.yaml"))))')"
gcc -fplugin=$PLUGIN -fplugin-arg-selinst-decisions=%u.dec.yaml -c p.c q.c || fail "%u"
[ -f p.c.dec.yaml ] && [ -f q.c.dec.yaml ] || fail "%u files: $(ls)"
expect_eq "%u unit" "q.c" "$(yget q.c.dec.yaml 'd["unit"]')"
# Units with the same base name in two directories get two files.
mkdir -p sub/a sub/b && cp p.c sub/a/p.c && cp q.c sub/b/p.c
gcc -fplugin=$PLUGIN -fplugin-arg-selinst-decisions=%u.dec.yaml -c sub/a/p.c -o pa.o || fail "%u sub/a"
gcc -fplugin=$PLUGIN -fplugin-arg-selinst-decisions=%u.dec.yaml -c ./sub/b/p.c -o pb.o || fail "%u sub/b"
expect_eq "%u keeps directories apart" "sub/a/p.c ./sub/b/p.c" \
	"$(yget sub_a_p.c.dec.yaml 'd["unit"]') $(yget sub_b_p.c.dec.yaml 'd["unit"]')"
# A unit above the working directory makes no hidden file: ".." is "up".
(cd sub/a && gcc -fplugin=$PLUGIN -fplugin-arg-selinst-decisions=%u.dec.yaml -c ../b/p.c -o up.o) || fail "%u ../"
[ -f sub/a/up_b_p.c.dec.yaml ] || fail "%u of ../b/p.c: $(ls -A sub/a)"

# The plugin refuses a GCC it was not built for: a copy built to claim
# GCC 11.9.0 is loaded into this GCC.
plugin_inc=$(gcc -print-file-name=plugin)/include
g++ -O0 -std=gnu++14 -fPIC -fno-rtti -fno-exceptions -I"$plugin_inc" -shared \
	-DSELINST_TEST_BUILT_FOR='"11.9.0"' -DSELINST_VERSION='"test"' -o other.so $SELINST_ROOT/plugin/*.cc -lgmp -lyaml \
	|| fail "build the other-GCC copy"
gcc -fplugin=./other.so -c p.c -o po.o 2>erro.txt && fail "loaded a plugin built for another GCC"
grep -q "selinst: this plugin was built for GCC 11.9.0 .* and cannot be loaded into GCC $(gcc -dumpfullversion)" erro.txt \
	|| fail "other-GCC message: $(cat erro.txt)"
# The same with a real other GCC (11 or 12), when one is installed: the
# plugin refuses, or the dynamic loader does first when the other GCC
# lacks a symbol the plugin uses (GCC loads plugins with RTLD_NOW).
major=$(gcc -dumpversion | cut -d. -f1)
other=gcc-11
[ "$major" = 11 ] && other=gcc-12
if command -v $other >/dev/null; then
	$other -fplugin=$PLUGIN -c p.c -o po.o 2>erro.txt && fail "loaded into $other"
	grep -q "built for GCC $major\|cannot load plugin.*undefined symbol" erro.txt \
		|| fail "$other message: $(cat erro.txt)"
fi
exit 0
