/*
 * interp.c - a non-HPC workload with many small functions: a lexer,
 * recursive-descent compiler and stack bytecode VM for a tiny language.
 *
 * The embedded script defines fib (recursive), a prime sieve over an
 * array, a Collatz search and a gcd sum; main() of the script combines
 * them.  Most of the time goes to the VM: a dispatch loop calling one
 * small handler per instruction, stack push/pop helpers, call frames,
 * array built-ins.  The script is compiled once per round (the compiler
 * is exercised too) and run ROUNDS times.
 *
 * Self-check: the script's results are compared with the same
 * computations written in C.  Prints VERIFICATION SUCCESSFUL or FAILED
 * (exit 1).
 *
 * Usage: interp [small|large|ROUNDS].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <stdint.h>

typedef int64_t val_t;

/* ---- script ------------------------------------------------------------ */

static const char *script =
	"fn fib(n) { if (n < 2) { return n; } return fib(n - 1) + fib(n - 2); }\n"
	"fn sieve(m) {\n"
	"  var a = array(m + 1); var i = 2; var count = 0;\n"
	"  while (i <= m) {\n"
	"    if (get(a, i) == 0) {\n"
	"      count = count + 1; var j = i * i;\n"
	"      while (j <= m) { set(a, j, 1); j = j + i; }\n"
	"    }\n"
	"    i = i + 1;\n"
	"  }\n"
	"  free(a);\n"
	"  return count;\n"
	"}\n"
	"fn steps(n) { var s = 0; while (n != 1) { if (n % 2 == 0) { n = n / 2; } else { n = 3 * n + 1; } s = s + 1; } return s; }\n"
	"fn collatz(limit) { var best = 0; var arg = 0; var i = 1;\n"
	"  while (i < limit) { var s = steps(i); if (s > best) { best = s; arg = i; } i = i + 1; }\n"
	"  return arg * 1000 + best; }\n"
	"fn gcd(a, b) { while (b != 0) { var t = a % b; a = b; b = t; } return a; }\n"
	"fn gcdsum(n) { var s = 0; var i = 1; while (i <= n) { var j = 1; while (j <= n) { s = s + gcd(i, j); j = j + 1; } i = i + 1; } return s; }\n"
	"fn main(f, p, c, g) { return fib(f) * 1000003 + sieve(p) * 1009 + collatz(c) * 7 + gcdsum(g); }\n";

/* ---- lexer ------------------------------------------------------------- */

enum tok { T_EOF, T_NUM, T_ID, T_FN, T_VAR, T_IF, T_ELSE, T_WHILE, T_RETURN, T_PUNCT };

struct lexer {
	const char *p;
	enum tok t;
	val_t num;
	char id[32];
	char punct[3];
};

static int is_ident_start(int c) { return isalpha(c) || c == '_'; }
static int is_ident_char(int c) { return isalnum(c) || c == '_'; }

static void skip_space(struct lexer *lx)
{
	while (isspace((unsigned char)*lx->p))
		lx->p++;
}

static enum tok keyword(const char *s)
{
	static const struct { const char *w; enum tok t; } kw[] = {
		{ "fn", T_FN }, { "var", T_VAR }, { "if", T_IF }, { "else", T_ELSE },
		{ "while", T_WHILE }, { "return", T_RETURN },
	};
	for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
		if (!strcmp(kw[i].w, s))
			return kw[i].t;
	return T_ID;
}

static void lex_number(struct lexer *lx)
{
	lx->num = 0;
	while (isdigit((unsigned char)*lx->p))
		lx->num = lx->num * 10 + (*lx->p++ - '0');
	lx->t = T_NUM;
}

static void lex_ident(struct lexer *lx)
{
	size_t n = 0;
	while (is_ident_char((unsigned char)*lx->p) && n < sizeof lx->id - 1)
		lx->id[n++] = *lx->p++;
	lx->id[n] = 0;
	lx->t = keyword(lx->id);
}

static void lex_punct(struct lexer *lx)
{
	static const char *two[] = { "==", "!=", "<=", ">=", "&&", "||" };
	for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
		if (lx->p[0] == two[i][0] && lx->p[1] == two[i][1]) {
			memcpy(lx->punct, two[i], 3);
			lx->p += 2;
			lx->t = T_PUNCT;
			return;
		}
	lx->punct[0] = *lx->p++;
	lx->punct[1] = 0;
	lx->t = T_PUNCT;
}

