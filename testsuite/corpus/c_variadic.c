/* Variadic functions: stdarg with mixed types, va_copy to walk the list
 * twice, forwarding a va_list (vsnprintf), and a variadic recursion. */
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

static long sum_ints(int n, ...)
{
	va_list ap;
	long s = 0;
	va_start(ap, n);
	while (n--)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

/* fmt: i = int, d = double, s = string, l = long long */
static double mixed(const char *fmt, ...)
{
	va_list ap, copy;
	double total = 0;
	int count = 0;
	va_start(ap, fmt);
	va_copy(copy, ap);
	for (const char *f = fmt; *f; f++) {
		switch (*f) {
		case 'i': total += va_arg(ap, int); break;
		case 'd': total += va_arg(ap, double); break;
		case 's': total += strlen(va_arg(ap, const char *)); break;
		case 'l': total += (double)va_arg(ap, long long); break;
		}
	}
	for (const char *f = fmt; *f; f++) {	/* second pass over the copy */
		switch (*f) {
		case 'i': count += va_arg(copy, int) > 0; break;
		case 'd': count += va_arg(copy, double) > 0; break;
		case 's': count += *va_arg(copy, const char *) != 0; break;
		case 'l': count += va_arg(copy, long long) > 0; break;
		}
	}
	va_end(copy);
	va_end(ap);
	return total * 10 + count;
}

static char logbuf[512];
static int vlog(const char *fmt, va_list ap)
{
	size_t len = strlen(logbuf);
	return vsnprintf(logbuf + len, sizeof logbuf - len, fmt, ap);
}
static int logf_(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vlog(fmt, ap);
	va_end(ap);
	return r;
}

static int maxv(int n, va_list ap)
{
	if (n == 0)
		return -1000000;
	int x = va_arg(ap, int);
	int rest = maxv(n - 1, ap);
	return x > rest ? x : rest;
}
static int max_of(int n, ...)
{
	va_list ap;
	va_start(ap, n);
	int r = maxv(n, ap);
	va_end(ap);
	return r;
}

int main(void)
{
	printf("sum %ld %ld\n", sum_ints(0), sum_ints(12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -12));
	printf("mixed %.3f\n", mixed("idsldiii", 3, 2.5, "hello", 10000000000LL, -1.25, -4, 5, 6));
	int n = logf_("%d-%s-%.2f;", 42, "x", 3.14159);
	n += logf_("%05d|%c|%lx;", 7, 'Z', 0xbeefUL);
	printf("log %d '%s'\n", n, logbuf);
	printf("max %d %d\n", max_of(5, 3, 99, -4, 17, 98), max_of(1, -7));
	return 0;
}
