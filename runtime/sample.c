/* SPDX-License-Identifier: MIT */
/*
 * sample.c - hybrid sampling (SELINST_SAMPLE=HZ, issue 14): each thread
 * with a profile gets a timer on its own CPU clock that sends it a
 * real-time signal HZ times per CPU-second.  The handler needs no
 * unwinding: the thread's shadow stack already says which calling-context
 * node is running, so a sample is just (node id, interrupted PC; for a PC
 * in a library, two words of the stack that may name its caller), counted
 * in a table of the thread's own (mmap'd when the thread is set up; the
 * handler never allocates and never takes a lock).  At write time each
 * distinct PC is written as its module and file address, with its count
 * under its node; selinst-report names the functions and loops.
 *
 * A sample taken while one of the thread's hooks (or any runtime code that
 * holds in_hook) is running is not placed in the tree: the stack may be
 * half updated.  It is counted as "in runtime" for the thread instead.
 * A sample in a frame entered while paused goes to the nearest counted
 * frame below it, as a hook there would.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <dlfcn.h>
#include <limits.h>
#include <sys/auxv.h>
#include "internal.h"
#include <pthread.h>

#define SAMPLE_SLOTS	(1u << 14)	/* per thread: 512 KiB of address space */
#define SAMPLE_MAX_HZ	100000
/* On by default: without samples a region's exclusive time cannot be
 * split into the uninstrumented functions that spent it, and region times
 * alone are elapsed time.  1000 Hz costs a signal a CPU millisecond (about
 * 0.1% of CPU on this machine: doc/runtime.md, "Sampling") and gives the
 * sampling error of a share P of T CPU seconds as sqrt(P(1-P)/(1000 T)):
 * about 1.5 points at 50% of a one-second run. */
#define SAMPLE_DEFAULT_HZ	1000
#define SAMPLE_SCAN	16	/* stack words looked at for a library sample's caller */
#define SAMPLE_RANGES	128	/* executable segments of the modules known */

static int sample_on;
static uint64_t sample_hz;
static int sample_signo;
static pthread_once_t sample_once = PTHREAD_ONCE_INIT;

/* The interrupted thread's current node id: the top frame's node, or the
 * nearest counted one below frames entered while paused (root: 0). */
static uint32_t current_node(const struct si_thread *t)
{
	const struct si_frame *f = t->top;
	while (f > t->stack && f->node == &t->paused)
		f--;
	return f > t->stack ? SI_NODE_ID(f->node) : 0;
}

/* The executable segments of the modules mapped when sampling started
 * (the program first, its libraries), found once by sample_init:
 * dl_iterate_phdr is not async-signal-safe, the handler only reads them. */
static struct text_range { uintptr_t lo, hi; uint32_t module; } ranges[SAMPLE_RANGES];
static uint32_t nranges, nmodules;

static int add_ranges(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size, (void)arg;
	for (int i = 0; i < info->dlpi_phnum && nranges < SAMPLE_RANGES; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && ph->p_memsz)
			ranges[nranges++] = (struct text_range){ info->dlpi_addr + ph->p_vaddr,
				info->dlpi_addr + ph->p_vaddr + ph->p_memsz, nmodules + 1 };
	}
	nmodules++;
	return 0;
}

/* The ranges by address, and their hull, so that the handler rejects
 * most words (stack addresses, numbers) in two comparisons and the rest
 * at the first range above them. */
static uintptr_t text_lo = UINTPTR_MAX, text_hi;

static void sort_ranges(void)
{
	for (uint32_t i = 1; i < nranges; i++)
		for (uint32_t j = i; j > 0 && ranges[j].lo < ranges[j - 1].lo; j--) {
			struct text_range x = ranges[j];
			ranges[j] = ranges[j - 1];
			ranges[j - 1] = x;
		}
	for (uint32_t i = 0; i < nranges; i++) {
		text_lo = ranges[i].lo < text_lo ? ranges[i].lo : text_lo;
		text_hi = ranges[i].hi > text_hi ? ranges[i].hi : text_hi;
	}
}

/* The module (1: the program) whose code holds A; 0: none known. */
static uint32_t text_module(uintptr_t a)
{
	if (a < text_lo || a >= text_hi)
		return 0;
	for (uint32_t i = 0; i < nranges && a >= ranges[i].lo; i++)
		if (a < ranges[i].hi)
			return ranges[i].module;
	return 0;
}

/* For a sample whose PC is not in the program's own code (libm's exp, a
 * libc function, a library's leaf): up to two words just above the
 * interrupted stack pointer that lie in another module's code, each
 * possibly the return address into its caller (a leaf library function
 * such as exp keeps it at or near [SP]).  Which one is a return address
 * (preceded by a call) is decided at write time, not here: reading code
 * here could fault on a library unmapped meanwhile.  Only the thread's
 * own stack is read, and never past its top.  Its words are other frames'
 * (padding and locals too): not checked by AddressSanitizer, whose
 * redzones there are no error of the program's (t-rt-signal-san reported
 * a stack-buffer-underflow here once). */
