#!/bin/bash
# SPDX-License-Identifier: MIT
# Bad input: each case gives exactly one error line naming the file (and
# the line for YAML and content errors), nothing on stdout, exit 2.
. "$(dirname "$0")/lib.sh"
D=$T/report-data
[ -x "$REPORT" ] || fail "no $REPORT"

# check NAME EXPECTED-STDERR ARGS...
check() {
	local name=$1 want=$2; shift 2
	"$REPORT" "$@" > out.txt 2> err.txt
	local rc=$?
	[ $rc -eq 2 ] || fail "$name: exit $rc, expected 2 ($(cat err.txt))"
	[ ! -s out.txt ] || fail "$name: wrote to stdout"
	expect_eq "$name: stderr lines" 1 "$(wc -l < err.txt)"
	expect_eq "$name" "$want" "$(cat err.txt)"
}

check missing "selinst-report: nosuch.prof: cannot open: No such file or directory" nosuch.prof
head -c 1500 "$D/simple.yaml" > cut1.prof
check "truncated in a key" "selinst-report: cut1.prof:80: YAML error: could not find expected ':' while scanning a simple key" cut1.prof
head -c 1000 "$D/simple.yaml" > cut2.prof
check "truncated in a value" "selinst-report: cut2.prof:57: profile is truncated (the file does not end with a newline)" cut2.prof
: > empty.prof
check empty "selinst-report: empty.prof: empty file, not a selinst profile" empty.prof
head -c 4096 /dev/urandom > random.prof
printf '\0' >> random.prof
check "random bytes" "selinst-report: random.prof: not a selinst profile (binary data)" random.prof
head -c 4096 /dev/urandom | tr -d '\0' > random2.prof
check "random bytes, no NUL" "selinst-report: random2.prof: not a selinst profile (binary data)" random2.prof
printf '\xff\xfef\0o\0r\0' > utf16.prof
check "UTF-16 text" "selinst-report: utf16.prof: not a selinst profile (binary data)" utf16.prof
sed 's/name: leaf/name: l\xe9af/' "$D/simple.yaml" > latin1.prof
check "not UTF-8" "selinst-report: latin1.prof:37: YAML error: invalid trailing UTF-8 octet" latin1.prof
sed 's/calls: 40$/calls: 4\x010/' "$D/simple.yaml" > control.prof
check "control character" "selinst-report: control.prof:73: YAML error: control characters are not allowed" control.prof
python3 -c 'print("a: " + "[" * 100)' > deep.prof
check "nested too deeply" "selinst-report: deep.prof:1: YAML nested too deeply" deep.prof
head -c 3000 /dev/urandom | base64 > text.prof
check "random text" "selinst-report: text.prof:1: not a selinst profile (the document is not a mapping)" text.prof
sed 's/^format: selinst-profile/format: other-profile/' "$D/simple.yaml" > wrongfmt.prof
check "wrong format" "selinst-report: wrongfmt.prof:3: not a selinst profile (format is 'other-profile', expected 'selinst-profile')" wrongfmt.prof
printf 'format: selinst-decisions\nversion: 1\n' > decisions.prof
check "other selinst file" "selinst-report: decisions.prof:1: not a selinst profile (format is 'selinst-decisions', expected 'selinst-profile')" decisions.prof
sed 's/^version: 1/version: 4/' "$D/simple.yaml" > newer.prof
check "newer version" "selinst-report: newer.prof:4: profile format version 4 is newer than this selinst-report reads (3); upgrade selinst" newer.prof
sed 's/^version: 1/version: 123456789012345678901234567890/' "$D/simple.yaml" > huge.prof
check "huge version" "selinst-report: huge.prof:4: profile format version 123456789012345678901234567890 is newer than this selinst-report reads (3); upgrade selinst" huge.prof
printf 'format: selinst-profile\nversion: 4\nsomething: else\n' > v2.prof
check "newer version, other layout" "selinst-report: v2.prof:2: profile format version 4 is newer than this selinst-report reads (3); upgrade selinst" v2.prof
sed 's/^version: 1/version: 0/' "$D/simple.yaml" > v0.prof
check "version 0" "selinst-report: v0.prof:4: profile format version 0 is not supported" v0.prof
sed 's/^version: 1/version: one/' "$D/simple.yaml" > vword.prof
check "version word" "selinst-report: vword.prof:4: 'version' must be a non-negative integer, not 'one'" vword.prof
printf 'format: selinst-profile\nversion: 1\nregions: [\nthreads: []\n' > syntax.prof
check "YAML syntax" "selinst-report: syntax.prof:5: YAML error: did not find expected ',' or ']' while parsing a flow sequence" syntax.prof
sed 's/parent: 5/parent: 77/' "$D/simple.yaml" > parent.prof
check "bad parent" "selinst-report: parent.prof:83: parent 77 of node 6 does not come before it" parent.prof
sed 's/region: 4/region: 9/' "$D/simple.yaml" > region.prof
check "bad region" "selinst-report: region.prof:78: node 5 names region 9, but the profile has 5 regions" region.prof
sed 's/exclusive_ns: 3000000000}/exclusive_ns: 9000000000}/' "$D/simple-r1.yaml" > excl.prof
check "excl > incl" "selinst-report: excl.prof:25: exclusive_ns 9000000000 is greater than inclusive_ns 6000000000" excl.prof
# Times whose sums overflow 64-bit nanoseconds when merged (three nodes of
# 2^63-1 ns): an error naming the file, not a wrapped total.
{
	printf 'format: selinst-profile\nversion: 1\nregions:\n'
	printf '  - {id: 0, name: f, kind: function, file: a.c, line: 1}\nthreads:\n'
	for t in 0 1 2; do
		printf '  - index: %d\n    nodes:\n' $t
		printf '      - {id: 1, parent: 0, region: 0, calls: 1, inclusive_ns: 9223372036854775807, exclusive_ns: 9223372036854775807}\n'
	done
	printf 'end: true\n'
} > huge.prof
check "sum overflow" "selinst-report: huge.prof: inclusive_ns values too large: their sum overflows 64 bits when merged" huge.prof
head -n 8 huge.prof > huge1.prof; echo 'end: true' >> huge1.prof
"$REPORT" huge1.prof "$D/simple.yaml" > /dev/null || fail "one huge node alone must merge"
cp huge1.prof huge2.prof; cp huge1.prof huge3.prof
"$REPORT" huge1.prof huge2.prof huge3.prof > out.txt 2> err.txt
expect_eq "overflow over files: exit" 2 $?
grep -q "^selinst-report: huge[123].prof: [a-z_]* values too large: their sum overflows 64 bits when merged$" err.txt ||
	fail "overflow over files: $(cat err.txt)"
