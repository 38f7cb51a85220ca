/* Call patterns for the hooks' cost (issue 10): built with the plugin at
 * threshold 0, run under callgrind.  `hook_patterns PATTERN CALLS` makes
 * CALLS instrumented calls (enter/exit pairs) in one of these patterns:
 *   same   one callee, over and over
 *   rr3    three callees in turn
 *   rr8    eight callees in turn
 *   rec    direct recursion, 1000 deep
 *   mut    mutual recursion (two functions), 1000 deep
 *   recx   recursion 1000 deep whose every level also calls three leaves
 *          (the shape of a recursive matcher: four calls per level)
 */
#include <stdlib.h>
#include <string.h>

volatile int sink;
#define G(k) __attribute__((noinline)) void g##k(void) { sink++; }
G(1) G(2) G(3) G(4) G(5) G(6) G(7) G(8)

__attribute__((noinline)) void rec(int n)
{
	sink++;
	if (n > 0)
		rec(n - 1);
}

void mb(int n);
__attribute__((noinline)) void ma(int n)
{
	sink++;
	if (n > 0)
		mb(n - 1);
}
__attribute__((noinline)) void mb(int n)
{
	sink++;
	if (n > 0)
		ma(n - 1);
}

__attribute__((noinline)) void recx(int n)
{
	g1();
	if (n > 0)
		recx(n - 1);
	g2();
	g3();
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	const char *p = argv[1];
	long n = atol(argv[2]);
	if (!strcmp(p, "same"))
		for (long i = 0; i < n; i += 8) {
			g1(); g1(); g1(); g1(); g1(); g1(); g1(); g1();
		}
	else if (!strcmp(p, "rr3"))
		for (long i = 0; i < n; i += 6) {
			g1(); g2(); g3(); g1(); g2(); g3();
		}
	else if (!strcmp(p, "rr8"))
		for (long i = 0; i < n; i += 8) {
			g1(); g2(); g3(); g4(); g5(); g6(); g7(); g8();
		}
	else if (!strcmp(p, "rec"))
		for (long i = 0; i < n; i += 1000)
			rec(999);
	else if (!strcmp(p, "mut"))
		for (long i = 0; i < n; i += 1000)
			ma(999);
	else if (!strcmp(p, "recx"))
		for (long i = 0; i < n; i += 4000)
			recx(999);
	else
		return 2;
	return 0;
}