__attribute__((no_sanitize_address))
static void stack_callers(const struct si_samples *s, const ucontext_t *uc, uintptr_t pc,
			  uintptr_t ret[2])
{
	ret[0] = ret[1] = 0;
	uint32_t m = text_module(pc);
	uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	if (m == 1 || sp < s->stack_lo || sp >= s->stack_hi || (sp & 7))
		return;
	size_t n = (s->stack_hi - sp) / sizeof(uintptr_t);
	const uintptr_t *w = (const uintptr_t *)sp;
	int k = 0;
	for (size_t i = 0; i < n && i < SAMPLE_SCAN && k < 2; i++) {
		uint32_t wm = text_module(w[i]);
		if (wm && wm != m)
			ret[k++] = w[i];
	}
}

/* Count (NODE, PC, RET) in T's table; linear probing, no growth: when the
 * table is three-quarters full new keys are dropped (counted). */
/* Counters only the thread's own handler changes, read by a writer in
 * another thread meanwhile: a relaxed load and store (no locked
 * instruction; a plain add, as the handler is the only writer), so that
 * the reader gets a whole value, and ThreadSanitizer sees no race. */
static void bump(uint32_t *c, uint32_t w)
{
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + w, __ATOMIC_RELAXED);
}

static void bump64(uint64_t *c, uint64_t w)
{
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + w, __ATOMIC_RELAXED);
}

static void table_add(struct si_samples *s, uint32_t node, uintptr_t pc, const uintptr_t ret[2],
		      uint32_t w)
{
	if (!pc)
		pc = 1;		/* 0 marks an empty slot */
	uint64_t h = ((uint64_t)pc ^ ((uint64_t)node << 40) ^ ((uint64_t)ret[0] << 7)) *
		     0x9E3779B97F4A7C15ull;
	uint32_t mask = SAMPLE_SLOTS - 1;
	for (uint32_t i = (uint32_t)(h >> 50) & mask;; i = (i + 1) & mask) {
		struct si_sample_slot *x = &s->slot[i];
		if (x->pc == pc && x->node == node && x->ret[0] == ret[0] && x->ret[1] == ret[1]) {
			bump(&x->count, w);
			return;
		}
		if (!x->pc) {
			if (s->used >= SAMPLE_SLOTS / 4 * 3) {
				bump64(&s->dropped, w);
				return;
			}
			x->node = node;
			x->count = w;
			x->ret[0] = ret[0];
			x->ret[1] = ret[1];
			/* A writer copying the table (acquire on pc) sees whole
			 * slots; on x86-64 this is a plain store. */
			__atomic_store_n(&x->pc, pc, __ATOMIC_RELEASE);
			bump(&s->used, 1);
			return;
		}
	}
}

static void on_sample(int sig, siginfo_t *info, void *uc_arg)
{
	(void)sig;
	if (info->si_code != SI_TIMER)
		return;		/* sent by someone else: not a sample */
	int saved = errno;
	struct si_thread *t = si_self;
	struct si_samples *s = t->samples;	/* si_nothread: NULL */
	if (s) {
		/* The kernel checks CPU-time timers on its scheduler tick (often
		 * 250 Hz): above that rate one signal stands for several
		 * expirations, which it counts as overruns.  Weighting the
		 * sample by them keeps counts proportional to CPU time at the
		 * rate asked for. */
		uint32_t w = 1 + (info->si_overrun > 0 ? (uint32_t)info->si_overrun : 0);
		bump64(&s->total, w);
		if (t->in_hook) {
			bump64(&s->in_runtime, w);
		} else {
			const ucontext_t *uc = uc_arg;
			uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP], ret[2];
			stack_callers(s, uc, pc, ret);
			table_add(s, current_node(t), pc, ret, w);
		}
	}
	errno = saved;
}

static void warn(const char *what, const char *val, const char *why)
{
	fprintf(stderr, "selinst: %s=%s %s; sampling is off\n", what, val, why);
}

/* SELINST_SAMPLE_SIGNAL: a real-time signal number, default SIGRTMIN+3. */
static int choose_signal(void)
{
	const char *e = getenv("SELINST_SAMPLE_SIGNAL");
	uint64_t v = (uint64_t)SIGRTMIN + 3;
	if (e && *e && si_parse_decimal(e, (uint64_t)SIGRTMIN, (uint64_t)SIGRTMAX, &v) != 0) {
		char why[96];
		snprintf(why, sizeof why, "is not a real-time signal number (%d..%d)",
			 SIGRTMIN, SIGRTMAX);
		warn("SELINST_SAMPLE_SIGNAL", e, why);
		return -1;
	}
	return (int)v;
}