sed 's/calls: 40$/calls: -40/' "$D/simple.yaml" > neg.prof
check "negative" "selinst-report: neg.prof:73: 'calls' must be a non-negative integer, not '-40'" neg.prof
sed '/^threads:/,/^end:/{/^end:/!d}' "$D/simple.yaml" > nothreads.prof
check "no threads" "selinst-report: nothreads.prof:3: profile has no 'threads'" nothreads.prof
sed 's/"10": 4/"10-19": 4/' "$D/simple.yaml" > bucket.prof
check "bad bucket" "selinst-report: bucket.prof:69: '10-19' is not a trip-count bucket (0..15, 16-31, 32-63, ...)" bucket.prof
sed 's/kind: loop/kind: while/' "$D/simple.yaml" > kind.prof
check "bad kind" "selinst-report: kind.prof:32: region kind 'while' is not function, loop, manual or mpi" kind.prof
printf 'format: selinst-profile\nversion: 1\nregions: []\nthreads: []\nend: true\n---\na: 1\n' > twodocs.prof
check "two documents" "selinst-report: twodocs.prof:6: more than one YAML document" twodocs.prof
printf 'format: selinst-profile\nversion: 1\nregions: &r []\nthreads: *r\nend: true\n' > alias.prof
check "alias" "selinst-report: alias.prof:4: YAML aliases are not allowed in a profile" alias.prof
# One bad file among good ones: the bad one is named.
check "bad among good" "selinst-report: newer.prof:4: profile format version 4 is newer than this selinst-report reads (3); upgrade selinst" "$D/simple.yaml" newer.prof "$D/loops.yaml"
mkdir emptydir
check "directory" "selinst-report: emptydir: a folder without *.prof files (try --help)" emptydir
# Usage errors are exit 2 too.
check "no file" "selinst-report: no profile given (try --help)"
check "bad format option" "selinst-report: unknown format 'xml' (text, json, folded, svg, dot, callgrind, chrome, flow) (try --help)" --format=xml "$D/simple.yaml"
check "bad regex" "selinst-report: --filter '(': Unmatched ( or \\( (try --help)" --filter '(' "$D/simple.yaml"
check "diff arity" "selinst-report: --diff wants exactly two profiles, BASE and NEW (try --help)" --diff "$D/simple.yaml"
check "diff with another format" "selinst-report: --diff prints text only, not --format=json (try --help)" --diff --format=json "$D/simple.yaml" "$D/simple-r1.yaml"
check "diff with svg" "selinst-report: --diff prints text only, not --format=svg (try --help)" --format=svg --diff "$D/simple.yaml" "$D/simple-r1.yaml"
"$REPORT" --diff --format=text "$D/simple.yaml" "$D/simple-r1.yaml" > out.txt || fail "--diff --format=text: exit $?"
# --help: one line per option group, within 80 columns, and it names every
# long option the command line accepts (the getopt table in report/main.c).
"$REPORT" --help > help.txt || fail "--help exit $?"
awk 'length > 80 { exit 1 }' help.txt || fail "--help wider than 80 columns"
for opt in $(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)", [a-z_]*_argument.*/\1/p' "$SELINST_ROOT/report/main.c"); do
	grep -q -- "--$opt\b" help.txt || fail "--help does not list --$opt"
