/* SPDX-License-Identifier: MIT */
/*
 * signals.c - the ways a process ends: the final write at exit, and fatal
 * signals (flush, then die of the signal as if we were not there).
 *
 * exit() / return from main: an atexit handler registered at start-up
 * writes the profile (the static library: its last destructor); regions
 * still open are counted up to that moment.
 * Signals whose default action ends the process (SIGSEGV, SIGABRT, SIGTERM,
 * SIGBUS, SIGFPE, SIGILL, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGXCPU,
 * SIGXFSZ): at start-up a handler is installed only for those whose
 * disposition is SIG_DFL (an ignored SIGINT of a background job, or the
 * program's own handler, is left alone); it writes the profile, restores
 * SIG_DFL and re-raises.  A program that installs its own handler later
 * simply replaces ours.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#endif
#include <unistd.h>
#include "internal.h"

static const int fatal[] = {
	SIGSEGV, SIGABRT, SIGTERM, SIGBUS, SIGFPE, SIGILL,
	SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGXCPU, SIGXFSZ,
};
static int in_fatal;
static void on_fatal(int sig);

/* 1 once the final writer is done; in a child forked while it ran (a
 * signal handler of the exiting thread that forks), where the writer
 * thread does not exist, set at once by the fork handler. */
static int writer_done;

static void *write_final(void *unused)
{
	(void)unused;
	si_write_profile(NULL, 1, 0, 0);
	__atomic_store_n(&writer_done, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &writer_done, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	return NULL;
}

void si_final_writer_after_fork(void)
{
	/* Only a fork during the final write (begun: si_final_written) finds
	 * a writer: no write, no page copy, otherwise. */
	if (si_final_written)
		writer_done = 1;
}

/* The exiting thread's wait: a futex, not pthread_join, so that a forked
 * child (see writer_done) does not wait for a thread it lacks; the
 * timeout rechecks after a signal handler ran. */
static void wait_for_writer(void)
{
	while (!__atomic_load_n(&writer_done, __ATOMIC_ACQUIRE)) {
		struct timespec step = { 0, 10 * 1000 * 1000 };
		syscall(SYS_futex, &writer_done, FUTEX_WAIT_PRIVATE, 0, &step, NULL, 0);
	}
}

/* Where the final write runs.  The profile's own text allocates nothing
 * from malloc (walloc.c), so it runs in the exiting thread: no thread to
 * start, nothing for malloc to consolidate, no lock of malloc's to meet,
 * even where exit() is called from a handler that interrupted malloc.
 * Only where a trace is on
 * (si_write_needs_malloc) does the write still allocate, and then what
 * follows holds.
 *
 * Whether a thread of the runtime's may be started at exit.  glibc's
 * fork takes its locks (atfork handlers' list, malloc arenas, stdio list)
 * only once a process has had a second thread, so that fork stays usable
 * from a signal handler of a single-threaded program; a writer thread
 * ends that for the rest of the exit.  A handler of the program's that
 * forks while the exit path holds one of those locks (__cxa_finalize
 * unregistering a library's atfork handlers, free in a destructor) then
 * waits for itself forever: t-rt-stress's fork_in_handler hung so under
 * load, in libm's __cxa_finalize.  So a single-threaded program with a
 * signal handler of its own writes in the exiting thread; the runtime's
 * handlers (fatal signals, sampling) never fork.  Except where the exit
 * seems to come from inside such a handler (its signal blocked in the
 * mask the exit path found, ENTRY_MASK: a handler that calls exit()): the
 * interrupted code may hold malloc's lock, which a single-threaded
 * process's malloc does not take, so the write's allocations would
 * corrupt the heap there (glibc aborted in about 1 run of 3); the writer
 * thread allocates from an arena of its own. */
enum final_writer { WRITE_HERE, WRITE_IN_THREAD, WRITE_IN_THREAD_IN_HANDLER };

static enum final_writer final_writer(const sigset_t *entry_mask)
{
	if (!si_write_needs_malloc())
		return WRITE_HERE;
	int own = 0;
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction cur;
		if (sigaction(sig, NULL, &cur) != 0 || cur.sa_handler == SIG_DFL ||
		    cur.sa_handler == SIG_IGN || si_sample_is_handler(&cur))
			continue;
		if (!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == on_fatal)
			continue;
		if (sigismember(entry_mask, sig) == 1)
			return WRITE_IN_THREAD_IN_HANDLER;	/* exit() in the program's handler */
		own = 1;
	}
#if __has_include(<sys/single_threaded.h>)
	if (!__libc_single_threaded)
		return WRITE_IN_THREAD;	/* fork locks already: a thread changes nothing */
#endif
	return own ? WRITE_HERE : WRITE_IN_THREAD;
}

/* "selinst: WHY: the profile is not written ...", without stdio (it may
 * allocate) and in one write. */
