/* __attribute__((constructor/destructor)) with priorities; the
 * destructors print after main returned and exit status is 0. */
#include <stdio.h>

static int order[8], n;
static int helper(int x) { return x * 2; }

__attribute__((constructor(200))) static void c200(void) { order[n++] = helper(200); }
__attribute__((constructor(101))) static void c101(void) { order[n++] = helper(101); }
__attribute__((constructor)) static void cdef(void) { order[n++] = helper(999); }
__attribute__((destructor(101))) static void d101(void) { printf("dtor 101 (last)\n"); }
__attribute__((destructor(300))) static void d300(void) { printf("dtor 300 (first)\n"); }
__attribute__((destructor)) static void ddef(void) { printf("dtor default n=%d\n", n); }

int main(void)
{
	printf("ctors:");
	for (int i = 0; i < n; i++)
		printf(" %d", order[i]);
	printf("\n");
	fflush(stdout);
	return 0;
}
