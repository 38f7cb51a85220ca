#!/bin/bash
# SPDX-License-Identifier: MIT
# Exception exits with -g: a call that may throw, followed in its block
# only by debug binds, gets the exit hook's EH edge.  The plugin looked at
# the last statement but debug binds, did not split the block, and GCC's
# verifier failed ("statement marked for throw in middle of block"; without
# -fchecking an ICE in ehcleanup): expat 2.5.0's XML_ParserFree, C with
# -fexceptions, in bench/more-projects.sh; C++ alike.  With and without
# off-copy (the function's copy took the same path), and the exception
# still closes the region: the calls balance in the profile.
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
need g++

# A loop over a list calling through a pointer; the call's block holds
# only debug binds after it at -O2 -g.
cat > drain.h <<'C'
struct node { struct node *next; char *buf; };
struct ctx { void (*free_fcn)(void *); struct node *list, *spare; };
__attribute__((noinline, selinst_instrument)) void drain(struct ctx *c)
{
	struct node *l = c->list;
	for (;;) {
		struct node *p;
		if (!l) {
			if (!c->spare)
				break;
			l = c->spare;
			c->spare = 0;
		}
		p = l;
		l = l->next;
		c->free_fcn(p->buf);
		c->free_fcn(p);
	}
}
C
cat > eh.c <<'C'
#include <stdlib.h>
#include "drain.h"
static void nofree(void *p) { (void)p; }
int main(void)
{
	struct node n[3] = { { &n[1], 0 }, { 0, 0 }, { 0, 0 } };
	for (int i = 0; i < 100; i++) {
		struct ctx c = { nofree, &n[0], &n[2] };
		drain(&c);
	}
	return 0;
}
C
cat > eh.cc <<'C'
#include <cstdio>
#include "drain.h"
static int freed;
static void thrower(void *p) { if (!p) throw 1; freed++; }
int main()
{
	char b;
	node n[3] = { { &n[1], &b }, { 0, &b }, { 0, 0 } };
	int caught = 0;
	for (int i = 0; i < 100; i++) {
		ctx c = { thrower, &n[0], &n[2] };
		try { drain(&c); } catch (int) { caught++; }
	}
	std::printf("%d %d\n", caught, freed);
	return 0;
}
C
for oc in on off; do
	A="-O2 -g -fplugin-arg-selinst-off-copy=$oc"
	si_cc $A -fexceptions eh.c -o ehc || fail "C -fexceptions -g, off-copy=$oc: compile"
	SELINST_OUTPUT=ehc.prof SELINST_THROTTLE=off ./ehc || fail "C run, off-copy=$oc"
	pcheck ehc.prof 'assert calls("drain") == 100, calls("drain")'
	si_cxx $A eh.cc -o ehx || fail "C++ -g, off-copy=$oc: compile"
	out=$(SELINST_OUTPUT=ehx.prof SELINST_THROTTLE=off ./ehx) || fail "C++ run, off-copy=$oc"
	# Each call frees n[0] (2 calls), n[1] (2), then throws on n[2]'s buf.
	expect_eq "C++ caught and freed, off-copy=$oc" "100 400" "$out"
	pcheck ehx.prof 'd = "void drain(ctx*)"
assert calls(d) == 100, calls(d)
# one node: each exception closed the region (else drain nests in drain)
(t, n), = nodes(d)
assert path(t, n)[0] == "int main()" and path(t, n)[-1] == d, path(t, n)'
	# off-copy=on must test the copy's path, not the body's again.
	[ $oc = off ] || [ "$(nm ehx | grep -c ' t .*drain.*\.selinst')" -ge 1 ] ||
		fail "drain has no copy with off-copy=on"
done
exit 0
