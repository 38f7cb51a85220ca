// SPDX-License-Identifier: MIT
// inline_eh.cc - an instrumented body that GCC inlines, left by an
// exception: the inlined copy's own cleanup closes its region before the
// caller's handler runs (t-plugin-inline.sh).
#include <cstdio>
#include <cstdlib>

struct Err { int v; };
static volatile int sink;
struct Guard {
	~Guard() { sink++; }
};
__attribute__((noinline)) void maybe_throw(int i)
{
	if (i % 4 == 0)
		throw Err{i};
}
// Small: inlined into run, with its region's hooks and its EH exit.
static int guarded(int i)
{
	Guard g;
	maybe_throw(i);
	return i * 2;
}
__attribute__((noinline)) void after(int i) { sink += i; }
__attribute__((noinline)) int run(int i)
{
	try {
		return guarded(i) + 1;
	} catch (const Err &e) {
		after(e.v);
		return -1;
	}
}
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 40;
	long t = 0;
	for (int i = 0; i < n; i++)
		t += run(i);
	printf("%ld %d\n", t, sink);
	return 0;
}
