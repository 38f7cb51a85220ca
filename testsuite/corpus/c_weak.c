/* Weak symbols: a weak function overridden in the same unit is not
 * possible, so: a weak definition used as is, a weak undefined reference
 * tested against NULL, and a weak alias. */
#include <stdio.h>

__attribute__((weak)) int hook_value(int x) { return x + 1000; }
extern int missing_function(int) __attribute__((weak));
static int real_impl(int x) { return x * 5; }
int aliased(int x) __attribute__((weak, alias("real_impl_pub")));
int real_impl_pub(int x) { return real_impl(x) + 1; }

int main(void)
{
	printf("hook %d\n", hook_value(5));
	printf("missing %s\n", missing_function ? "present" : "absent");
	if (missing_function)
		printf("%d\n", missing_function(1));
	printf("alias %d\n", aliased(7));
	return 0;
}
