/* hookcheck: a stand-in for libselinst that checks the hook calls the
 * plugin inserted instead of profiling.  t-corpus.sh links the plugin
 * variants against it when build/libselinst.so is missing, or always with
 * CORPUS_HOOKCHECK=1.
 *
 * Per thread it keeps the stack of open regions, with the stack pointer
 * seen at entry (for setjmp resynchronisation, as the runtime does), and
 * counts what a correct instrumentation never produces in a program that
 * leaves frames only by return and exceptions:
 *   bad_descriptor   a region descriptor with a wrong ABI version, kind or
 *                    missing name/file (loops: missing function)
 *   exit_unmatched   an exit hook for a region that is not open
 *   func_closed      a function region closed implicitly because an outer
 *                    region exited first (its own exit hook never ran)
 *   loop_exit_nottop a loop exit hook while another region is on top
 *   bad_iterations   a loop exit reporting more than 2^40 iterations (an
 *                    uninitialised or clobbered counter), or an iteration
 *                    hook called although no one set the descriptor's
 *                    SELINST_REGION_ITERATE bit (this library never does)
 * and, for information, hooks called before this library's constructor
 * ran (ifunc resolvers; ignored), loops closed implicitly (left by return, goto out
 * of the function or exception: legitimate), regions dropped by setjmp
 * resynchronisation, and regions still open at exit.
 * The counts go to $SELINST_OUTPUT.check (one line per process), or
 * stderr when SELINST_OUTPUT is not set. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "selinst.h"

#define MAXD 100000
struct ent { const struct selinst_region *r; uintptr_t sp; };
static __thread struct ent *stk;
static __thread int depth, overflow;

static long n_enter, n_exit, n_lenter, n_lexit, n_setjmp;
static long bad_descriptor, exit_unmatched, func_closed, loop_exit_nottop, bad_iterations;
static long loops_closed, setjmp_dropped, main_open_at_exit, depth_overflow;
static long before_init;
static int ready;	/* set by our constructor: before it (ifunc resolvers
			   run during relocation) TLS is not usable */
static const char *first_problem;
static char first_buf[256];

#define INC(x) __atomic_fetch_add(&(x), 1, __ATOMIC_RELAXED)

static void problem(const char *what, const struct selinst_region *r)
{
	if (__atomic_load_n(&first_problem, __ATOMIC_RELAXED))
		return;
	snprintf(first_buf, sizeof first_buf, "%s: %s (%s:%u)", what,
		 r && r->name ? r->name : "?", r && r->file ? r->file : "?", r ? r->line : 0);
	__atomic_store_n(&first_problem, first_buf, __ATOMIC_RELEASE);
}

static void check_desc(const struct selinst_region *r, uint32_t want_kind)
{
	if (!r || r->abi_version != SELINST_ABI_VERSION || r->kind != want_kind || !r->name || !r->file ||
	    (want_kind == SELINST_KIND_LOOP && !r->function)) {
		INC(bad_descriptor);
		problem("bad descriptor", r && r->abi_version == SELINST_ABI_VERSION ? r : NULL);
	}
}

static void push(const struct selinst_region *r, uintptr_t sp)
{
	if (!stk)
		stk = calloc(MAXD, sizeof *stk);
	if (depth >= MAXD) {
		overflow++;
		INC(depth_overflow);
		return;
	}
	stk[depth].r = r;
	stk[depth].sp = sp;
	depth++;
}

/* Close R: pop everything above it, counting what was closed implicitly. */
static int close_region(const struct selinst_region *r)
{
	int i;
	if (overflow) {
		overflow--;
		return 1;
	}
	for (i = depth - 1; i >= 0; i--)
		if (stk[i].r == r)
			break;
	if (i < 0)
		return 0;
	for (int j = depth - 1; j > i; j--) {
		if (stk[j].r->kind == SELINST_KIND_LOOP) {
			INC(loops_closed);
		} else {
			INC(func_closed);
			problem("function region closed implicitly", stk[j].r);
		}
	}
	depth = i;
	return 1;
}

void __selinst_enter(const struct selinst_region *r)
{
	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
		INC(before_init);
		return;
	}
	INC(n_enter);
	check_desc(r, SELINST_KIND_FUNCTION);
	push(r, (uintptr_t)__builtin_frame_address(0));
}

void __selinst_exit(const struct selinst_region *r)
{
	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
		INC(before_init);
		return;
	}
	INC(n_exit);
	if (!close_region(r)) {
		INC(exit_unmatched);
		problem("exit of a region not open", r);
	}
}

/* Where the code stores a loop's running count before each call in it:
 * one per thread is enough for a checker that does not read it. */
static __thread uint64_t loop_cell;

uint64_t *__selinst_loop_enter(const struct selinst_region *r)
{
	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
		INC(before_init);
		return &loop_cell;
	}
	INC(n_lenter);
	check_desc(r, SELINST_KIND_LOOP);
	push(r, (uintptr_t)__builtin_frame_address(0));
	return &loop_cell;
}

void __selinst_loop_exit(const struct selinst_region *r, uint64_t iterations)
{
	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
		INC(before_init);
		return;
	}
	INC(n_lexit);
	if (iterations > (1ULL << 40)) {
		INC(bad_iterations);
		problem("implausible iteration count", r);
	}
	if (depth > 0 && !overflow && stk[depth - 1].r != r) {
		INC(loop_exit_nottop);
		problem("loop exit not on top", r);
	}
	if (!close_region(r)) {
		INC(exit_unmatched);
		problem("loop exit of a region not open", r);
	}
}

/* Only the loop SELINST_ITERATE names calls this, and here none is named. */
void __selinst_loop_iteration(const struct selinst_region *r, uint64_t iteration)
{
	(void)iteration;
	INC(bad_iterations);
	problem("iteration hook without the iterate bit", r);
}

/* Regions entered by frames deeper than the setjmp caller's were left by
 * longjmp: drop them.  Our own frame is one below the caller's; entries
 * recorded the hook's frame, one below the region's function. */
void __selinst_setjmp_return(void)
{
	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
		INC(before_init);
		return;
	}
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	INC(n_setjmp);
	while (depth > 0 && stk[depth - 1].sp < sp) {
		depth--;
		INC(setjmp_dropped);
	}
}

__attribute__((constructor)) static void hookcheck_init(void)
{
	__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
}

__attribute__((destructor)) static void hookcheck_report(void)
{
	char path[4096];
	const char *out = getenv("SELINST_OUTPUT");
	FILE *f = stderr;
	main_open_at_exit = depth;
	if (out && snprintf(path, sizeof path, "%s.check", out) < (int)sizeof path)
		f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "pid %ld enter %ld exit %ld loop_enter %ld loop_exit %ld setjmp %ld"
		" | bad_descriptor %ld exit_unmatched %ld func_closed %ld loop_exit_nottop %ld bad_iterations %ld"
		" | loops_closed %ld setjmp_dropped %ld open_at_exit %ld overflow %ld before_init %ld%s%s\n",
		(long)getpid(), n_enter, n_exit, n_lenter, n_lexit, n_setjmp,
		bad_descriptor, exit_unmatched, func_closed, loop_exit_nottop, bad_iterations,
		loops_closed, setjmp_dropped, main_open_at_exit, depth_overflow, before_init,
		first_problem ? " | first: " : "", first_problem ? first_problem : "");
	if (f != stderr)
		fclose(f);
}
