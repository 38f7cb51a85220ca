/* loop_tests_in_body.c - loops whose body starts with an exit test, on the
 * loop's own line or not, against loops whose condition has several
 * parts.  A body start is counted when the body's first statement runs,
 * even when that statement is the test that leaves.  Line numbers are
 * checked by t-plugin-loops.sh: keep them. */
#include <stdio.h>
#include <stdlib.h>

int five = 5;	/* not a constant the compiler can see through at -O0 */

int for_break_same_line(void) { int k; for (k = 0; k < 10; k++) { if (k == 5) break; } return k; }
int while_break_same_line(void) { int k = 0; while (k < 10) { if (k == 5) break; k++; } return k; }
int while_and_same_line(const int *p, int n) { int k = 0; while (k < n && p[k] != 0) k++; return k; }
int do_break_first(void) { int k = 0; do { if (k == 0) break; k++; } while (k < 10); return k; }
int do_return_first(int stop)
{
	int k = 0;
	do {
		if (k == stop)
			return k;
		k++;
	} while (k < 10);
	return -1;
}
int forever_break_first(void) { int k = 0; while (1) { if (k == five) break; k++; } return k; }
int while_and_two_lines(const int *p, int n)
{
	int k = 0;
	while (k < n &&
	       p[k] != 0)
		k++;
	return k;
}

int main(int argc, char **argv)
{
	int p[8] = {1, 1, 1, 0, 1, 1, 1, 1};
	int n = argc > 1 ? atoi(argv[1]) : 8;
	long t = 0;
	for (int e = 0; e < 10; e++) {
		t += for_break_same_line();
		t += while_break_same_line();
		t += while_and_same_line(p, n);
		t += do_break_first();
		t += do_return_first(five);
		t += forever_break_first();
		t += while_and_two_lines(p, n);
	}
	printf("%ld\n", t);
	return 0;
}
