/* basic.c - tree shape: two callers of one function, recursion folding,
 * loops, manual regions, dump snapshot. */
#include <stdio.h>
#include "rt.h"

FUNC(r_main, "main", 10);
FUNC(r_a, "a", 20);
FUNC(r_b, "b", 30);
FUNC(r_leaf, "leaf", 40);
FUNC(r_rec, "rec", 50);
FUNC(r_odd, "odd", 60);
FUNC(r_even, "even", 70);
/* A COMDAT-style duplicate of leaf: another address, same identity. */
FUNC(r_leaf2, "leaf", 40);

static void leaf(int copy) { __selinst_enter(copy ? &r_leaf2 : &r_leaf); rt_busy(10000); __selinst_exit(copy ? &r_leaf2 : &r_leaf); }
static void a(void) { __selinst_enter(&r_a); leaf(0); leaf(1); __selinst_exit(&r_a); }
static void b(void) { __selinst_enter(&r_b); leaf(0); __selinst_exit(&r_b); }
static void rec(int n) { __selinst_enter(&r_rec); if (n) rec(n - 1); else leaf(0); __selinst_exit(&r_rec); }
static void even(int n);
static void odd(int n) { __selinst_enter(&r_odd); if (n) even(n - 1); __selinst_exit(&r_odd); }
static void even(int n) { __selinst_enter(&r_even); if (n) odd(n - 1); else leaf(0); __selinst_exit(&r_even); }

int main(void)
{
	__selinst_enter(&r_main);
	for (int i = 0; i < 3; i++) a();
	b();
	rec(100);
	even(50);
	selinst_region_begin("phase1");
	rt_busy(1000000);
	selinst_region_end("phase1");
	if (selinst_dump("snap.prof") != 0) return 3;
	__selinst_exit(&r_main);
	return 0;
}
