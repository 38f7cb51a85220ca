/* __attribute__((naked)) functions (x86-64): bodies are pure asm with no
 * prologue; nothing may be inserted into them.  Called from C code that is
 * itself instrumented. */
#include <stdio.h>

#if defined(__x86_64__)
/* long add3(long a, long b, long c) */
__attribute__((naked, noinline)) static long add3(long a, long b, long c)
{
	__asm__("lea (%rdi,%rsi), %rax\n\t"
		"add %rdx, %rax\n\t"
		"ret");
}
#else
static long add3(long a, long b, long c) { return a + b + c; }
#endif

static long use(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s = add3(s, i, (long)i * i) % 1000000007L;
	return s;
}

int main(void)
{
	printf("naked %ld %ld\n", add3(1, 2, 3), use(10000));
	return 0;
}