/* Whether the program runs under valgrind (its preloaded core library):
 * there the handler's look at the stack words above the interrupted
 * frame (stack_callers) reads other frames' uninitialised words on
 * purpose, and memcheck would report each as the program's error; and
 * the CPU clock runs tens of times slower, so the rate would not be the
 * rate asked for. */
static int under_valgrind(void)
{
	const char *pre = getenv("LD_PRELOAD");
	return pre && strstr(pre, "/vgpreload_") != NULL;
}

/* Reads the settings and installs the handler, once, when the first
 * thread is set up: a program's own handler on the signal, installed
 * before that, is left alone and sampling stays off. */
static void sample_init(void)
{
	const char *e = getenv("SELINST_SAMPLE");
	if (e && (strcmp(e, "0") == 0 || strcmp(e, "off") == 0))
		return;
	/* Under ThreadSanitizer or valgrind only when asked for.  TSan
	 * defers signals to its own points, so the samples are not where
	 * the time went, and the handler's hand-over to a writer thread is
	 * ordered by x86's stores, which it does not model (race reports on
	 * the runtime's own memory in a program that has none). */
	if ((!e || !*e) && (si_under_tsan() || under_valgrind()))
		return;
	sample_hz = SAMPLE_DEFAULT_HZ;
	if (e && *e && si_parse_decimal(e, 1, SAMPLE_MAX_HZ, &sample_hz) != 0) {
		warn("SELINST_SAMPLE", e, "is not a rate in Hz (1..100000, e.g. 1000)");
		return;
	}
	int sig = choose_signal();
	if (sig < 0)
		return;
	struct sigaction old;
	if (sigaction(sig, NULL, &old) != 0 ||
	    (old.sa_flags & SA_SIGINFO) || (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN)) {
		char val[16];
		snprintf(val, sizeof val, "%d", sig);
		warn("SELINST_SAMPLE_SIGNAL", val,
		     "is in use by the program (SELINST_SAMPLE_SIGNAL=N picks another)");
		return;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sample;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	dl_iterate_phdr(add_ranges, NULL);
	sort_ranges();
	if (sigaction(sig, &sa, NULL) != 0)
		return;
	sample_signo = sig;
	__atomic_store_n(&sample_on, 1, __ATOMIC_RELEASE);
}

#ifndef SI_STATIC
static int resolve_real(void);
#endif

/* The library's constructor (thread.c), after the global set-up: unless
 * sampling is off, the main thread is set up now rather than at its
 * first hook, so that a program with no hooks at all (built without the
 * plugin and run with LD_PRELOAD=libselinst.so, or with nothing selected)
 * is sampled too, its samples under the thread's root (sampling-only
 * mode); other threads are set up as they start (pthread_create below). */
void si_sample_ctor(void)
{
#ifndef SI_STATIC
	resolve_real();
#endif
	pthread_once(&sample_once, sample_init);
	if (__atomic_load_n(&sample_on, __ATOMIC_ACQUIRE))
		si_thread_init();
}

#ifndef SI_STATIC
/* pthread_create, interposed (shared library only, as exec.c's functions):
 * while sampling, a new thread is set up, and its timer armed, before its
 * start routine runs, hooks or not.  Otherwise, and for the final
 * writer's thread, libc's own function unchanged. */
struct sample_start { void *(*fn)(void *); void *arg; };

static void *sampled_start(void *p)
{
	struct sample_start st = *(struct sample_start *)p;
	free(p);
	/* Under ThreadSanitizer its own start routine is ST.FN (its
	 * pthread_create calls this one): the thread is not its yet, and the
	 * registry lock's annotations crashed in it.  The thread is then set
	 * up, its timer armed, at its first hook. */
	if (!si_under_tsan())
		si_thread_init();
	return st.fn(st.arg);
}

typedef int create_fn(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

SI_EXPORT int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *),
			     void *arg)
{
	static create_fn *real;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
	if (!real)
		return EAGAIN;
	struct sample_start *st = NULL;
	if (__atomic_load_n(&sample_on, __ATOMIC_ACQUIRE) && !si_final_written &&
	    (st = malloc(sizeof *st)) != NULL) {
		st->fn = fn;
		st->arg = arg;
		int rc = real(th, attr, sampled_start, st);
		if (rc)
			free(st);
		return rc;
	}
	return real(th, attr, fn, arg);
}
#endif

