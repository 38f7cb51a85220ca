/* goto: forward and backward jumps, a state machine, cleanup chains,
 * jumping out of nested loops, and into a loop body. */
#include <stdio.h>
#include <stdlib.h>

static int cleanup_chain(int fail_at)
{
	int rc = 0;
	char *a = NULL, *b = NULL, *c = NULL;
	a = malloc(16);
	if (fail_at == 1) { rc = 1; goto out; }
	b = malloc(32);
	if (fail_at == 2) { rc = 2; goto free_a; }
	c = malloc(64);
	if (fail_at == 3) { rc = 3; goto free_b; }
	free(c);
free_b:
	free(b);
free_a:
	free(a);
	return rc * 10;
out:
	free(a);
	return rc;
}

static int search2d(int n, int target)
{
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (i * n + j == target)
				goto found;
	return -1;
found:
	return i * 100 + j;
}

/* Count words with a goto-based state machine. */
static int words(const char *s)
{
	int n = 0;
space:
	if (!*s) goto done;
	if (*s == ' ') { s++; goto space; }
	n++;
word:
	if (!*s) goto done;
	if (*s == ' ') { s++; goto space; }
	s++;
	goto word;
done:
	return n;
}

static int into_loop(int k)
{
	int i = k, sum = 0;
	goto inside;
	for (i = 0; i < 10; i++) {
inside:
		sum += i;
	}
	return sum;
}

int main(void)
{
	printf("cleanup: %d %d %d %d\n", cleanup_chain(0), cleanup_chain(1), cleanup_chain(2), cleanup_chain(3));
	printf("search: %d %d\n", search2d(10, 57), search2d(5, 99));
	printf("words: %d %d %d\n", words("  the quick  brown fox "), words(""), words("x"));
	printf("into: %d %d\n", into_loop(3), into_loop(20));
	int i = 0, acc = 0;
again:
	acc += i * i;
	if (++i < 20) goto again;
	printf("acc: %d\n", acc);
	return 0;
}
