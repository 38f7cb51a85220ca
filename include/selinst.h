/* SPDX-License-Identifier: MIT */
/*
 * selinst.h - public interface of libselinst.
 *
 * Two audiences:
 *   - programs compiled with the selinst GCC plugin call the hook ABI
 *     (the __selinst_* functions) from code the plugin inserts; users
 *     never call those by hand;
 *   - users may call the control API (selinst_*) directly: pause and
 *     resume recording, dump a snapshot, name regions by hand.
 *
 * Link with -lselinst.  Every function here is safe to call from any
 * thread.  Without the runtime linked, nothing here is needed: a program
 * built with the plugin always references the hooks, so -lselinst is
 * required when anything was instrumented.
 */
#ifndef SELINST_H
#define SELINST_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever struct selinst_region or a hook signature changes.  The
 * plugin writes it into every descriptor; the runtime refuses (with a
 * message, once) descriptors of another version instead of misreading them. */
#define SELINST_ABI_VERSION 1

enum selinst_region_kind {
	SELINST_KIND_FUNCTION = 0,	/* a function body, entered by a call */
	SELINST_KIND_LOOP     = 1,	/* a source loop; iterations counted */
	SELINST_KIND_MANUAL   = 2,	/* selinst_region_begin/end */
	SELINST_KIND_MPI      = 3,	/* an MPI call, recorded by libselinst-mpi */
	SELINST_KIND_OMP      = 4	/* an OpenMP runtime call or wait, recorded by
					   libselinst's libgomp interposition */
};

/* Bits of selinst_region.reserved. */
#define SELINST_REGION_WRITABLE  1u	/* set by the plugin: the runtime may write */
#define SELINST_REGION_THROTTLED 2u	/* set by the runtime: switched off (SELINST_THROTTLE) */
#define SELINST_REGION_ITERABLE  4u	/* set by the plugin: a loop whose body starts
					   call __selinst_loop_iteration when ITERATE is set */
#define SELINST_REGION_ITERATE   8u	/* set by the runtime: the loop SELINST_ITERATE names */
#define SELINST_REGION_FLOW     16u	/* set by the runtime: entries recorded in the
					   predecessor graph (SELINST_FLOW) */
#define SELINST_REGION_LOOP_TABLE 32u	/* set by the plugin on a function's descriptor:
					   its `function` field holds the lines of the
					   function's loops that have no hooks (see below) */
#define SELINST_REGION_COUNTER_FOLDED 64u /* set by the plugin on a loop's descriptor:
					   no copy of the loop in the compiled code keeps
					   its iteration counter as a value carried round
					   the loop (GCC folded it into the loop's induction
					   variable or its trip count), so counting costs
					   its iterations nothing (selinst-predict.h) */

/* Every unit the plugin compiles carries one ELF note (section
 * .note.selinst, so in the PT_NOTE segment): name SELINST_NOTE_NAME, type
 * SELINST_NOTE_SETTINGS, its description the NUL-terminated settings its
 * decisions were made under ("model=default threshold=204800 ...").  The
 * runtime reads the notes of every loaded object and reports units linked
 * together that were compiled under different settings. */
#define SELINST_NOTE_NAME     "selinst"
#define SELINST_NOTE_SETTINGS 1u

/* Every unit the plugin compiles that has loops without hooks carries a
 * section SELINST_LOOP_SECTION, not loaded at run time (no flags), of
 * lines "LINE LAST FILE\n": each such loop of each function, instrumented
 * or not (keyword line, the body's last line, the file as given to the
 * compiler).  SELINST_SAMPLE reads it from each module's file when it
 * writes a profile and names a sample in such a loop "~loop FILE:LINE". */
#define SELINST_LOOP_SECTION ".selinst.loops"

/*
 * Static, read-only descriptor of one instrumented region.  The plugin
 * emits one per region into the object that holds the code; hooks receive
 * its address.  Identity is the address within one process image and
 * (name, file, line, kind) across images: two copies of one COMDAT
 * function, or one region seen from two shared objects, are merged by the
 * runtime when it writes the profile.  Never written at run time, except
 * the one bit SELINST_REGION_THROTTLED of `reserved`, and only in a
 * descriptor whose `reserved` has SELINST_REGION_WRITABLE (the plugin's
 * descriptors are writable data for this; hand-made ones may be const),
 * the bit SELINST_REGION_ITERATE, only in an ITERABLE one, and the bit
 * SELINST_REGION_FLOW.
 */
struct selinst_region {
	uint32_t abi_version;	/* SELINST_ABI_VERSION */
	uint32_t kind;		/* enum selinst_region_kind */
	uint32_t line;		/* line of the function or loop keyword */
	uint32_t reserved;	/* flags: SELINST_REGION_* (hand-made: zero) */
	const char *name;	/* source-level name: "foo", "ns::f<int>(int)",
				   "bar [omp parallel at x.c:12]", "x.c:16" */
	const char *file;	/* source file as given to the compiler */
	const char *function;	/* loops: the enclosing function's name;
				   a function with SELINST_REGION_LOOP_TABLE:
				   its uninstrumented loops in its own file,
				   "LINE-LAST LINE-LAST ..." (keyword line, the
				   body's last line), for SELINST_SAMPLE to name
				   the loop a sample fell in; otherwise NULL */
};

