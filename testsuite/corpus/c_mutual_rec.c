/* Mutual recursion: even/odd, Hofstadter F/M sequences, and a recursive
 * descent parser whose expression/term/factor functions form a cycle. */
#include <stdio.h>
#include <ctype.h>

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static int M(int n);
static int F(int n) { return n == 0 ? 1 : n - M(F(n - 1)); }
static int M(int n) { return n == 0 ? 0 : n - F(M(n - 1)); }

static const char *p;
static long expr(void);

static void skip(void) { while (*p == ' ') p++; }

static long factor(void)
{
	skip();
	if (*p == '(') {
		p++;
		long v = expr();
		skip();
		p++;	/* ')' */
		return v;
	}
	if (*p == '-') {
		p++;
		return -factor();
	}
	long v = 0;
	while (isdigit((unsigned char)*p))
		v = v * 10 + (*p++ - '0');
	return v;
}

static long term(void)
{
	long v = factor();
	for (;;) {
		skip();
		if (*p == '*') { p++; v *= factor(); }
		else if (*p == '/') { p++; long d = factor(); v = d ? v / d : 0; }
		else if (*p == '%') { p++; long d = factor(); v = d ? v % d : 0; }
		else return v;
	}
}

static long expr(void)
{
	long v = term();
	for (;;) {
		skip();
		if (*p == '+') { p++; v += term(); }
		else if (*p == '-') { p++; v -= term(); }
		else return v;
	}
}

static long eval(const char *s) { p = s; return expr(); }

int main(void)
{
	printf("even: %d %d %d\n", is_even(10000), is_even(7777), is_odd(12345));
	printf("F/M:");
	for (int i = 0; i < 20; i++)
		printf(" %d/%d", F(i), M(i));
	printf("\n");
	const char *e[] = { "1 + 2 * 3", "(1+2)*3", "-(4 - 10) * (2 + (3 * (4 - 1)))", "100 / 7 % 5 - -3", "((((((((7))))))))*6" };
	for (int i = 0; i < 5; i++)
		printf("%s = %ld\n", e[i], eval(e[i]));
	return 0;
}