static void next(struct lexer *lx)
{
	skip_space(lx);
	if (!*lx->p)
		lx->t = T_EOF;
	else if (isdigit((unsigned char)*lx->p))
		lex_number(lx);
	else if (is_ident_start((unsigned char)*lx->p))
		lex_ident(lx);
	else
		lex_punct(lx);
}

static int is_punct(const struct lexer *lx, const char *s) { return lx->t == T_PUNCT && !strcmp(lx->punct, s); }

static void die(const char *what, const struct lexer *lx)
{
	fprintf(stderr, "interp: %s near '%.20s'\n", what, lx->p);
	exit(2);
}

static void expect(struct lexer *lx, const char *s)
{
	if (!is_punct(lx, s))
		die(s, lx);
	next(lx);
}

/* ---- bytecode ---------------------------------------------------------- */

enum op {
	OP_CONST, OP_LOAD, OP_STORE, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_NEG, OP_NOT,
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_JMP, OP_JZ, OP_CALL, OP_RET, OP_POP,
	OP_ARRAY, OP_GET, OP_SET, OP_FREE, OP_HALT
};

struct function {
	char name[32];
	int nparams, nlocals, entry;
};

struct program {
	int32_t *code;
	int len, cap;
	struct function fn[32];
	int nfn;
};

struct compiler {
	struct lexer lx;
	struct program *prog;
	char locals[64][32];
	int nlocals;
	/* calls to functions defined later: patched at the end */
	int fixup_at[256];
	char fixup_name[256][32];
	int nfixups;
};

static void emit(struct program *p, int32_t w)
{
	if (p->len == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 256;
		p->code = realloc(p->code, sizeof(int32_t) * p->cap);
	}
	p->code[p->len++] = w;
}

static void emit2(struct program *p, int32_t op, int32_t arg) { emit(p, op); emit(p, arg); }
static int here(const struct program *p) { return p->len; }
static void patch(struct program *p, int at, int32_t v) { p->code[at] = v; }

static int find_local(const struct compiler *c, const char *name)
{
	for (int i = c->nlocals - 1; i >= 0; i--)
		if (!strcmp(c->locals[i], name))
			return i;
	return -1;
}

static int add_local(struct compiler *c, const char *name)
{
	if (c->nlocals == 64)
		die("too many locals", &c->lx);
	strcpy(c->locals[c->nlocals], name);
	return c->nlocals++;
}

static int find_function(const struct program *p, const char *name)
{
	for (int i = 0; i < p->nfn; i++)
		if (!strcmp(p->fn[i].name, name))
			return i;
	return -1;
}

static void expr(struct compiler *c);

static int builtin(const char *name, int *op, int *nargs)
{
	if (!strcmp(name, "array")) { *op = OP_ARRAY; *nargs = 1; return 1; }
	if (!strcmp(name, "get")) { *op = OP_GET; *nargs = 2; return 1; }
	if (!strcmp(name, "set")) { *op = OP_SET; *nargs = 3; return 1; }
	if (!strcmp(name, "free")) { *op = OP_FREE; *nargs = 1; return 1; }
	return 0;
}

static void call(struct compiler *c, const char *name)
{
	int nargs = 0, op, want;
	expect(&c->lx, "(");
	while (!is_punct(&c->lx, ")")) {
		expr(c);
		nargs++;
		if (is_punct(&c->lx, ","))
			next(&c->lx);
	}
	next(&c->lx);
	if (builtin(name, &op, &want)) {
		if (nargs != want)
			die("wrong number of arguments to a built-in", &c->lx);
		emit(c->prog, op);
		return;
	}
	emit2(c->prog, OP_CALL, -1);
	emit(c->prog, nargs);
	if (c->nfixups == 256)
		die("too many calls", &c->lx);
	c->fixup_at[c->nfixups] = here(c->prog) - 2;
	strcpy(c->fixup_name[c->nfixups++], name);
}

static void primary(struct compiler *c)
{
	struct lexer *lx = &c->lx;
	if (lx->t == T_NUM) {
		emit2(c->prog, OP_CONST, (int32_t)lx->num);
		next(lx);
	} else if (lx->t == T_ID) {
		char name[32];
		strcpy(name, lx->id);
		next(lx);
		if (is_punct(lx, "(")) {
			call(c, name);
		} else {
			int slot = find_local(c, name);
			if (slot < 0)
				die("unknown variable", lx);
			emit2(c->prog, OP_LOAD, slot);
		}
	} else if (is_punct(lx, "(")) {
		next(lx);
		expr(c);
		expect(lx, ")");
	} else {
		die("expression expected", lx);
	}
}

