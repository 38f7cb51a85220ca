#!/bin/bash
# SPDX-License-Identifier: MIT
# One region holding more than half of the exclusive time with no sampled
# detail under it (a run with SELINST_SAMPLE=off) gets a note in every
# text view that says so and what splits it; sampled (the default) the
# samples split it and the note goes; a
# profile whose largest region holds half or less has none.
. "$(dirname "$0")/lib.sh"
cat > dom.c <<'C'
#include <stdio.h>
__attribute__((noinline)) static double leaf(double x)
{
	for (int i = 0; i < 50; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}
__attribute__((noinline)) double engine(long n)
{
	double x = 1;
	for (long i = 0; i < n; i++)
		x = leaf(x);
	return x;
}
int main(void) { printf("%g\n", engine(2000000)); return 0; }
C
si_cc -O2 dom.c -o dom -fplugin-arg-selinst-decisions=dom.yaml || fail "compile"
grep -A30 'name: "leaf"' dom.yaml | grep -q 'instrument: false' || fail "leaf is a region: no test"
SELINST_SAMPLE=off SELINST_OUTPUT=dom.prof ./dom > /dev/null || fail "run"
for view in "" --tree --threads --loops; do
	"$REPORT" $view dom.prof > out.txt || fail "report $view"
	grep -Eq '^note: .* holds (9[0-9]|100)% of the exclusive time,$' out.txt \
		|| fail "report $view: no note on the dominant region: $(cat out.txt)"
done
grep -q 'switched off); sampling (on unless SELINST_SAMPLE=off) splits it by$' out.txt || fail "the note does not say what splits it"
SELINST_OUTPUT=smp.prof ./dom > /dev/null || fail "sampled run (the default)"
with_samples() { grep -c '~leaf' "$1"; }
"$REPORT" smp.prof > smp.txt || fail "report of the sampled run"
[ "$(with_samples smp.txt)" -ge 1 ] || skip "no sample named leaf (timer starved?)"
grep -q 'holds .* of the exclusive time' smp.txt && fail "note despite sampled detail: $(cat smp.txt)"
{
	printf 'format: selinst-profile\nversion: 1\nregions:\n'
	printf '  - {id: 0, name: f, kind: function, file: a.c, line: 1}\n'
	printf '  - {id: 1, name: g, kind: function, file: a.c, line: 2}\n'
	printf 'threads:\n  - index: 0\n    tid: 7\n    nodes:\n'
	printf '      - {id: 1, parent: 0, region: 0, calls: 1, inclusive_ns: 1000, exclusive_ns: 500}\n'
	printf '      - {id: 2, parent: 1, region: 1, calls: 4, inclusive_ns: 500, exclusive_ns: 500}\n'
	printf 'end: true\n'
} > half.prof
"$REPORT" half.prof > half.txt || fail "report half.prof"
grep -q 'holds' half.txt && fail "note at exactly half: $(cat half.txt)"
sed -i 's/inclusive_ns: 1000, exclusive_ns: 500/inclusive_ns: 1000, exclusive_ns: 400/; s/inclusive_ns: 500, exclusive_ns: 500/inclusive_ns: 600, exclusive_ns: 600/' half.prof
"$REPORT" half.prof | grep -q '^note: g holds 60% of the exclusive time' || fail "no note for g at 600 of 1000"
# An OpenMP wait's or MPI call's time is waiting: no note for them.
sed -i 's/name: g, kind: function/name: "omp barrier", kind: omp/' half.prof
"$REPORT" half.prof > omp.txt || fail "report of the omp profile"
grep -q 'holds' omp.txt && fail "note for an OpenMP wait: $(cat omp.txt)"
grep -q 'omp barrier' omp.txt || fail "the omp region is not in the report: no test"
exit 0
