/* early.c - hooks run by a constructor that runs before the runtime's own
 * (static link: the program's constructors come first) and by an IFUNC
 * resolver (runs while the dynamic linker relocates: dropped, no crash). */
#include <stdio.h>
#include "rt.h"

FUNC(r_early, "early", 1);
FUNC(r_main, "main", 2);
FUNC(r_resolver, "resolver", 3);

static int impl(int x) { return 2 * x; }
static int (*resolve_twice(void))(int)
{
	__selinst_enter(&r_resolver);
	__selinst_exit(&r_resolver);
	return impl;
}
int twice(int x) __attribute__((ifunc("resolve_twice")));

__attribute__((constructor)) static void early(void)
{
	__selinst_enter(&r_early);
	__selinst_exit(&r_early);
}

int main(void)
{
	__selinst_enter(&r_main);
	printf("%d\n", twice(21));
	__selinst_exit(&r_main);
	return 0;
}
