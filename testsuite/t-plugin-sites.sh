#!/bin/bash
# SPDX-License-Identifier: MIT
# sites-out=FILE / sites=FILE (issue 10): a function with a loop called
# only from another unit, inside two loops there, is chosen when its unit
# sees no call site (depth 0) and left out once an earlier build recorded
# the other unit's call; same output; a bad file names its line.
. "$(dirname "$0")/lib.sh"
cp $T/programs/scale_all.c lib.c
cat > main.c <<'C'
#include <stdio.h>
int scale_all(const int *v, int n, int k);
int main(void)
{
	int v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, t = 0;
	for (int r = 0; r < 100; r++)
		for (int k = 0; k < 10; k++)
			t += scale_all(v, 8, k);
	printf("%d\n", t);
	return 0;
}
C
gcc -O2 lib.c main.c -o plain && ./plain > plain.txt || fail "plain build"
# Build 1 records the call sites, build 2 reads them.
for u in lib main; do
	si_cc -O2 -c $u.c -o 1-$u.o -fplugin-arg-selinst-sites-out=sites.txt \
		-fplugin-arg-selinst-decisions=1-$u.yaml || fail "build 1: $u.c"
done
grep -qx '2 scale_all' sites.txt || fail "sites.txt: $(cat sites.txt)"
for u in lib main; do
	si_cc -O2 -c $u.c -o 2-$u.o -fplugin-arg-selinst-sites=sites.txt \
		-fplugin-arg-selinst-decisions=2-$u.yaml || fail "build 2: $u.c"
done
for b in 1 2; do
	si_cc $b-lib.o $b-main.o -o p$b || fail "link $b"
	SELINST_OUTPUT=p$b.prof ./p$b > out.txt && cmp -s out.txt plain.txt || fail "build $b output"
done
scale() { yget $1 "[(f['instrument'], f['loop_depth'], f.get('other_units_depth')) for f in d['functions'] if f['name']=='scale_all'][0]"; }
expect_eq "build 1 scale_all" "(True, 0, None)" "$(scale 1-lib.yaml)"
expect_eq "build 2 scale_all" "(False, 2, 2)" "$(scale 2-lib.yaml)"
calls() { "$REPORT" --format=json $1 > r.json && jget r.json "sum(r['calls'] for r in d['regions'] if r['name']=='scale_all')"; }
expect_eq "build 1 calls" 1000 "$(calls p1.prof)"
expect_eq "build 2 calls" 0 "$(calls p2.prof)"
# The paper's formula takes the recorded depth too (a call site in view).
si_cc -O2 -c lib.c -o x.o -fplugin-arg-selinst-model=paper -fplugin-arg-selinst-sites=sites.txt \
	-fplugin-arg-selinst-decisions=3.yaml || fail "paper with sites"
expect_eq "paper scale_all" "(False, 2, 2)" "$(scale 3.yaml)"
# Bad input.
printf '# comment\n3 ok\nfast scale_all\n' > bad.txt
si_cc -c lib.c -o x.o -fplugin-arg-selinst-sites=bad.txt 2> err.txt && fail "bad file accepted"
grep -q "bad.txt:3: bad call-site line 'fast scale_all'" err.txt || fail "bad line: $(cat err.txt)"
si_cc -c lib.c -o x.o -fplugin-arg-selinst-sites=missing.txt 2> err.txt && fail "missing file accepted"
grep -q "cannot read call-site file 'missing.txt'" err.txt || fail "missing: $(cat err.txt)"
si_cc -c lib.c -o x.o -fplugin-arg-selinst-sites 2> err.txt && fail "no value accepted"
grep -q "needs a file name" err.txt || fail "no value: $(cat err.txt)"
exit 0
