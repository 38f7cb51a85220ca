/* Non-local goto: a GNU nested function, called several frames below its
 * parent (through ordinary functions that are themselves in loops),
 * jumps to a label of the parent, abandoning the frames in between. */
#include <stdio.h>

static int visits;

static int walk(int depth, int (*visit)(int))
{
	int s = 0;
	for (int i = 0; i < 3; i++) {
		s += visit(depth * 10 + i);
		if (depth > 0)
			s += walk(depth - 1, visit);
	}
	return s;
}

static int relay(int depth, int (*visit)(int)) { return walk(depth, visit) + 1; }

static int search(int target, int depth)
{
	__label__ found;
	int where = -1;
	int visit(int v)
	{
		visits++;
		if (v == target) {
			where = v;
			goto found;
		}
		return v & 1;
	}
	int r = relay(depth, visit);
	return -r;
found:
	return where * 1000 + visits % 1000;
}

int main(void)
{
	long s = 0;
	for (int t = 0; t < 2000; t++)
		s += search(t % 60, 4);
	int a = search(31, 4);
	int b = search(99, 3);
	printf("search %d %d sum %ld visits %d\n", a, b, s, visits);
	return 0;
}
