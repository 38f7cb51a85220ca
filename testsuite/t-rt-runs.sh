#!/bin/bash
# SPDX-License-Identifier: MIT
# Nothing lost across processes by default: one program run many times in
# sequence, in pipelines and in parallel leaves one profile per run
# (<program>.prof the one finished last, the earlier ones kept as
# <program>.<pid>.prof), a process's own snapshots replace each other,
# %e names the program, selinst-report merges a folder or a quoted
# pattern; --diff refuses profiles of two programs unless --force, and a
# merge of two programs names each top-level frame's program.
. "$(dirname "$0")/lib.sh"
cat >p.c <<'EOF'
#include <selinst.h>
#include <stdio.h>
#include <stdlib.h>
int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i % 7; return s; }
int main(int argc, char **argv)
{
	int c;
	while ((c = getchar()) != EOF)	/* a pipeline stage passes its input on */
		putchar(c);
	printf("%d\n", work(1000));
	if (argc > 1 && !strcmp(argv[1], "snap"))
		selinst_dump(NULL);
	return 0;
}
EOF
sed -i '1i #include <string.h>' p.c
si_cc -O2 p.c -o prog || fail "compile"
cp prog other

mkdir runs && cd runs
for i in 1 2 3; do ../prog </dev/null >/dev/null || fail "run $i"; done
../prog </dev/null | ../prog | ../prog >/dev/null || fail "pipeline"
for i in 1 2 3 4 5 6; do ../prog </dev/null >/dev/null & done
wait
../prog snap </dev/null >/dev/null || fail "snapshot run"
n=$(ls | grep -c '^prog\(\.[0-9-]*\)\?\.prof$')
expect_eq "profiles after 13 runs ($(ls | xargs))" 13 "$n"
expect_eq "other files" "" "$(ls | grep -v '^prog\(\.[0-9-]*\)\?\.prof$' | xargs)"
# Every file is a whole profile of a distinct process, each file named
# after its pid except the last one.
python3 - <<'PY' || fail "profiles"
import glob, os, yaml
pids = set()
for f in glob.glob("prog*.prof"):
    d = yaml.safe_load(open(f))
    assert d["end"] is True and d["complete"] is True, f
    pids.add(d["pid"])
    if f != "prog.prof":
        assert f.startswith("prog.%d" % d["pid"]), (f, d["pid"])
assert len(pids) == 13, pids
PY
# The snapshot run finished last: prog.prof is its final profile.
expect_eq "latest" True "$(yget prog.prof 'd["complete"]')"
"$REPORT" --format=json . >dir.json || fail "report of a folder"
expect_eq "processes merged from the folder" 13 "$(jget dir.json 'd["processes"]')"
expect_eq "work calls" 13 "$(jget dir.json '[r["calls"] for r in d["regions"] if r["name"]=="work"][0]')"
"$REPORT" --format=json 'prog.*.prof' >glob.json || fail "report of a pattern"
expect_eq "processes merged from the pattern" 12 "$(jget glob.json 'd["processes"]')"
cd ..

# Forty processes finishing together: each profile moved aside is named
# after the pid it holds (two processes could each replace prog.prof
# between another's read of its pid and its rename: a name and a content
# of different processes, about one burst in four before the fix).
mkdir burst && cd burst
for r in 1 2; do
	for i in $(seq 40); do ../prog </dev/null >/dev/null & done
	wait
done
python3 - <<'PY' || fail "burst: a profile named after another process"
import glob, yaml
files = glob.glob("prog*.prof")
assert len(files) == 80, (len(files), sorted(glob.glob("*")))
for f in files:
    d = yaml.safe_load(open(f))
    if f != "prog.prof":
        assert f.startswith("prog.%d." % d["pid"]) or f.startswith("prog.%d-" % d["pid"]), (f, d["pid"])
PY
cd ..

# %e: the program's name.
SELINST_OUTPUT=%e-out.prof ./other </dev/null >/dev/null
[ -f other-out.prof ] || fail "%e not expanded: $(ls)"

# --diff and --fail-above: same program or exit 2, unless --force.
"$REPORT" --diff runs/prog.prof other-out.prof --fail-above 10 >d.txt 2>d.err
expect_eq "diff of two programs: exit" 2 "$?"
grep -q "not the same program" d.err || fail "diff error: $(cat d.err)"
"$REPORT" --diff --force runs/prog.prof other-out.prof >d.txt 2>d.err || fail "--force: exit $?"
"$REPORT" --diff runs/prog.prof runs/prog.prof --fail-above 10 >/dev/null || fail "diff of one program"
# A merge of two programs says which program each top-level frame is from.
"$REPORT" --tree runs/prog.prof other-out.prof >t.txt || fail "tree of two programs"
grep -q 'note: 2 programs merged: other, prog' t.txt || fail "no programs note: $(cat t.txt)"
grep -q 'main  \[program other, prog\]' t.txt || fail "top-level frame without its programs: $(cat t.txt)"
exit 0