static void unary(struct compiler *c)
{
	if (is_punct(&c->lx, "-")) {
		next(&c->lx);
		unary(c);
		emit(c->prog, OP_NEG);
	} else if (is_punct(&c->lx, "!")) {
		next(&c->lx);
		unary(c);
		emit(c->prog, OP_NOT);
	} else {
		primary(c);
	}
}

static void term(struct compiler *c)
{
	unary(c);
	for (;;) {
		int op = is_punct(&c->lx, "*") ? OP_MUL : is_punct(&c->lx, "/") ? OP_DIV : is_punct(&c->lx, "%") ? OP_MOD : -1;
		if (op < 0)
			return;
		next(&c->lx);
		unary(c);
		emit(c->prog, op);
	}
}

static void additive(struct compiler *c)
{
	term(c);
	for (;;) {
		int op = is_punct(&c->lx, "+") ? OP_ADD : is_punct(&c->lx, "-") ? OP_SUB : -1;
		if (op < 0)
			return;
		next(&c->lx);
		term(c);
		emit(c->prog, op);
	}
}

static void expr(struct compiler *c)
{
	static const struct { const char *s; int op; } cmp[] = {
		{ "==", OP_EQ }, { "!=", OP_NE }, { "<", OP_LT }, { "<=", OP_LE }, { ">", OP_GT }, { ">=", OP_GE },
	};
	additive(c);
	for (size_t i = 0; i < sizeof cmp / sizeof cmp[0]; i++)
		if (is_punct(&c->lx, cmp[i].s)) {
			next(&c->lx);
			additive(c);
			emit(c->prog, cmp[i].op);
			return;
		}
}

static void block(struct compiler *c);

static void statement(struct compiler *c)
{
	struct lexer *lx = &c->lx;
	struct program *p = c->prog;
	if (lx->t == T_VAR) {
		next(lx);
		char name[32];
		strcpy(name, lx->id);
		next(lx);
		int slot = find_local(c, name);
		if (slot < 0)
			slot = add_local(c, name);
		expect(lx, "=");
		expr(c);
		expect(lx, ";");
		emit2(p, OP_STORE, slot);
	} else if (lx->t == T_IF) {
		next(lx);
		expect(lx, "(");
		expr(c);
		expect(lx, ")");
		emit2(p, OP_JZ, -1);
		int jz = here(p) - 1;
		block(c);
		if (lx->t == T_ELSE) {
			next(lx);
			emit2(p, OP_JMP, -1);
			int jmp = here(p) - 1;
			patch(p, jz, here(p));
			block(c);
			patch(p, jmp, here(p));
		} else {
			patch(p, jz, here(p));
		}
	} else if (lx->t == T_WHILE) {
		next(lx);
		int top = here(p);
		expect(lx, "(");
		expr(c);
		expect(lx, ")");
		emit2(p, OP_JZ, -1);
		int jz = here(p) - 1;
		block(c);
		emit2(p, OP_JMP, top);
		patch(p, jz, here(p));
	} else if (lx->t == T_RETURN) {
		next(lx);
		expr(c);
		expect(lx, ";");
		emit(p, OP_RET);
	} else if (lx->t == T_ID) {
		char name[32];
		strcpy(name, lx->id);
		next(lx);
		if (is_punct(lx, "=")) {
			next(lx);
			int slot = find_local(c, name);
			if (slot < 0)
				die("assignment to unknown variable", lx);
			expr(c);
			emit2(p, OP_STORE, slot);
		} else {
			call(c, name);
			emit(p, OP_POP);
		}
		expect(lx, ";");
	} else {
		die("statement expected", lx);
	}
}

static void block(struct compiler *c)
{
	expect(&c->lx, "{");
	while (!is_punct(&c->lx, "}"))
		statement(c);
	next(&c->lx);
}

static void function(struct compiler *c)
{
	struct lexer *lx = &c->lx;
	struct program *p = c->prog;
	next(lx);	/* fn */
	struct function *f = &p->fn[p->nfn++];
	strcpy(f->name, lx->id);
	next(lx);
	c->nlocals = 0;
	expect(lx, "(");
	while (!is_punct(lx, ")")) {
		add_local(c, lx->id);
		next(lx);
		if (is_punct(lx, ","))
			next(lx);
	}
	next(lx);
	f->nparams = c->nlocals;
	f->entry = here(p);
	block(c);
	emit2(p, OP_CONST, 0);
	emit(p, OP_RET);
	f->nlocals = c->nlocals;
}

