/* Loop shapes whose counts once differed between -O0 and -O2: sibling
 * loops joined by one edge (the first must close before the second
 * opens), a condition in two tests, a loop with two back edges, a
 * do-while named by its do. */
#include <stdio.h>

__attribute__((noinline)) unsigned siblings(unsigned len)
{
	unsigned s = 0;
	while (len >= 4) {		/* line 10 */
		len -= 4;
		s += 3;
	}
	while (len--)			/* line 14 */
		s++;
	return s;
}

__attribute__((noinline)) int two_tests(const int *v, int n)
{
	int i = 0;
	while (i < n && v[i] != 0)	/* line 22 */
		i++;
	return i;
}

__attribute__((noinline)) int two_latches(int n)
{
	int i = 0, s = 0;
	while (i < n) {			/* line 30 */
		i++;
		if (i & 1) {
			s += i;
			continue;
		}
		s -= 1;
	}
	return s;
}

__attribute__((noinline)) int do_while(int n)
{
	int k = 0;
	do {				/* line 44: a do-while is named by its do */
		k += 2;
	} while (k < n);
	return k;
}

int main(void)
{
	static const int v[8] = { 5, 4, 3, 0, 1, 2, 3, 4 };
	unsigned s = 0;
	for (unsigned len = 0; len < 10; len++)	/* line 54 */
		s += siblings(len);
	printf("%u %d %d %d %d\n", s, two_tests(v, 8), two_tests(v, 2),
	       two_latches(9), do_while(7));
	return 0;
}
