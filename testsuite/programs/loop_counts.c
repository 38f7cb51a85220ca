/* loop_counts.c - loops left every way the plugin counts exactly.
 * Each function prints nothing; the hook double (loop_hook_double.c)
 * prints entries and iterations per loop line at exit. */
#include <stdio.h>
#include <stdlib.h>

volatile int sink;

int plain_for(int n)			/* line 9 */
{
	int s = 0;
	for (int i = 0; i < n; i++)	/* 10 entries x n */
		s += i;
	return s;
}

int with_break(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {	/* breaks at i == 5: 6 per entry */
		if (i == 5)
			break;
		s += i;
	}
	return s;
}

int nested_goto(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			if (i == 2 && j == 3)
				goto out;
			s += j;
		}
out:
	return s;
}

int early_return(int n)
{
	for (int i = 0; i < n; i++)	/* returns at i == 7: 8 per entry */
		if (i == 7)
			return i;
	return -1;
}

int do_while(int n)
{
	int k = 0;
	do {				/* named by its do line: n per entry */
		k++;
	} while (k < n);
	return k;
}

int zero_trip(int n)
{
	int s = 0;
	while (s < n)			/* n = 0: entered, 0 iterations */
		s++;
	return s;
}

int with_continue(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (i % 2)
			continue;
		s += i;
	}
	return s;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	long t = 0;
	for (int e = 0; e < 10; e++) {
		t += plain_for(n);
		t += with_break(n);
		t += nested_goto(n);
		t += early_return(n);
		t += do_while(4);
		t += zero_trip(0);
		t += with_continue(10);
	}
	printf("%ld\n", t);
	return 0;
}