static void say_not_written(const char *why)
{
	static const char head[] = "selinst: ", tail[] = ": the profile is not written "
		"(writing would abort the program or hang it)\n";
	char line[256];
	size_t n = 0, w = strlen(why);
	if (w > sizeof line - sizeof head - sizeof tail)
		w = sizeof line - sizeof head - sizeof tail;
	memcpy(line, head, sizeof head - 1), n += sizeof head - 1;
	memcpy(line + n, why, w), n += w;
	memcpy(line + n, tail, sizeof tail - 1), n += sizeof tail - 1;
	ssize_t done = write(STDERR_FILENO, line, n);
	(void)done;
}

/* What the final write needs, tried in a child: a thread start
 * (pthread_create allocates the thread's TLS vector in the caller), then
 * memory from the caller's malloc arena.  The child of a process with
 * threads skips malloc's lock until it has a thread of its own again;
 * after the start its allocations wait for the lock the interrupted call
 * holds, as the parent's would. */
static void *idle_thread(void *arg) { return arg; }
static void start_thread_and_allocate(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, idle_thread, NULL) != 0 || pthread_join(t, NULL) != 0)
		_exit(1);
	free(malloc(64));
	free(malloc(4000));
	free(malloc(200000));
}

/* Whether child PID lived: it counts as dead when a signal ended it, or
 * when it is not done within 1 s (waiting for a malloc lock that the
 * interrupted thread holds and nobody in the child will release). */
static int child_lived(pid_t pid)
{
	int status = 0;
	for (int ms = 0;; ms++) {
		pid_t done = waitpid(pid, &status, WNOHANG);
		if (done == pid)
			return !WIFSIGNALED(status);
		if (done < 0 && errno != EINTR)
			return 0;	/* reaped by a thread of the program's (waitpid(-1)):
					   no way to tell, so not safe */
		if (ms == 1000) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			return 0;
		}
		struct timespec tick = { 0, 1000 * 1000 };
		nanosleep(&tick, NULL);
	}
}

/* A write from a signal handler (exit() called in a program's handler,
 * or the runtime's fatal-signal handler) may find malloc interrupted:
 * its lists half updated (glibc aborted: "malloc(): mismatching
 * next->prev_size", about 1 run in 600 of t-rt-fork-signal's
 * exit_in_handler) or, with threads, its arena lock held by this very
 * thread (the write waited for itself: nearly every exit_in_handler run
 * with a second thread, and 9 SIGTERMs of 10 to a malloc-heavy program
 * with threads).  What happens is decided by the heap alone, so a child
 * (_Fork: no atfork handlers, a copy of the heap) makes ATTEMPT first;
 * the parent goes on only if the child lived.  1: safe, 0: it would abort
 * or hang, or there is no way to tell.  The SIGCHLD the child raises is
 * consumed, so the program's handler does not see it in this thread; a
 * thread of the program's with SIGCHLD unblocked, or one in waitpid(-1),
 * can still see this child (doc/runtime.md).  The caller blocks all
 * signals. */
static int child_survives(void (*attempt)(void))
{
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
	struct sigaction dfl, old_chld;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigset_t pending;
	int was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGCHLD) == 1;
	if (sigaction(SIGCHLD, NULL, &old_chld) != 0)
		return 0;
	/* An ignored SIGCHLD (or SA_NOCLDWAIT) reaps the child before its
	 * status is known: the default meanwhile.  Any other disposition is
	 * left alone (setting one discards a pending SIGCHLD). */
	int reaps = old_chld.sa_handler == SIG_IGN || (old_chld.sa_flags & SA_NOCLDWAIT);
	if (reaps && sigaction(SIGCHLD, &dfl, NULL) != 0)
		return 0;
	pid_t parent = getpid();
	pid_t pid = _Fork();
	if (pid == 0) {
		/* Never outlive the parent (killed during the probe), nor stall
		 * past 2 s of its own; die of the abort, not in the runtime's
		 * fatal handler, and silently: glibc's message is the
		 * parent's to avoid. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		sigaction(SIGABRT, &dfl, NULL);
		sigaction(SIGSEGV, &dfl, NULL);
		sigaction(SIGALRM, &dfl, NULL);
		sigset_t alrm;
		sigemptyset(&alrm);
		sigaddset(&alrm, SIGALRM);
		pthread_sigmask(SIG_UNBLOCK, &alrm, NULL);
		alarm(2);
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		attempt();
		_exit(0);
	}
	/* No child (RLIMIT_NPROC, pids.max, memory): no way to tell, so not
	 * safe. */
	int lived = pid > 0 ? child_lived(pid) : 0;
	if (pid > 0 && !was_pending) {	/* this child's, before any handler runs */
		sigset_t chld;
		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		struct timespec now = { 0, 0 };
		while (sigtimedwait(&chld, NULL, &now) < 0 && errno == EINTR)
			;
	}
	if (reaps)
		sigaction(SIGCHLD, &old_chld, NULL);
	return lived;
#else
	(void)attempt;
	return 1;
#endif
}

