#!/bin/bash
# SPDX-License-Identifier: MIT
# A write inside a write: SIGTERM raised while selinst_dump() writes,
# sampled.  The fatal handler writes the final profile nested in the
# dump's write, on the same thread (runtime/signals.c, on_fatal).  The two
# writes' module lists were one set of globals in sample.c: the nested
# write appended the modules again to the dump's list, and the profile
# listed the program twice in sample_modules (its samples under either
# index).  Each write now has its own (struct si_sample_wstate, on the
# writer's stack; the same holds for a fatal handler's write beside
# another thread's, after its 2 s wait for the registry lock).
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
si_cc -O2 -rdynamic -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loops=off \
	$T/programs/write_nested.c -o nested -ldl || fail "compile write_nested.c"
export SELINST_THROTTLE=off SELINST_SAMPLE=1000 SELINST_OUTPUT=n.prof
# Without the signal: the dump and the exit write, each whole.
rm -f ./*.prof*
./nested > out.txt 2> err.txt; rc=$?
expect_eq "no signal: exit status" 0 "$rc"
[ -s err.txt ] && fail "no signal: stderr: $(cat err.txt)"
for f in dump.prof n.prof; do
	pcheck $f "
consistent()
assert p['complete'] is ('$f' == 'n.prof')
mods = [m['path'] for m in p['sample_modules']]
assert len(mods) == len(set(mods)), mods
assert calls('work') == 20, calls('work')
"
done
# SIGTERM inside the dump's write: the process dies of it; the final
# profile is the handler's, whole, each module once.
rm -f ./*.prof*
./nested x > out.txt 2> err.txt; rc=$?
expect_eq "SIGTERM in the dump: exit status" 143 "$rc"
[ -s err.txt ] && fail "SIGTERM in the dump: stderr: $(cat err.txt)"
[ -e n.prof ] || fail "SIGTERM in the dump: no final profile"
pcheck n.prof "
consistent()
assert p['complete'] is True
assert p['signal'] == 15, p['signal']
mods = [m['path'] for m in p['sample_modules']]
assert len(mods) == len(set(mods)), 'a module listed twice: %s' % mods
assert calls('work') == 20, calls('work')
"
# The report names spin's samples from the module (it is no region).
"$SELINST_BUILD/selinst-report" --flat n.prof > rep.txt 2> rep.err || fail "report: $(cat rep.err)"
grep -q '~spin' rep.txt || fail "report: no sampled ~spin: $(cat rep.txt)"
exit 0
