/* Computed goto (&&label, goto *p): a threaded bytecode interpreter, and
 * a label table indexed at run time. */
#include <stdio.h>

enum { OP_PUSH, OP_ADD, OP_MUL, OP_DUP, OP_SWAP, OP_JNZ, OP_DEC, OP_POP, OP_PRINT, OP_HALT, OP_OVER };

static long run(const int *code)
{
	static void *const tab[] = { &&push, &&add, &&mul, &&dup, &&swap, &&jnz, &&dec, &&pop, &&print, &&halt, &&over };
	long st[64];
	int sp = 0;
	const int *pc = code;
#define NEXT goto *tab[*pc++]
	NEXT;
push:	st[sp++] = *pc++; NEXT;
add:	sp--; st[sp - 1] += st[sp]; NEXT;
mul:	sp--; st[sp - 1] = (st[sp - 1] * st[sp]) % 1000003; NEXT;
dup:	st[sp] = st[sp - 1]; sp++; NEXT;
swap:	{ long t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; } NEXT;
jnz:	{ int off = *pc++; if (st[sp - 1]) pc = code + off; } NEXT;
dec:	st[sp - 1]--; NEXT;
pop:	sp--; NEXT;
print:	printf("  top=%ld\n", st[sp - 1]); NEXT;
over:	st[sp] = st[sp - 2]; sp++; NEXT;
halt:	return sp ? st[sp - 1] : -1;
#undef NEXT
}

static int label_diff(int x)
{
	static const int off[] = { &&l0 - &&l0, &&l1 - &&l0, &&l2 - &&l0 };
	int r = 0;
	goto *(&&l0 + off[x % 3]);
l0:	r += 1;
l1:	r += 10;
l2:	r += 100;
	return r;
}

int main(void)
{
	/* acc = 1; n = 20; do acc = (acc * 3 + n) % 1000003; while (--n); */
	int prog[] = {
		OP_PUSH, 1, OP_PUSH, 20,		/* 0: [acc n] */
		OP_SWAP, OP_PUSH, 3, OP_MUL,		/* 4: [n 3acc] */
		OP_OVER, OP_ADD, OP_SWAP, OP_DEC,	/* 8: [acc' n-1] */
		OP_JNZ, 4,				/* 12 */
		OP_POP, OP_PRINT, OP_HALT
	};
	long r = run(prog);
	printf("result %ld\n", r);
	printf("labels %d %d %d\n", label_diff(0), label_diff(1), label_diff(2));
	return 0;
}