/* Whether the sampling signal still has the runtime's handler.  A handler
 * the program installs on it after sampling started replaces ours and
 * gets the timers' signals: nothing can call the program back, so this is
 * checked where the runtime runs anyway (a thread's set-up and end, each
 * write) and reported once; no new timer is armed after that. */
static int handler_lost;

static int handler_ours(void)
{
	struct sigaction cur;
	if (__atomic_load_n(&handler_lost, __ATOMIC_RELAXED))
		return 0;
	if (sigaction(sample_signo, NULL, &cur) != 0 ||
	    ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_sample))
		return 1;
	if (!__atomic_exchange_n(&handler_lost, 1, __ATOMIC_RELAXED)) {
		char msg[320];	/* one write(): a write may run in a signal handler */
		int n = snprintf(msg, sizeof msg, "selinst: the program installed its own handler "
				 "on signal %d (SELINST_SAMPLE_SIGNAL) after sampling started: it "
				 "gets the sampling timers' signals, and samples stop; pick another "
				 "signal with SELINST_SAMPLE_SIGNAL=N\n", sample_signo);
		if (n > 0 && write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1) < 0)
			n = 0;
	}
	return 0;
}

int si_sample_handler_lost(void) { return handler_lost; }

/* Whether SA is the sampling handler (the exit path tells the runtime's
 * handlers from the program's: signals.c). */
int si_sample_is_handler(const struct sigaction *sa)
{
	return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == on_sample;
}

#ifndef SI_STATIC
/* sigaction and signal, interposed (shared library only, as
 * pthread_create): a program that puts SIG_DFL or SIG_IGN on the sampling
 * signal after sampling started (a daemon resetting every signal at
 * start-up, a test harness) would be ended by the next timer signal
 * (SIG_DFL ends the process on a real-time signal).  The runtime's
 * handler stays in place, sampling goes on, and the program's setting is
 * kept as its view: what its next setting call returns as the old action.
 * A signal of that number sent to the process is ignored meanwhile (the
 * handler counts only its timers' signals).  A handler of the program's
 * own passes through to libc (and handler_ours reports it).  Every other
 * signal goes straight to libc's functions. */
typedef int sigaction_fn(int, const struct sigaction *, struct sigaction *);
typedef sighandler_t signal_fn(int, sighandler_t);
static sigaction_fn *real_sigaction;
static signal_fn *real_signal;
static struct sigaction program_view;	/* the program's last SIG_DFL/SIG_IGN */
static int program_view_set;

/* Resolved at the constructor (dlsym is not async-signal-safe, and a
 * handler may set a disposition), or at a call before it. */
static int resolve_real(void)
{
	if (!real_sigaction)
		*(void **)&real_sigaction = dlsym(RTLD_NEXT, "sigaction");
	if (!real_signal)
		*(void **)&real_signal = dlsym(RTLD_NEXT, "signal");
	return real_sigaction && real_signal;
}

static int keeps_ours(int sig, const struct sigaction *act)
{
	return act && sig == sample_signo && __atomic_load_n(&sample_on, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&handler_lost, __ATOMIC_RELAXED) &&
	       (act->sa_handler == SIG_DFL || act->sa_handler == SIG_IGN);
}

SI_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (!resolve_real()) {
		errno = ENOSYS;
		return -1;
	}
	if (!keeps_ours(sig, act)) {
		if (act && sig == sample_signo)
			program_view_set = 0;	/* its own handler: libc's from now */
		return real_sigaction(sig, act, old);
	}
	struct sigaction prev = program_view;
	int had = program_view_set;
	program_view = *act;
	program_view_set = 1;
	if (old) {
		if (had)
			*old = prev;
		else
			real_sigaction(sig, NULL, old);
	}
	return 0;
}

SI_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	if (!resolve_real()) {
		errno = ENOSYS;
		return SIG_ERR;
	}
	if (sig != sample_signo || !__atomic_load_n(&sample_on, __ATOMIC_ACQUIRE))
		return real_signal(sig, handler);
	/* glibc's signal(): BSD semantics, the signal blocked in its handler */
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, sig);
	sa.sa_flags = SA_RESTART;
	if (sigaction(sig, &sa, &old) != 0)
		return SIG_ERR;
	return (old.sa_flags & SA_SIGINFO) ? (sighandler_t)(void (*)(void))old.sa_sigaction
					   : old.sa_handler;
}
#endif

/* Hex digits at *P as a number; *P moves past them. */
static uintptr_t hex_at(const char **p)
{
	uintptr_t v = 0;
	for (;; (*p)++) {
		char c = **p;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			return v;
		v = v << 4 | (uintptr_t)d;
	}
}

/* One line of /proc/self/maps, "LO-HI perms ... [path]": when it is the
 * mapping that holds HERE, S's stack bounds from it.  The main thread's
 * stack ("[stack]") grows down below its mapping's start, up to the
 * stack limit: its bound is the limit. */
