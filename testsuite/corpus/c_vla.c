/* Variable-length arrays: in loops (allocated and released each
 * iteration), as parameters, 2-D VLAs, VLAs in recursion, and leaving a
 * VLA scope by goto, break and return. */
#include <stdio.h>

static long sum2d(int n, int m, int a[n][m])
{
	long s = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < m; j++)
			s += a[i][j] * (i + 1);
	return s;
}

static long vla_loop(int rounds)
{
	long total = 0;
	for (int r = 1; r <= rounds; r++) {
		int n = r % 13 + 1, m = r % 7 + 2;
		int a[n][m];
		for (int i = 0; i < n; i++)
			for (int j = 0; j < m; j++)
				a[i][j] = i ^ j ^ r;
		total += sum2d(n, m, a);
		if (total > 1000000000L)
			break;
	}
	return total;
}

static int vla_rec(int depth)
{
	if (depth == 0)
		return 1;
	int buf[depth * 3 + 1];
	for (int i = 0; i < depth * 3 + 1; i++)
		buf[i] = depth + i;
	int r = vla_rec(depth - 1);
	return (r * 31 + buf[depth]) % 65521;
}

static int vla_goto(int n)
{
	int tries = 0;
again:
	{
		char s[n + tries + 1];
		for (int i = 0; i < n + tries; i++)
			s[i] = 'a' + (i % 26);
		s[n + tries] = 0;
		tries++;
		if (tries < 5)
			goto again;
		return s[n + tries - 2] + tries;
	}
}

int main(void)
{
	printf("loop %ld\n", vla_loop(2000));
	printf("rec %d\n", vla_rec(200));
	printf("goto %d\n", vla_goto(30));
	return 0;
}
