#!/bin/bash
# SPDX-License-Identifier: MIT
# The profile's write calls no malloc (runtime/walloc.c): not at exit, not
# in the fatal handler (SIGTERM while two threads allocate), not in
# selinst_dump, with sampling on or off, iteration series packed or not.  A program that replaces malloc says on stderr when the
# writing thread calls any of the family after it armed itself.  The old
# runtime's SIGTERM and dump writes called calloc and malloc dozens of
# times; a fatal signal that interrupted malloc in a program with threads
# then lost the profile (t-rt-fatal-malloc).
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
export SELINST_THROTTLE=off
si_cc -O2 -pthread -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0 \
	$T/programs/write_no_malloc.c -o wnm \
	|| fail "compile write_no_malloc.c"
for smp in off 1000; do
	export SELINST_SAMPLE=$smp
	for mode in exit term dump; do
		rm -f *.prof
		timeout -k 1 30 ./wnm $mode > out.txt 2> err.txt; rc=$?
		want=0; [ $mode = term ] && want=143
		expect_eq "$mode${smp#off}: exit status" $want $rc
		[ -s err.txt ] && fail "$mode${smp#off}: $(sort err.txt | uniq -c | head -5)"
		f=wnm.prof; [ $mode = dump ] && f=dump.prof
		[ -e $f ] || fail "$mode${smp#off}: no $f"
		sig=0; [ $mode = term ] && sig=15
		pcheck $f "
consistent()
assert p['complete'] is ('$mode' != 'dump')
assert p.get('signal', 0) == $sig, p.get('signal')
assert calls('work') == 1000, calls('work')
assert len(p['threads']) == 3, len(p['threads'])
assert ('$smp' != 'off') == ('sampling' in p)
"
	done
done
# The sampled write made rows, named modules and sorted (sample.c): the
# churning threads' samples are there.
pcheck wnm.prof "assert any(n.get('samples') for t in p['threads'] for n in t['nodes'])"
unset SELINST_SAMPLE
# Iteration series: main's loop (1,000 iterations) is packed with zlib,
# whose state comes from the write's memory too.
line=$(grep -n 'x < 1000; x++' $T/programs/write_no_malloc.c | cut -d: -f1)
for mode in exit term; do
	rm -f *.prof
	SELINST_ITERATE=write_no_malloc.c:$line timeout -k 1 30 ./wnm $mode > out.txt 2> err.txt
	[ -s err.txt ] && fail "$mode, iteration series: $(sort err.txt | uniq -c | head -5)"
	grep -q '^ *rows_packed:' wnm.prof || fail "$mode, iteration series: no rows_packed"
done
# The replacement is in effect: an allocation of the program's own, armed,
# is seen.
timeout -k 1 30 ./wnm self > out.txt 2> err.txt
grep -q "malloc family called during the write: malloc" err.txt \
	|| fail "the replaced malloc did not see the program's own call: $(cat err.txt)"

# The write is not sampled (sample.c, si_sample_quiet): now that the
# exiting thread writes, its timer ran on through the write and put
# samples in ~open_output at the top of the tree (t-rt-sample-loops on a
# fresh machine, once).  A tree of about 10,000 nodes takes milliseconds
# to write; at 20 kHz no sample outside every region may land in
# libselinst.so.
bash $T/programs/gen_funcs.sh 100 > funcs.c
cat > big.c <<'C'
typedef void fn(unsigned long, int);
extern fn *tab[];
int main(void)
{
	for (unsigned long x = 0; x < 20000; x++)
		tab[x % 100](x * 2654435761u, 2);
	return 0;
}
C
si_cc -O1 -fplugin-arg-selinst-threshold=0 big.c funcs.c -o big || fail "compile big.c"
rm -f *.prof
SELINST_SAMPLE=20000 timeout -k 1 60 ./big 2> err.txt || fail "big: $(cat err.txt)"
pcheck big.prof "
consistent()
assert sum(len(t['nodes']) for t in p['threads']) > 5000, sum(len(t['nodes']) for t in p['threads'])
mods = [m['path'] for m in p.get('sample_modules', [])]
rt = [i for i, m in enumerate(mods) if m.endswith('/libselinst.so')]
# After main's region closed, outside every region: the write's samples
# would be the root's (inside regions, the hooks' slow paths are named).
bad = [s for t in p['threads'] for s in t.get('root_samples', []) if s.get('module') in rt]
assert not bad, bad
"
exit 0