static void stack_line(struct si_samples *s, const char *line, uintptr_t here)
{
	const char *p = line;
	uintptr_t lo = hex_at(&p);
	if (*p != '-')
		return;
	p++;
	uintptr_t hi = hex_at(&p);
	if (here < lo || here >= hi)
		return;
	struct rlimit rl;
	if (strstr(p, "[stack]") && getrlimit(RLIMIT_STACK, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < hi && hi - rl.rlim_cur < lo)
		lo = hi - rl.rlim_cur;
	s->stack_lo = lo;
	s->stack_hi = hi;
}

/* The calling thread's stack bounds into S, from /proc/self/maps (the
 * mapping that holds a local variable), read with open and read only:
 * a thread may be set up by its first hook inside a signal handler, where
 * pthread_getattr_np (which allocates) is not safe; a small buffer, as
 * that handler may run on a small sigaltstack (whose bounds it then
 * finds: the thread's samples get no callers, never a wrong bound).
 * Lines longer than the buffer (long paths) are skipped.  Left 0 when
 * not found: no callers then. */
static void stack_bounds(struct si_samples *s)
{
	char buf[1024];
	uintptr_t here = (uintptr_t)&buf;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	size_t have = 0;
	for (;;) {
		ssize_t r = read(fd, buf + have, sizeof buf - 1 - have);
		if (r <= 0)
			break;
		have += (size_t)r;
		buf[have] = 0;
		char *line = buf, *nl;
		while ((nl = strchr(line, '\n')) != NULL) {
			*nl = 0;
			stack_line(s, line, here);
			line = nl + 1;
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (have == sizeof buf - 1)
			have = 0;	/* a line longer than the buffer: not a stack's */
	}
	close(fd);
}

/* Thread set-up (thread.c, the fork child too): its table and its timer. */
void si_sample_thread_start(struct si_thread *t)
{
	int saved = errno;
	pthread_once(&sample_once, sample_init);
	if (!__atomic_load_n(&sample_on, __ATOMIC_ACQUIRE) || t->sample_armed || !handler_ours())
		goto out;
	if (!t->samples && !(t->samples = si_mmap(sizeof *t->samples +
						 SAMPLE_SLOTS * sizeof(struct si_sample_slot))))
		goto out;
	/* Before the timer is armed; each time, as a kept table may serve
	 * another stack (a fork child's thread, a reused thread record). */
	t->samples->stack_lo = t->samples->stack_hi = 0;
	stack_bounds(t->samples);
	struct sigevent sev;
	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = sample_signo;
	sev._sigev_un._tid = t->tid;
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &t->sample_timer) != 0)
		goto out;
	uint64_t ns = 1000000000u / sample_hz;
	struct itimerspec it;
	it.it_interval.tv_sec = (time_t)(ns / 1000000000u);
	it.it_interval.tv_nsec = (long)(ns % 1000000000u);
	it.it_value = it.it_interval;
	if (timer_settime(t->sample_timer, 0, &it, NULL) != 0) {
		timer_delete(t->sample_timer);
		goto out;
	}
	t->sample_armed = 1;
out:
	errno = saved;
}

/* Thread exit (signals blocked), before its profile is copied: no more
 * samples for T; a table that got none is given back (a program of many
 * short threads keeps only the tables that hold something). */
void si_sample_thread_stop(struct si_thread *t)
{
	if (!t->sample_armed)
		return;
	int saved = errno;
	timer_delete(t->sample_timer);
	t->sample_armed = 0;
	handler_ours();
	if (t->samples && !t->samples->total) {
		munmap(t->samples, sizeof *t->samples + SAMPLE_SLOTS * sizeof(struct si_sample_slot));
		t->samples = NULL;
	}
	errno = saved;
}

/* The rate in force (0: off) and its signal, for the profile's header. */
int si_sample_hz(void) { return sample_on ? (int)sample_hz : 0; }

/* The final write is not sampled: its time is the runtime's, after the
 * program's (in the exiting thread, with the thread's timer still
 * running, it put samples in ~open_output at the top of the tree:
 * t-rt-sample-loops on a fresh machine; the writer thread it replaced
 * had every signal blocked).  The signal is blocked for the write, and
 * one that came meanwhile is taken off before it is unblocked.  A dump
 * (selinst_dump) is the program's call, sampled as before. */
void si_sample_quiet(struct si_sample_quiet *q)
{
	q->on = sample_on && sample_signo > 0;
	if (!q->on)
		return;
	sigset_t pending, sig;
	q->was_pending = sigpending(&pending) == 0 && sigismember(&pending, sample_signo) == 1;
	sigemptyset(&sig);
	sigaddset(&sig, sample_signo);
	pthread_sigmask(SIG_BLOCK, &sig, &q->mask);
}