done
grep -q -- '--flat' help.txt && grep -q -- '--version' help.txt || fail "--help lacks --flat or --version"

# -o FILE: a failed run leaves an existing FILE as it was and no file
# behind (neither FILE nor a temporary one); a successful one replaces it.
mkdir outdir
echo keep > outdir/keep.txt
check "-o, missing input" "selinst-report: nosuch.prof: cannot open: No such file or directory" -o outdir/keep.txt nosuch.prof
expect_eq "-o FILE kept on a missing input" keep "$(cat outdir/keep.txt)"
check "-o, bad among good" "selinst-report: newer.prof:4: profile format version 4 is newer than this selinst-report reads (3); upgrade selinst" -o outdir/keep.txt --format=json "$D/simple.yaml" newer.prof
expect_eq "-o FILE kept on bad input" keep "$(cat outdir/keep.txt)"
check "-o, diff with a bad NEW" "selinst-report: cut1.prof:80: YAML error: could not find expected ':' while scanning a simple key" -o outdir/keep.txt --diff "$D/simple.yaml" cut1.prof
expect_eq "-o FILE kept on a bad diff" keep "$(cat outdir/keep.txt)"
check "-o, usage error" "selinst-report: --diff prints text only, not --format=json (try --help)" -o outdir/keep.txt --diff --format=json "$D/simple.yaml" "$D/simple-r1.yaml"
check "-o, new file, bad input" "selinst-report: nosuch.prof: cannot open: No such file or directory" -o outdir/new.txt nosuch.prof
expect_eq "-o: nothing left behind" keep.txt "$(ls -A outdir)"
check "-o into a missing directory" "selinst-report: nodir/x.txt: cannot write: No such file or directory" -o nodir/x.txt "$D/simple.yaml"
check "-o a directory" "selinst-report: outdir: cannot write: Is a directory" -o outdir "$D/simple.yaml"
"$REPORT" -o outdir/keep.txt "$D/simple.yaml" > out.txt || fail "-o: exit $?"
[ ! -s out.txt ] || fail "-o: wrote to stdout"
"$REPORT" "$D/simple.yaml" | cmp -s - outdir/keep.txt || fail "-o FILE differs from stdout"
chmod 640 outdir/keep.txt
"$REPORT" -o outdir/keep.txt --tree "$D/simple.yaml" || fail "-o again: exit $?"
expect_eq "-o keeps the mode of FILE" 640 "$(stat -c %a outdir/keep.txt)"
(umask 027; "$REPORT" -o outdir/new.txt "$D/simple.yaml") || fail "-o new: exit $?"
expect_eq "-o: a new file's mode follows the umask" 640 "$(stat -c %a outdir/new.txt)"
ln -s keep.txt outdir/link.txt
"$REPORT" -o outdir/link.txt --loops "$D/loops.yaml" || fail "-o link: exit $?"
[ -L outdir/link.txt ] || fail "-o replaced a symbolic link instead of its file"
grep -q '^Loops:' outdir/keep.txt || fail "-o through a link did not write the file"
expect_eq "-o: no temporary files" "keep.txt link.txt new.txt" "$(ls -A outdir | xargs)"
"$REPORT" -o /dev/null "$D/simple.yaml" || fail "-o /dev/null: exit $?"
# A valid empty profile is fine.
printf 'format: selinst-profile\nversion: 1\nregions: []\nthreads: []\nend: true\n' > empty-ok.prof
"$REPORT" empty-ok.prof > /dev/null || fail "empty but valid profile: exit $?"
# The end marker: a profile cut exactly at a line break is valid YAML, and
# only the missing 'end: true' line tells it is truncated.
TRUNC="profile is truncated (no 'end: true' marker; the writer did not finish)"
head -n 60 "$D/simple.yaml" > cutline.prof
check "cut at a line break" "selinst-report: cutline.prof:60: $TRUNC" cutline.prof
printf 'format: selinst-profile\nversion: 1\nregions: []\nthreads: []\n' > noend.prof
check "no end marker" "selinst-report: noend.prof:4: $TRUNC" noend.prof
sed 's/^end: true$/end: false/' "$D/simple.yaml" > endfalse.prof
check "end: false" "selinst-report: endfalse.prof:115: 'end' must be true" endfalse.prof
printf 'format: selinst-profile\nversion: 1\nend: [true]\nregions: []\nthreads: []\n' > endlist.prof
check "end is a list" "selinst-report: endlist.prof:3: 'end' must be true" endlist.prof
# The format and the version are checked before the end marker: a file
# from a newer selinst, or not a profile, says so even without the marker.
sed '/^end: true$/d; s/^version: 1/version: 4/' "$D/simple.yaml" > newer-noend.prof
check "newer version, no end" "selinst-report: newer-noend.prof:4: profile format version 4 is newer than this selinst-report reads (3); upgrade selinst" newer-noend.prof
sed '/^end: true$/d; s/^format: selinst-profile/format: other-profile/' "$D/simple.yaml" > wrongfmt-noend.prof
check "wrong format, no end" "selinst-report: wrongfmt-noend.prof:3: not a selinst profile (format is 'other-profile', expected 'selinst-profile')" wrongfmt-noend.prof
# A profile written by the runtime, and the hand-written block- and
# flow-style ones, cut at every line break: each cut is refused with the
# truncation message naming the file and its last line; whole, they pass.
for f in "$T/fuzz/corpus/runtime-rtprog.yaml" "$D/simple.yaml" "$D/simple-r1.yaml"; do
	"$REPORT" "$f" > out.txt 2> err.txt || fail "$f whole: exit $? ($(cat err.txt))"
	[ -s out.txt ] && [ ! -s err.txt ] || fail "$f whole: no output or a message"
	n=$(wc -l < "$f")
	first=$(grep -n -m1 -v '^#' "$f" | cut -d: -f1)	# after leading comments
	for k in $(seq "$first" $((n - 1))); do
		head -n "$k" "$f" > cut.prof
		check "$(basename "$f") cut after line $k" "selinst-report: cut.prof:$k: $TRUNC" cut.prof
	done