/* The final write runs on a thread of its own, which the exiting thread
 * waits for: its allocations (the emitter's buffer, the snapshot copies)
 * then come from that thread's malloc arena.  In the exiting thread's
 * arena the first large request would consolidate every small chunk the
 * program freed, work the plain program never does (cJSON's test run: 12.7
 * million instructions, 5.5% of the run).  Signals are blocked in the
 * writer (its mask is inherited); without a thread (none may be started:
 * writer_thread_safe, or it could not be), the exiting thread writes. */
void si_at_exit(void)
{
	/* A vfork child that calls exit() shares the parent's memory: it
	 * must not write, nor mark the profile written. */
	if (si_final_written || !si_output_is_ours())
		return;
	si_final_written = 1;
	int saved = errno;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_t attr;
	pthread_t writer;
	int made = 0;
	__atomic_store_n(&writer_done, 0, __ATOMIC_RELAXED);
	pid_t pid = getpid();
	enum final_writer how = final_writer(&old);
	int in_handler = how == WRITE_IN_THREAD_IN_HANDLER;
	if (in_handler && !child_survives(start_thread_and_allocate))
		how = WRITE_HERE;
	if (how != WRITE_HERE && pthread_attr_init(&attr) == 0) {
		made = pthread_create(&writer, &attr, write_final, NULL) == 0;
		pthread_attr_destroy(&attr);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (made) {
		wait_for_writer();
		/* Then joined, where it exists (not in a child forked by a
		 * handler meanwhile): a detached writer could still be
		 * exiting when the process ended, its thread's memory
		 * "possibly lost" to valgrind --leak-check, which failed
		 * test suites run under valgrind --error-exitcode (jq's).
		 * After exit() in a handler too: the child that found the
		 * heap usable joined its thread as well. */
		if (getpid() == pid)
			pthread_join(writer, NULL);
	} else if (!in_handler)
		si_write_profile(NULL, 1, 0, 0);
	else	/* writing here would allocate from the same lists */
		say_not_written("exit() was called in a signal handler that "
				"may have interrupted malloc");
	errno = saved;
}

#ifdef SI_STATIC
/* In a static program, atexit handlers run before the program's own
 * destructor functions (.fini_array), which would then be missing from
 * the profile.  The final write is the last destructor instead: priority
 * 101 is the lowest the linker sorts, run after every unprioritised one.
 * (With the shared library, the atexit handler runs when libc finalizes
 * libselinst.so, after the program's destructors: nothing to do.) */
__attribute__((destructor(101))) static void final_write(void)
{
	si_at_exit();
}
#endif

/* The write in the handler runs in the interrupted thread.  Where it
 * allocates (si_write_needs_malloc) and the program has threads, so that
 * malloc locks, only once a child found the heap usable (child_survives;
 * the profile is lost, and stderr says so, rather than the process
 * hanging).  A single-threaded malloc takes no lock. */
static int fatal_write_safe(void)
{
	if (!si_write_needs_malloc())
		return 1;
#if __has_include(<sys/single_threaded.h>)
	if (__libc_single_threaded)
		return 1;
#endif
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int safe = child_survives(start_thread_and_allocate);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!safe)
		say_not_written("a fatal signal may have interrupted malloc");
	return safe;
}

/* The signal whose handler is writing (0: none): a crash inside that
 * write (a heap the program corrupted, single-threaded) ends the process
 * with it, as the plain build would have ended, not with the crash's own
 * (a SIGTERM in malloc died of SIGABRT in 3 runs of 300). */
static int writing_for;

static void on_fatal(int sig)
{
	int saved = errno;
	int first = __atomic_load_n(&writing_for, __ATOMIC_ACQUIRE);
	if (first && first != sig) {
		signal(first, SIG_DFL);
		raise(first);
	}
	if (si_output_is_ours() && !__atomic_exchange_n(&in_fatal, 1, __ATOMIC_ACQ_REL) &&
	    !si_final_written) {
		si_final_written = 1;
		__atomic_store_n(&writing_for, sig, __ATOMIC_RELEASE);
		if (fatal_write_safe())
			si_write_profile(NULL, 1, 1, sig);
		__atomic_store_n(&writing_for, 0, __ATOMIC_RELEASE);
	}
	/* SA_RESETHAND put SIG_DFL back; SA_NODEFER lets this kill us now. */
	signal(sig, SIG_DFL);
	errno = saved;
	raise(sig);
}

void si_signals_init(void)
{
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
		struct sigaction old;
		if (sigaction(fatal[i], NULL, &old) != 0)
			continue;
		if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
			struct sigaction sa;
			memset(&sa, 0, sizeof sa);
			sa.sa_handler = on_fatal;
			sigemptyset(&sa.sa_mask);
			sa.sa_flags = SA_RESETHAND | SA_NODEFER;
			sigaction(fatal[i], &sa, NULL);
		}
	}
}