void si_sample_loud(const struct si_sample_quiet *q)
{
	if (!q->on)
		return;
	sigset_t sig;
	sigemptyset(&sig);
	sigaddset(&sig, sample_signo);
	struct timespec now = { 0, 0 };
	if (!q->was_pending && sigismember(&q->mask, sample_signo) != 1)
		while (sigtimedwait(&sig, NULL, &now) < 0 && errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, &q->mask, NULL);
}
int si_sample_signal(void) { return sample_signo; }

/* ---- at write time -------------------------------------------------- */

/* Sampled addresses are not named in the process (profile version 3):
 * naming reads the modules' symbol tables and DWARF, which cost a short
 * process most of what sampling added to it (lz4, 25 ms: +2.7% in
 * instructions, +7% in CPU time, loading libdw and faulting the
 * program's DWARF in).  Each PC is written as its module (an index into
 * sample_modules: path and GNU build-id) and its file address there;
 * selinst-report names the function and the loop from the module's file.
 * The modules are listed with dl_iterate_phdr at each write (a library
 * opened since sampling started counts; one closed since cannot be
 * named), and only what the loader mapped is read: program headers and
 * the build-id note.  The vDSO has no file: it is the module "[vdso]",
 * which the report reads from its own vDSO when the build-ids agree (the
 * same kernel). */
struct si_wmod {
	uintptr_t base;		/* runtime address - file address */
	char *name;		/* dlpi_name, copied ("": the program) */
	const unsigned char *id;	/* the GNU build-id's bytes, mapped; NULL: none */
	size_t id_len;
	int vdso;
	int32_t index;		/* in sample_modules; -1: no sample there yet */
};
struct si_wseg { uintptr_t lo, hi; size_t mod; };

/* The current write's state (internal.h, struct si_sample_wstate), on
 * its writer's stack.  Per thread, and stacked: a handler's write nested
 * in this thread's write, or a fatal handler's that gave up waiting for
 * the registry lock while another thread writes (output.c), has its own
 * and leaves the other's alone. */
static __thread struct si_sample_wstate *ws __attribute__((tls_model("initial-exec")));

/* The build-id of the note segment PH of a module loaded at BASE into M. */
static void note_build_id(struct si_wmod *m, uintptr_t base, const ElfW(Phdr) *ph)
{
	size_t align = ph->p_align >= 8 ? 8 : 4;
	const unsigned char *p = (const unsigned char *)(base + ph->p_vaddr);
	const unsigned char *end = p + ph->p_memsz;
	while (!m->id && (size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
		size_t name = (n->n_namesz + align - 1) & ~(align - 1);
		size_t desc = (n->n_descsz + align - 1) & ~(align - 1);
		const unsigned char *d = p + sizeof *n + name;
		if (name > (size_t)(end - p) || desc > (size_t)(end - d))
			return;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(p + sizeof *n, "GNU", 4)) {
			m->id = d;
			m->id_len = n->n_descsz;
		}
		p = d + desc;
	}
}

static void *grow(void *a, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return a;
	size_t c = *cap ? 2 * *cap : 16;
	void *b = si_wrealloc(a, c * size);
	if (b)
		*cap = c;
	return b;
}

static int add_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct si_sample_wstate *w = arg;
	struct si_wmod *m = grow(w->mods, w->nmods, &w->capm, sizeof *w->mods);
	if (!m)
		return 1;
	w->mods = m;
	m += w->nmods;
	*m = (struct si_wmod){ info->dlpi_addr, si_wstrdup(info->dlpi_name ? info->dlpi_name : ""),
			       NULL, 0, 0, -1 };
	uintptr_t vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_NOTE)
			note_build_id(m, info->dlpi_addr, ph);
		if (ph->p_type != PT_LOAD)
			continue;
		if (vdso && vdso - lo < ph->p_memsz)
			m->vdso = 1;
		struct si_wseg *s = (ph->p_flags & PF_X) && ph->p_memsz
			? grow(w->segs, w->nsegs, &w->caps, sizeof *w->segs) : NULL;
		if (s) {
			w->segs = s;
			w->segs[w->nsegs++] = (struct si_wseg){ lo, lo + ph->p_memsz, w->nmods };
		}
	}
	w->nmods++;
	return 0;
}

