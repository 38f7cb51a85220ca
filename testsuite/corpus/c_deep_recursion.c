/* Deep call stacks: a non-tail recursion 50000 frames deep, mutual
 * recursion 30000 deep, and main calling itself. */
#include <stdio.h>
#include <stdlib.h>

static long down(long n) { return n == 0 ? 0 : (n & 7) + down(n - 1); }
static long pong(int n);
static long ping(int n) { return n <= 0 ? 1 : 2 + pong(n - 1); }
static long pong(int n) { return n <= 0 ? 2 : 1 + ping(n - 1); }

int main(int argc, char **argv)
{
	if (argc > 1) {
		int level = atoi(argv[1]);
		if (level > 0) {
			char arg[16];
			char *args[] = { argv[0], arg, NULL };
			snprintf(arg, sizeof arg, "%d", level - 1);
			return main(2, args) + level;
		}
		return 0;
	}
	printf("down %ld ping %ld\n", down(50000), ping(30000));
	char three[] = "6";
	char *args[] = { argv[0], three, NULL };
	printf("main recursion %d\n", main(2, args));
	return 0;
}
