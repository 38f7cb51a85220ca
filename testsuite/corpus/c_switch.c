/* switch: dense (jump table), sparse, fall-through, default in the middle,
 * switch inside loops with continue/break. */
#include <stdio.h>

static int dense(int x)
{
	switch (x) {
	case 0: return 11;
	case 1: return 23;
	case 2: return 5;
	case 3: return 77;
	case 4: return 1;
	case 5: return 9;
	case 6: return 40;
	case 7: return 2;
	default: return -1;
	}
}

static int sparse(long x)
{
	switch (x) {
	case -1000000: return 1;
	case 17: return 2;
	case 4096: return 3;
	case 1L << 40: return 4;
	default: return 0;
	}
}

static int fallthrough(int x)
{
	int r = 0;
	switch (x & 7) {
	case 0: r += 1; /* fall through */
	case 1: r += 2; /* fall through */
	default: r += 4; /* fall through */
	case 2: r += 8; break;
	case 3: r += 16;
	case 4: r += 32; break;
	}
	return r;
}

static int loop_switch(const char *s)
{
	int n = 0;
	for (; *s; s++) {
		switch (*s) {
		case ' ': continue;
		case '#': return n * 1000;
		case 'a': case 'e': case 'i': case 'o': case 'u': n += 10; break;
		case '0' ... '9': n += *s - '0'; break;
		default: n++;
		}
	}
	return n;
}

int main(void)
{
	long sum = 0;
	for (int i = -2; i < 12; i++)
		sum = sum * 3 + dense(i);
	printf("dense: %ld\n", sum);
	printf("sparse: %d %d %d %d %d\n", sparse(-1000000), sparse(17), sparse(4096), sparse(1L << 40), sparse(5));
	int f = 0;
	for (int i = 0; i < 16; i++)
		f = f * 7 + fallthrough(i);
	printf("fallthrough: %d\n", f);
	printf("loop: %d %d\n", loop_switch("hello world 42"), loop_switch("abc # def"));
	return 0;
}
