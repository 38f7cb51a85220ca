/* K&R-style definitions and old-style declarations (gnu89 dialect):
 * implicit int promotions of char/float parameters. */
/* corpus-flags: -std=gnu89 -Wno-old-style-definition */
#include <stdio.h>

int add3();
double avg();

int add3(a, b, c)
	int a, b;
	char c;
{
	return a + b + c;
}

double avg(x, y)
	float x, y;
{
	return (x + y) / 2;
}

static unsigned
count_bits(v)
	unsigned v;
{
	unsigned n = 0;
	while (v) {
		n += v & 1;
		v >>= 1;
	}
	return n;
}

int main()
{
	int i, s = 0;
	for (i = 0; i < 100; i++)
		s += add3(i, 2 * i, (char)(i % 50)) + count_bits(i);
	printf("s %d avg %.3f\n", s, avg(1.5f, 2.25f));
	return 0;
}
