/* An error handler declared noreturn that longjmps (the libpng/Lua
 * pattern): sometimes back into the very function that called it, which
 * carries on afterwards; sometimes into a caller several frames up.  The
 * instrumented callers must not be closed before the noreturn call. */
#include <stdio.h>
#include <setjmp.h>

static jmp_buf *err_env;
static int errors;

/* no_instrument_function: as a small leaf, the handler is what selective
 * instrumentation leaves out; its callers are instrumented. */
__attribute__((noreturn, no_instrument_function)) static void raise_error(int code)
{
	errors++;
	longjmp(*err_env, code);
}

static int parse_digit(char c)
{
	if (c < '0' || c > '9')
		raise_error(c);
	return c - '0';
}

static int parse_number(const char *s)
{
	int v = 0;
	for (; *s; s++)
		v = v * 10 + parse_digit(*s);
	return v;
}

/* setjmp and the noreturn call in the same function */
static int retry_same_frame(int limit)
{
	jmp_buf env, *saved = err_env;
	volatile int attempts = 0;
	err_env = &env;
	if (setjmp(env))
		attempts++;
	if (attempts < limit)
		raise_error(-1);
	err_env = saved;
	return attempts;
}

static int parse_all(const char **in, int n)
{
	int sum = 0;
	for (int i = 0; i < n; i++) {
		jmp_buf env, *saved = err_env;
		int code;
		err_env = &env;
		if ((code = setjmp(env)) == 0)
			sum += parse_number(in[i]);
		else
			sum -= code;
		err_env = saved;
	}
	return sum;
}

int main(void)
{
	const char *in[] = { "123", "45x6", "7", "", "99a", "1000" };
	int parsed = parse_all(in, 6);
	printf("parse %d errors %d\n", parsed, errors);
	int retries = retry_same_frame(5);
	printf("retries %d errors %d\n", retries, errors);
	long total = 0;
	for (int r = 0; r < 20000; r++)
		total += parse_all(in, 6) + retry_same_frame(r % 3);
	printf("total %ld errors %d\n", total, errors);
	return 0;
}
// corpus-levels-metrics: differ (the front end folds a short-circuit test of simple operands into one test only when optimizing: fewer blocks, more statements at -O2)