static void compile(struct program *p, const char *src)
{
	static struct compiler c;
	memset(&c, 0, sizeof c);
	memset(p, 0, sizeof *p);
	c.prog = p;
	c.lx.p = src;
	next(&c.lx);
	while (c.lx.t == T_FN)
		function(&c);
	if (c.lx.t != T_EOF)
		die("function expected", &c.lx);
	for (int i = 0; i < c.nfixups; i++) {
		int f = find_function(p, c.fixup_name[i]);
		if (f < 0) {
			fprintf(stderr, "interp: unknown function %s\n", c.fixup_name[i]);
			exit(2);
		}
		patch(p, c.fixup_at[i], f);
	}
}

/* ---- VM ------------------------------------------------------------------ */

struct frame { int ret_pc, base; };

struct vm {
	const struct program *prog;
	val_t stack[1 << 16];
	int sp;
	struct frame frames[1 << 12];
	int fp;
	val_t *arrays[64];
	int64_t steps;
};

static void push(struct vm *m, val_t v) { m->stack[m->sp++] = v; }
static val_t pop(struct vm *m) { return m->stack[--m->sp]; }

static void binop_add(struct vm *m) { val_t b = pop(m); m->stack[m->sp - 1] += b; }
static void binop_sub(struct vm *m) { val_t b = pop(m); m->stack[m->sp - 1] -= b; }
static void binop_mul(struct vm *m) { val_t b = pop(m); m->stack[m->sp - 1] *= b; }
static void binop_div(struct vm *m) { val_t b = pop(m); m->stack[m->sp - 1] = b ? m->stack[m->sp - 1] / b : 0; }
static void binop_mod(struct vm *m) { val_t b = pop(m); m->stack[m->sp - 1] = b ? m->stack[m->sp - 1] % b : 0; }
static void compare(struct vm *m, int op)
{
	val_t b = pop(m), a = pop(m), r;
	switch (op) {
	case OP_EQ: r = a == b; break;
	case OP_NE: r = a != b; break;
	case OP_LT: r = a < b; break;
	case OP_LE: r = a <= b; break;
	case OP_GT: r = a > b; break;
	default: r = a >= b; break;
	}
	push(m, r);
}

static int array_new(struct vm *m, val_t n)
{
	for (int i = 1; i < 64; i++)
		if (!m->arrays[i]) {
			m->arrays[i] = calloc((size_t)n + 1, sizeof(val_t));
			m->arrays[i][0] = n;
			return i;
		}
	fprintf(stderr, "interp: out of arrays\n");
	exit(2);
}
static val_t array_get(struct vm *m, val_t a, val_t i) { return m->arrays[a][1 + i]; }
static void array_set(struct vm *m, val_t a, val_t i, val_t v) { m->arrays[a][1 + i] = v; }
static void array_free(struct vm *m, val_t a) { free(m->arrays[a]); m->arrays[a] = NULL; }

static int do_call(struct vm *m, int pc, int f, int nargs)
{
	const struct function *fn = &m->prog->fn[f];
	struct frame *fr = &m->frames[m->fp++];
	fr->ret_pc = pc;
	fr->base = m->sp - nargs;
	for (int i = nargs; i < fn->nlocals; i++)
		push(m, 0);
	return fn->entry;
}

static int do_ret(struct vm *m)
{
	val_t v = pop(m);
	struct frame *fr = &m->frames[--m->fp];
	m->sp = fr->base;
	push(m, v);
	return fr->ret_pc;
}