static int seg_cmp(const void *pa, const void *pb)
{
	const struct si_wseg *a = pa, *b = pb;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

void si_sample_write_begin(struct si_sample_wstate *w)
{
	memset(w, 0, sizeof *w);
	w->outer = ws;
	ws = w;
	if (!sample_on)
		return;
	handler_ours();
	dl_iterate_phdr(add_module, w);
	si_wsort(w->segs, w->nsegs, sizeof *w->segs, seg_cmp);
}

static void free_strings(struct si_map **m)
{
	if (*m)
		for (size_t i = 0; i <= (*m)->mask; i++)
			if ((*m)->slot[i].a)
				si_wfree((char *)(*m)->slot[i].value);
	si_map_free(*m);
	*m = NULL;
}

void si_sample_write_end(struct si_sample_wstate *w)
{
	free_strings(&w->names);
	for (size_t i = 0; i < w->nmods; i++)
		si_wfree(w->mods[i].name);
	si_wfree(w->mods);
	si_wfree(w->segs);
	si_wfree(w->used);
	ws = w->outer;
}

/* The executable segment that holds A; NULL when none. */
static const struct si_wseg *segment(uintptr_t a)
{
	size_t lo = 0, hi = ws->nsegs;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ws->segs[mid].hi <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ws->nsegs && ws->segs[lo].lo <= a ? &ws->segs[lo] : NULL;
}

/* The name of PC outside every module (code made at run time, a library
 * closed since): "0x...". */
static const char *pc_name(uintptr_t pc)
{
	struct si_mslot *x = si_map_find(ws->names, pc, 1, NULL, NULL);
	if (x)
		return (const char *)x->value;
	char buf[32];
	snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)pc);
	char *n = si_wstrdup(buf);
	if (!n || !si_map_add(&ws->names, pc, 1, (uintptr_t)n, 0)) {
		si_wfree(n);
		return "?";
	}
	return n;
}

/* Where PC is, for the profile: its module's index and file address, or
 * a name made here (see pc_name; also when memory ran out). */
static void pc_ref(uintptr_t pc, struct si_pcref *r)
{
	const struct si_wseg *s = segment(pc);
	struct si_wmod *m = s ? &ws->mods[s->mod] : NULL;
	r->name = NULL;
	r->module = -1;
	r->address = 0;
	if (m && m->index < 0) {
		struct si_wmod **u = grow(ws->used, ws->nused, &ws->capu, sizeof *ws->used);
		if (u) {
			ws->used = u;
			ws->used[ws->nused] = m;
			m->index = (int32_t)ws->nused++;
		}
	}
	if (!m || m->index < 0) {
		r->name = pc_name(pc);
		return;
	}
	r->module = m->index;
	r->address = pc - m->base;
}

size_t si_sample_modules(void)
{
	return ws ? ws->nused : 0;
}

/* Module I of the sample modules: its path (si_walloc'd; NULL when
 * memory ran out), and its GNU build-id in hex into ID (empty when it has
 * none).  The path is the file's real one, as /proc/self/maps gives it:
 * the program's from /proc/self/exe, a library's with its links
 * resolved; the vDSO's SELINST_PROFILE_VDSO. */
char *si_sample_module(size_t i, char *id, size_t len)
{
	const struct si_wmod *m = ws->used[i];
	id[0] = 0;
	for (size_t k = 0; m->id && k < m->id_len && 2 * k + 2 < len; k++)
		snprintf(id + 2 * k, 3, "%02x", m->id[k]);
	if (m->vdso)
		return si_wstrdup(SELINST_PROFILE_VDSO);
	if (m->name[0]) {
		/* A relative name: from here.  Not realpath: glibc's grows its
		 * scratch buffers with malloc past 1 KiB of path (walloc.c);
		 * the kernel names an O_PATH descriptor's file resolved. */
		char *r = si_walloc(PATH_MAX), fdpath[40];
		int fd = r ? open(m->name, O_PATH | O_CLOEXEC) : -1;
		ssize_t n = -1;
		if (fd >= 0) {
			snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", fd);
			n = readlink(fdpath, r, PATH_MAX - 1);
			close(fd);
		}
		if (n > 0 && r[0] == '/') {
			r[n] = 0;
			return r;
		}
		return si_wstrdup(m->name);
	}
	char *p = si_walloc(PATH_MAX);
	ssize_t n = p ? readlink("/proc/self/exe", p, PATH_MAX - 1) : -1;
	if (n <= 0) {
		si_wfree(p);
		return NULL;
	}
	p[n] = 0;
	/* A program replaced since it started: its old path (the report
	 * then finds another build-id there, or the file beside the
	 * profile). */
	static const char deleted[] = " (deleted)";
	size_t k = strlen(p), d = sizeof deleted - 1;
	if (k > d && !strcmp(p + k - d, deleted))
		p[k - d] = 0;
	return p;
}

static int ref_cmp(const struct si_pcref *a, const struct si_pcref *b)
{
	if (a->name || b->name) {
		if (!a->name || !b->name)
			return a->name ? 1 : -1;
		return strcmp(a->name, b->name);
	}
	return a->module != b->module ? (a->module < b->module ? -1 : 1) : 0;
}

