#!/bin/bash
# SPDX-License-Identifier: MIT
# A forked child's profile (fork_lazy.c): the regions open in the forking
# thread at the fork, with zero calls and times from the fork, plus what
# the child ran.  The child's fork handler no longer makes that profile:
# the child's first hook does, or, in a child that ran none, its write.
# Each way out is checked: no hook at all (the write makes the profile:
# without that, the child's profile has no thread), hooks, exit() after
# the plugin's exit hooks, exec (with and without a call counted first),
# a fork from a signal handler (quiet and with hooks), a child that
# forks again after a noted exit, exits past the note's 32 and a loop's
# exit.  Each check passes on the runtime that made the profile in the
# fork handler; each fails when a step of the lazy one is left out (the
# write's making, the exits done, the note full, the grandchild's depth).
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
si_cc -O2 -fplugin-arg-selinst-threshold=0 $T/programs/fork_lazy.c -o fl || fail "compile"
export SELINST_OUTPUT=fl.%p.prof
# run MODE: the child's pid; checks the parent's profile.
run() {
	rm -f fl.*.prof
	child=$(./fl "$1") || fail "$1: exit status"
	[ -n "$child" ] || fail "$1: no child pid"
	parent=$(ls fl.*.prof | grep -v "fl.$child.prof")
	pcheck $parent "consistent(); assert calls('leaf') == 2, calls('leaf')"
}
# The child's profile: one thread (index 0, tid = pid), whose nodes are the
# chain OPEN (zero calls) and LEAF calls of leaf below its end.
child_is() { # MODE OPEN LEAF [PYTHON]
	pcheck fl.$child.prof "
consistent()
assert p['pid'] == $child, p['pid']
assert len(p['threads']) == 1, p['threads']
t = p['threads'][0]
assert t['index'] == 0 and t['tid'] == $child, (t['index'], t['tid'])
want = tuple('$2'.split())
chain = [n for n in t['nodes'] if regions[n['region']]['name'] != 'leaf']
assert [path(t, n) for n in chain] == [want[:k] for k in range(1, len(want) + 1)], \
    [path(t, n) for n in chain]
assert all(n['calls'] == 0 for n in chain), chain
assert calls('leaf') == $3, calls('leaf')
for _, n in nodes('leaf'):
    assert path(t, n) == want + ('leaf',), path(t, n)
# The child's start is the fork's (its clocks are read only if it writes):
# within the parent's run, and its wall time within the parent's.
import datetime
q = yaml.safe_load(open('$parent'))
start = lambda d: datetime.datetime.strptime(d['start_time'], '%Y-%m-%dT%H:%M:%SZ').timestamp()
assert 0 <= start(p) - start(q) <= q['wall_seconds'] + 1, (q['start_time'], p['start_time'])
assert 0 < p['wall_seconds'] <= q['wall_seconds'], (p['wall_seconds'], q['wall_seconds'])
${4:-}" || fail "$1: the child's profile"
}
run quiet
child_is quiet "main outer middle fork_here" 0
run hooks
child_is hooks "main outer middle fork_here" 3
# exit(): fork_here closed at its exit hook, before exit's write closed the
# rest: middle has time of its own after it.
run exit
child_is exit "main outer middle fork_here" 0 "
(_, f), = nodes('fork_here')
(_, m), = nodes('middle')
assert f['exclusive_ns'] == f['inclusive_ns'] and m['exclusive_ns'] > 0, (f, m)"
run exec
child_is exec "main outer middle fork_here" 1
run exec-quiet
[ -e fl.$child.prof ] && fail "exec-quiet: a child that counted nothing wrote a profile"
# A child whose exit of fork_here is noted forks again before it made its
# profile: the grandchild's open frames are the child's then (fork_here
# closed), the child's are as in exit.
rm -f fl.*.prof
./fl again > pids.txt || fail "again: exit status"
grand=$(sed -n 1p pids.txt) child=$(sed -n 2p pids.txt)
[ -n "$grand" ] && [ -n "$child" ] || fail "again: pids: $(cat pids.txt)"
parent=$(ls fl.*.prof | grep -v -e "fl.$child.prof" -e "fl.$grand.prof")
child_is again "main outer middle fork_here" 0 "
(_, f), = nodes('fork_here')
(_, m), = nodes('middle')
assert f['exclusive_ns'] == f['inclusive_ns'] and m['exclusive_ns'] > 0, (f, m)"
child=$grand
child_is again-grandchild "main outer middle" 0
# Exits back to main, then leaf: 11 exits (all noted, then done when
# leaf's enter makes the profile) and 43 (32 noted, the 33rd makes it):
# leaf's caller is main either way; every frame the parent had open is
# there, with 0 calls.
for n in 8 40; do
	run deep$n
	pcheck fl.$child.prof "
consistent()
assert len(p['threads']) == 1
t = p['threads'][0]
assert [path(t, n) for n in t['nodes']] == [('main',), ('main', 'outer'),
    ('main', 'outer', 'middle'), ('main', 'outer', 'middle', 'rec'),
    ('main', 'outer', 'middle', 'rec', 'fork_here'), ('main', 'leaf')], \
    [path(t, n) for n in t['nodes']]
assert [n['calls'] for n in t['nodes']] == [0, 0, 0, 0, 0, 1], t['nodes']
" || fail "deep$n: the child's profile"
done
# A loop left in the child (its exit noted with the iterations it
# passed): 0 calls, its 3 iterations in one trip, the rest as above.
run loop
pcheck fl.$child.prof "
consistent()
t = p['threads'][0]
assert [path(t, n)[-1] for n in t['nodes']] == ['main', 'outer', 'middle', 'loop_fork',
    'fork_lazy.c:' + str(regions[t['nodes'][4]['region']]['line']), 'leaf'], t['nodes']
assert path(t, t['nodes'][5]) == ('main', 'leaf'), t['nodes']
lp = t['nodes'][4]
assert regions[lp['region']]['kind'] == 'loop' and lp['calls'] == 0, lp
assert lp['iterations'] == 3 and lp['trip_counts'] == {'3': 1}, lp
" || fail "loop: the child's profile"
run sig-quiet
child_is sig-quiet "main outer middle on_usr1 fork_here" 0
run sig-hooks
child_is sig-hooks "main outer middle on_usr1 fork_here" 3
exit 0
