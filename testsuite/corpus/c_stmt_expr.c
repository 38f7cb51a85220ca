/* GNU extensions: statement expressions (including one containing a
 * loop and a return-like early value), typeof, local labels in macros,
 * case ranges, conditional with omitted operand, __builtin_choose_expr. */
#include <stdio.h>

#define MAX(a, b) ({ typeof(a) _a = (a); typeof(b) _b = (b); _a > _b ? _a : _b; })
#define SUMTO(n) ({ long _s = 0; for (int _i = 1; _i <= (n); _i++) _s += _i; _s; })
#define FIND(arr, n, v) ({ __label__ _found; int _k; for (_k = 0; _k < (n); _k++) if ((arr)[_k] == (v)) goto _found; _k = -1; _found: _k; })

static int grade(int s)
{
	switch (s) {
	case 90 ... 100: return 'A';
	case 80 ... 89: return 'B';
	case 0 ... 79: return 'C';
	default: return '?';
	}
}

int main(void)
{
	int a[] = { 4, 8, 15, 16, 23, 42 };
	int x = 0;
	int y = x ?: 77;
	printf("max %d %.1f\n", MAX(3, 9), MAX(2.5, -1.0));
	printf("sumto %ld\n", SUMTO(1000));
	printf("find %d %d\n", FIND(a, 6, 23), FIND(a, 6, 5));
	printf("grades %c%c%c%c y %d\n", grade(95), grade(85), grade(10), grade(101), y);
	printf("choose %d\n", (int)sizeof(__builtin_choose_expr(1, (char)1, 1.0)));
	return 0;
}