done
# Damaged profiles (bytes overwritten, lines dropped or repeated, seeded):
# never a crash, exit 0 or 2, and a refusal is one line naming the file.
python3 - "$D/simple.yaml" <<'EOP'
import random, sys
src = open(sys.argv[1], "rb").read()
lines = src.split(b"\n")
rng = random.Random(7)
for i in range(60):
    if i % 3 == 0:
        d = bytearray(src)
        for _ in range(rng.randint(1, 4)):
            d[rng.randrange(len(d))] = rng.choice(b"\x00\x7f\xff:{}[]-#&*!|>'\"%@` \n\t0123456789")
        d = bytes(d)
    elif i % 3 == 1:
        l = list(lines)
        del l[rng.randrange(len(l) - 1)]
        d = b"\n".join(l)
    else:
        l = list(lines)
        k = rng.randrange(len(l) - 1)
        l.insert(k, l[rng.randrange(len(l) - 1)])
        d = b"\n".join(l)
    open("damaged%02d.prof" % i, "wb").write(d)
EOP
for f in damaged*.prof; do
	"$REPORT" --tree --prune 0 "$f" > out.txt 2> err.txt
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 2 ] || fail "$f: exit $rc"
	[ $rc -eq 0 ] || [ ! -s out.txt ] || fail "$f: refused but wrote to stdout"
	[ $rc -eq 0 ] || expect_eq "$f: lines" 1 "$(wc -l < err.txt)"
	[ $rc -eq 0 ] || grep -q "^selinst-report: $f" err.txt || fail "$f: $(cat err.txt)"
done
# Cuts at many byte offsets (inside lines too): never a crash, always
# exit 2 with one line naming the file.
size=$(wc -c < "$D/simple.yaml")
for n in $(seq 1 37 $((size - 1))) $((size - 1)); do
	head -c "$n" "$D/simple.yaml" > cut.prof
	"$REPORT" cut.prof > out.txt 2> err.txt
	rc=$?
	[ $rc -eq 2 ] || fail "cut at byte $n: exit $rc"
	[ ! -s out.txt ] || fail "cut at byte $n: wrote to stdout"
	expect_eq "cut at byte $n: lines" 1 "$(wc -l < err.txt)"
	grep -q '^selinst-report: cut.prof' err.txt || fail "cut at byte $n: $(cat err.txt)"
done
echo ok