/* By node, then entry (function or module, caller), then address. */
static int row_cmp(const void *pa, const void *pb)
{
	const struct si_sample_row *a = pa, *b = pb;
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	int c = ref_cmp(&a->pc, &b->pc);
	if (!c)
		c = ref_cmp(&a->caller, &b->caller);
	if (!c && a->caller.address != b->caller.address)
		c = a->caller.address < b->caller.address ? -1 : 1;
	if (!c && a->pc.address != b->pc.address)
		c = a->pc.address < b->pc.address ? -1 : 1;
	return c;
}

/* Whether rows A and B make one sample entry: same node, function (or
 * module) and caller; they differ by address only. */
int si_sample_same_entry(const struct si_sample_row *a, const struct si_sample_row *b)
{
	return a->node == b->node && !ref_cmp(&a->pc, &b->pc) && !ref_cmp(&a->caller, &b->caller) &&
	       a->caller.address == b->caller.address;
}

/* Whether RET, a word found on the stack, is a return address: it lies
 * in a module still mapped, and the code just before it is a call (x86-64:
 * call rel32; call *disp32(%rip), as -fno-plt calls; call *%reg; call
 * *disp8(%reg)).  Code is read here, at write time, never in the handler. */
static int is_return_address(uintptr_t ret)
{
	const struct si_wseg *s = segment(ret);
	if (!s || ret - s->lo < 6)
		return 0;
	const unsigned char *c = (const unsigned char *)ret;
	return c[-5] == 0xe8 || (c[-6] == 0xff && (c[-5] == 0x15 || (c[-5] & 0xf8) == 0x90)) ||
	       (c[-2] == 0xff && (c[-1] & 0xf8) == 0xd0) ||
	       (c[-3] == 0xff && (c[-2] & 0xf8) == 0x50) ||
	       (c[-3] == 0x41 && c[-2] == 0xff && (c[-1] & 0xf8) == 0xd0);
}

/* The call instruction of slot X's caller: just before the first of the
 * slot's stack words that is a return address (the report names the
 * function there, the innermost inlined one); none: module -1, no name. */
static void slot_caller(const struct si_sample_slot *x, struct si_pcref *r)
{
	*r = (struct si_pcref){ NULL, -1, 0 };
	for (int i = 0; i < 2 && x->ret[i]; i++)
		if (is_return_address(x->ret[i])) {
			pc_ref(x->ret[i] - 1, r);
			return;
		}
}

/* S's samples as rows (output node OMAP[id], where the PC and its caller
 * are, count), sorted by node, entry, address, one row per distinct key;
 * *N rows; NULL with *N 0 when there are none or memory ran out. */
struct si_sample_row *si_sample_rows(const struct si_snap *s, const uint64_t *omap, size_t *n)
{
	*n = 0;
	const struct si_samples *t = s->samples;
	/* A live thread's handler goes on adding slots while this runs, at
	 * any index: every slot is looked at (stopping after the count read
	 * first left out the last slots whenever a new one had come in below
	 * them: the main thread's write at exit lost a slot of 131 samples
	 * to one taken in pthread_sigmask meanwhile), and the rows grow as
	 * needed (writing past them was heap corruption). */
	size_t cap = t ? __atomic_load_n(&t->used, __ATOMIC_RELAXED) : 0;
	if (!cap)
		return NULL;
	struct si_sample_row *r = si_walloc(cap * sizeof *r);
	if (!r)
		return NULL;
	size_t k = 0;
	for (uint32_t i = 0; i < SAMPLE_SLOTS; i++) {
		const struct si_sample_slot *x = &t->slot[i];
		uintptr_t pc = __atomic_load_n(&x->pc, __ATOMIC_ACQUIRE);	/* then the rest */
		if (!pc || x->node >= s->nn)
			continue;	/* a node the copy does not have yet */
		if (k == cap) {
			struct si_sample_row *more = si_wrealloc(r, 2 * cap * sizeof *r);
			if (!more)
				break;
			r = more;
			cap *= 2;
		}
		r[k].node = x->node ? omap[x->node] : 0;
		pc_ref(pc, &r[k].pc);
		slot_caller(x, &r[k].caller);
		r[k].count = __atomic_load_n(&x->count, __ATOMIC_RELAXED);
		k++;
	}
	si_wsort(r, k, sizeof *r, row_cmp);
	size_t m = 0;
	for (size_t i = 0; i < k; i++) {
		if (m && row_cmp(&r[m - 1], &r[i]) == 0)
			r[m - 1].count += r[i].count;
		else
			r[m++] = r[i];
	}
	*n = m;
	return r;
}