static val_t run(struct vm *m, const char *fname, const val_t *args, int nargs)
{
	const int32_t *code = m->prog->code;
	int f = find_function(m->prog, fname);
	m->sp = 0;
	m->fp = 0;
	for (int i = 0; i < nargs; i++)
		push(m, args[i]);
	int pc = do_call(m, -1, f, nargs);
	for (;;) {
		m->steps++;
		switch (code[pc++]) {
		case OP_CONST: push(m, code[pc++]); break;
		case OP_LOAD: push(m, m->stack[m->frames[m->fp - 1].base + code[pc++]]); break;
		case OP_STORE: m->stack[m->frames[m->fp - 1].base + code[pc++]] = pop(m); break;
		case OP_ADD: binop_add(m); break;
		case OP_SUB: binop_sub(m); break;
		case OP_MUL: binop_mul(m); break;
		case OP_DIV: binop_div(m); break;
		case OP_MOD: binop_mod(m); break;
		case OP_NEG: push(m, -pop(m)); break;
		case OP_NOT: push(m, !pop(m)); break;
		case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: compare(m, code[pc - 1]); break;
		case OP_JMP: pc = code[pc]; break;
		case OP_JZ: pc = pop(m) ? pc + 1 : code[pc]; break;
		case OP_CALL: { int fi = code[pc], na = code[pc + 1]; pc = do_call(m, pc + 2, fi, na); break; }
		case OP_RET:
			pc = do_ret(m);
			if (pc < 0)
				return pop(m);
			break;
		case OP_POP: pop(m); break;
		case OP_ARRAY: push(m, array_new(m, pop(m))); break;
		case OP_GET: { val_t i = pop(m), a = pop(m); push(m, array_get(m, a, i)); break; }
		case OP_SET: { val_t v = pop(m), i = pop(m), a = pop(m); array_set(m, a, i, v); push(m, v); break; }
		case OP_FREE: { val_t a = pop(m); array_free(m, a); push(m, 0); break; }
		default:
			fprintf(stderr, "interp: bad opcode %d at %d\n", code[pc - 1], pc - 1);
			exit(2);
		}
	}
}

/* ---- the same computations in C ---------------------------------------- */

static val_t c_fib(val_t n) { return n < 2 ? n : c_fib(n - 1) + c_fib(n - 2); }
static val_t c_sieve(val_t m)
{
	char *a = calloc((size_t)m + 1, 1);
	val_t count = 0;
	for (val_t i = 2; i <= m; i++)
		if (!a[i]) {
			count++;
			for (val_t j = i * i; j <= m; j += i)
				a[j] = 1;
		}
	free(a);
	return count;
}
static val_t c_collatz(val_t limit)
{
	val_t best = 0, arg = 0;
	for (val_t i = 1; i < limit; i++) {
		val_t n = i, s = 0;
		while (n != 1) {
			n = n % 2 == 0 ? n / 2 : 3 * n + 1;
			s++;
		}
		if (s > best) {
			best = s;
			arg = i;
		}
	}
	return arg * 1000 + best;
}
static val_t c_gcd(val_t a, val_t b) { while (b) { val_t t = a % b; a = b; b = t; } return a; }
static val_t c_gcdsum(val_t n)
{
	val_t s = 0;
	for (val_t i = 1; i <= n; i++)
		for (val_t j = 1; j <= n; j++)
			s += c_gcd(i, j);
	return s;
}

int main(int argc, char **argv)
{
	int rounds;
	val_t args[4];
	const char *size = argc > 1 ? argv[1] : "small";
	if (!strcmp(size, "small")) {
		rounds = 1;
		args[0] = 22; args[1] = 50000; args[2] = 10000; args[3] = 100;
	} else if (!strcmp(size, "large")) {
		rounds = 8;
		args[0] = 27; args[1] = 1000000; args[2] = 100000; args[3] = 300;
	} else {
		rounds = atoi(size);
		args[0] = 20; args[1] = 20000; args[2] = 3000; args[3] = 60;
	}
	if (rounds < 1) {
		fprintf(stderr, "usage: interp [small|large|ROUNDS>=1]\n");
		return 2;
	}
	static struct vm m;
	struct program prog;
	val_t result = 0;
	int consistent = 1;
	for (int r = 0; r < rounds; r++) {
		compile(&prog, script);
		memset(&m, 0, sizeof m);
		m.prog = &prog;
		val_t v = run(&m, "main", args, 4);
		if (r > 0 && v != result)
			consistent = 0;
		result = v;
		free(prog.code);
	}
	val_t expect = c_fib(args[0]) * 1000003 + c_sieve(args[1]) * 1009 + c_collatz(args[2]) * 7 + c_gcdsum(args[3]);
	printf("interp: rounds=%d result %lld expected %lld (%lld VM steps in the last round)\n", rounds,
	       (long long)result, (long long)expect, (long long)m.steps);
	int ok = consistent && result == expect;
	printf("VERIFICATION %s\n", ok ? "SUCCESSFUL" : "FAILED");
	return ok ? 0 : 1;
}
