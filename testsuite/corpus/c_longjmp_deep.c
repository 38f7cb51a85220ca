/* longjmp across several frames (functions that would each have exit
 * hooks), nested setjmp contexts where an inner handler re-throws to an
 * outer one, longjmp out of loops and out of a recursive descent. */
#include <stdio.h>
#include <setjmp.h>

static jmp_buf *handler;
static int depth_seen;

static void throw_(int code) { longjmp(*handler, code); }

static int level3(int x)
{
	for (int i = 0; i < 100; i++)
		if (i == x)
			throw_(x + 300);
	return x;
}
static int level2(int x) { int r = level3(x) + 1; return r * 2; }
static int level1(int x) { int r = level2(x); return r + 7; }

static int try_level1(int x)
{
	jmp_buf here, *saved = handler;
	int code;
	handler = &here;
	if ((code = setjmp(here)) == 0) {
		int r = level1(x);
		handler = saved;
		return r;
	}
	handler = saved;
	return -code;
}

static int rec(int d, int stop)
{
	depth_seen = d;
	if (d == stop)
		throw_(1000 + d);
	return rec(d + 1, stop) + 1;
}

static int inner(int x)
{
	jmp_buf here, *saved = handler;
	volatile int code;
	handler = &here;
	if ((code = setjmp(here)) == 0) {
		rec(0, x);
		handler = saved;
		return 0;
	}
	handler = saved;
	if (code % 2)	/* odd: re-throw to the outer handler */
		throw_(code * 2);
	return code;
}

static int outer(int x)
{
	jmp_buf here, *saved = handler;
	int code;
	handler = &here;
	if ((code = setjmp(here)) == 0) {
		int r = inner(x);
		handler = saved;
		return r;
	}
	handler = saved;
	return -code;
}

int main(void)
{
	printf("try: %d %d %d\n", try_level1(5), try_level1(150), try_level1(99));
	for (int i = 0; i < 6; i++) {
		int r = outer(i * 7);
		printf("outer(%d) = %d depth %d\n", i * 7, r, depth_seen);
	}
	long total = 0;
	for (int round = 0; round < 100000; round++)
		total += try_level1(round % 128);
	printf("total %ld\n", total);
	return 0;
}