/* ---- Hook ABI: calls inserted by the plugin ---------------------------- */

/* Entry and exit of an instrumented function.  The exit hook runs on every
 * way out: each return, an exception unwinding through the frame (from a
 * cleanup landing pad), before a noreturn call.  If REGION is not on top
 * of the thread's region stack, the runtime closes the regions above it
 * (loops left by return or exception); if it is not on the stack at all
 * (already dropped by a longjmp resync), the call is ignored. */
void __selinst_enter(const struct selinst_region *region);
void __selinst_exit(const struct selinst_region *region);

/* Loop regions.  enter runs on each edge into the loop (once per entry of
 * the loop statement, zero-trip entries included) and returns the entry's
 * iteration cell; exit runs on each exit edge (exceptions included) with
 * the number of times the body started during this entry (a counter kept
 * in a register by the instrumented code).  Before each call inside the
 * loop the code stores that count in the cell, so a loop left by longjmp,
 * or still open when its thread ends, is counted as of its last call. */
uint64_t *__selinst_loop_enter(const struct selinst_region *region);
void __selinst_loop_exit(const struct selinst_region *region,
			 uint64_t iterations);

/* Iterations of an ITERABLE loop region whose descriptor has the bit
 * SELINST_REGION_ITERATE: called where each iteration's body starts, with
 * the number of body starts so far in this entry (1 for the first).  The
 * instrumented code tests the bit first, so the call costs nothing in the
 * loops SELINST_ITERATE does not name. */
void __selinst_loop_iteration(const struct selinst_region *region,
			      uint64_t iteration);

/* Called on the path after each setjmp/sigsetjmp returns (first return
 * and every longjmp back).  The runtime drops every open region that was
 * entered in a stack frame deeper than the caller's, closing it at the
 * current time.  It compares stack addresses, so it needs no argument. */
void __selinst_setjmp_return(void);

/* ---- Control API: for users ------------------------------------------- */

/* Stop / restart recording, process-wide.  While paused, hooks keep each
 * thread's region stack consistent but count no calls; time spent paused
 * is not attributed to regions entered while paused.  Calls nest: two
 * pauses need two resumes. */
void selinst_pause(void);
void selinst_resume(void);

/* Write the profile now (a snapshot; recording goes on).  PATH NULL means
 * the normal output path.  Returns 0 on success, -1 with errno set. */
int selinst_dump(const char *path);

/* SELINST_MODE=trace or flight: start or stop recording events (they
 * start on at start-up, or at SELINST_TRACE_AFTER); nothing in profile
 * mode.  The profile goes on being recorded either way. */
void selinst_trace_on(void);
void selinst_trace_off(void);

/* Name a region by hand.  The runtime copies NAME (a reused buffer is
 * safe); a string literal is cheapest, being recognised by its address.
 * Begin and end must nest with other regions in the same thread. */
void selinst_region_begin(const char *name);
void selinst_region_end(const char *name);

/* Phases: a named span of the run, such as one time step, marked by hand.
 * Each begin...end is one iteration of phase NAME in the calling thread;
 * the profile keeps what every iteration cost (selinst-report --phases).
 * Phases are regions too: they must nest with the thread's other regions.
 * An end without its begin, or ending another phase than the innermost
 * open one, is reported once on stderr and ignored. */
void selinst_phase_begin(const char *name);
void selinst_phase_end(const char *name);
/* ---- Layers: for libselinst-mpi --------------------------------------- */

/* Adds SENT and RECEIVED bytes to the open activation of REGION (a
 * descriptor of kind SELINST_KIND_MPI entered with __selinst_enter and not
 * yet exited) in the calling thread; ignored when REGION is not the
 * thread's innermost open region (paused, or not recorded). */
void __selinst_mpi_bytes(const struct selinst_region *region, uint64_t sent,
			 uint64_t received);

/* Attributes understood by the plugin.  Put SELINST_ALWAYS on a function
 * to instrument it whatever its score; the standard
 * __attribute__((no_instrument_function)) keeps one out whatever its
 * score. */
#if defined(__has_attribute)
#if __has_attribute(selinst_instrument)	/* true only with the plugin loaded */
#define SELINST_ALWAYS __attribute__((selinst_instrument))
#endif
#endif
#ifndef SELINST_ALWAYS
#define SELINST_ALWAYS
#endif
#define SELINST_NEVER __attribute__((no_instrument_function))

#ifdef __cplusplus
}
#endif
#endif /* SELINST_H */
