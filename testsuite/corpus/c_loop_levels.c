/* c_loop_levels.c - loop shapes whose names, counts or metrics once
 * depended on the -O level (issue 11): while (1), for (;;), constant tests,
 * tests with several parts, goto loops, a while (1) opening with a loop,
 * and an unreferenced static function (emitted at -O0 only). */
// corpus-levels-metrics: differ (GCC folds "a || b" of simple operands into one test when optimizing: a block fewer, two statements more)
static int never_called(int x) { return x * 3; }
#include <stdio.h>
#include <stdlib.h>

volatile int sink;
int seven = 7;	/* not a constant the compiler sees through at -O0 */

int forever_break(void)
{
	int k = 0;
	while (1) {			/* line 14: 7 body starts */
		if (++k == seven)
			break;
		sink += k;
	}
	for (;;) {			/* line 19: 7 */
		if (--k == 0)
			break;
	}
	while (3 > 2) {			/* line 23: a constant test, 7 */
		if (++k == seven)
			break;
	}
	return k;
}
int multi_line_for(int n)
{
	int s = 0;
	for (int i = 0;			/* line 32: n */
	     i < n;
	     i++)
		s += i;
	do {				/* line 36: a do is named by its do, 3 */
		s -= 10;
	} while (s > 0);
	return s;
}
int or_test(void)
{
	int i = 1, j = 0;
	while (i != 1024 || j <= 0) {	/* line 44: 10 (-O0 once said 11) */
		i *= 2;
		++j;
	}
	return j;
}
int and_or_test(const char *p)
{
	const char *s = p;
	while (*p && (*p == 13 || *p == 32))	/* line 53: 2 on "  x" */
		p++;
	return (int)(p - s);
}
int vla_goto(int n)
{
	int k = 0;
again:					/* a loop of gotos: named by its test, line 65: 5 */
	;
	int vla[n + k];
	vla[0] = k;
	sink += vla[0];
	if (++k < 5)
		goto again;
	return k;
}
int jump_into(int k)
{
	int n = 0;
	goto test;
body:
	n++;
	k--;
test:
	if (k)				/* line 77: 3 for f(3), 0 for f(0) */
		goto body;
	return n;
}
/* Above -O0 CFG cleanup used to merge the while (1) with the loop that
 * opens its body: one region, the while (1) not reported. */
int words(const char *in)
{
	int n = 0;
	while (1) {			/* line 86: 4 */
		while (*in == ' ')	/* line 87: 4 entries, 4 */
			in++;
		if (!*in)
			break;
		n++;
		while (*in != ' ' && *in)	/* line 92: 3 entries, 5 */
			in++;
	}
	return n;
}
int main(int argc, char **argv)
{
	(void)argv;
	printf("%d %d %d %d %d %d %d %d\n", forever_break(), multi_line_for(6 + argc),
	       or_test(), and_or_test("  x"), vla_goto(argc), jump_into(3), jump_into(0),
	       words("ab  cd e "));
	return 0;
}
