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
 * distinct PC is named by libdw (elfutils) from the symbol tables of the
 * process's modules, and each node gets its sampled functions with counts.
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
#include "internal.h"
#ifndef SI_STATIC
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#endif
#include <pthread.h>

#define SAMPLE_SLOTS	(1u << 14)	/* per thread: 512 KiB of address space */
#define SAMPLE_MAX_HZ	100000
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
 * own stack is read, and never past its top. */
static void stack_callers(const struct si_samples *s, const ucontext_t *uc, uintptr_t pc,
			  uintptr_t ret[2])
{
	ret[0] = ret[1] = 0;
#ifdef SI_STATIC
	(void)s, (void)uc, (void)pc;
	return;		/* no symbolizer to name a caller at write time */
#endif
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
			x->count += w;
			return;
		}
		if (!x->pc) {
			if (s->used >= SAMPLE_SLOTS / 4 * 3) {
				s->dropped += w;
				return;
			}
			x->node = node;
			x->count = w;
			x->ret[0] = ret[0];
			x->ret[1] = ret[1];
			/* A writer copying the table (acquire on pc) sees whole
			 * slots; on x86-64 this is a plain store. */
			__atomic_store_n(&x->pc, pc, __ATOMIC_RELEASE);
			s->used++;
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
		s->total += w;
		if (t->in_hook) {
			s->in_runtime += w;
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

/* Reads the settings and installs the handler, once, when the first
 * thread is set up: a program's own handler on the signal, installed
 * before that, is left alone and sampling stays off. */
static void sample_init(void)
{
	const char *e = getenv("SELINST_SAMPLE");
	if (!e || !*e || strcmp(e, "0") == 0 || strcmp(e, "off") == 0)
		return;
	if (si_parse_decimal(e, 1, SAMPLE_MAX_HZ, &sample_hz) != 0) {
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

/* The library's constructor (thread.c), after the global set-up: with
 * sampling asked for, the main thread is set up now rather than at its
 * first hook, so that a program with no hooks at all (built without the
 * plugin and run with LD_PRELOAD=libselinst.so, or with nothing selected)
 * is sampled too, its samples under the thread's root (sampling-only
 * mode); other threads are set up as they start (pthread_create below). */
void si_sample_ctor(void)
{
	const char *e = getenv("SELINST_SAMPLE");
	if (!e || !*e)
		return;
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
int si_sample_signal(void) { return sample_signo; }

/* ---- at write time -------------------------------------------------- */

#ifndef SI_STATIC
/* libdw is loaded when a profile with samples is first written, not
 * linked: a program that does not sample never maps it (each mapped
 * library adds start-up work and, at exit, one more __cxa_finalize, whose
 * atfork-lock window a fork from a signal handler deadlocks in, inside
 * glibc).  Its functions, by name: */
#define DW_FUNCS(X)							\
	X(Dwfl *, dwfl_begin, (const Dwfl_Callbacks *))			\
	X(void, dwfl_end, (Dwfl *))					\
	X(void, dwfl_report_begin, (Dwfl *))				\
	X(int, dwfl_report_end, (Dwfl *, int (*)(Dwfl_Module *, void *,	\
		const char *, Dwarf_Addr, void *), void *))		\
	X(int, dwfl_linux_proc_report, (Dwfl *, pid_t))			\
	X(int, dwfl_linux_proc_find_elf, (Dwfl_Module *, void **, const char *, \
		Dwarf_Addr, char **, Elf **))				\
	X(Dwfl_Module *, dwfl_addrmodule, (Dwfl *, Dwarf_Addr))		\
	X(const char *, dwfl_module_info, (Dwfl_Module *, void ***,	\
		Dwarf_Addr *, Dwarf_Addr *, Dwarf_Addr *, Dwarf_Addr *,	\
		const char **, const char **))				\
	X(Dwarf_Die *, dwfl_module_addrdie, (Dwfl_Module *, Dwarf_Addr,	\
		Dwarf_Addr *))						\
	X(int, dwarf_child, (Dwarf_Die *, Dwarf_Die *))			\
	X(int, dwarf_siblingof, (Dwarf_Die *, Dwarf_Die *))		\
	X(int, dwarf_haspc, (Dwarf_Die *, Dwarf_Addr))			\
	X(ptrdiff_t, dwarf_ranges, (Dwarf_Die *, ptrdiff_t, Dwarf_Addr *,	\
		Dwarf_Addr *, Dwarf_Addr *))					\
	X(int, dwarf_tag, (Dwarf_Die *))				\
	X(const char *, dwarf_diename, (Dwarf_Die *))			\
	X(int, dwfl_module_build_id, (Dwfl_Module *, const unsigned char **, \
		GElf_Addr *))
/* Whether a module has the plugin's loop tables (SELINST_LOOP_SECTION):
 * libelf, which libdw loads; without them no sample gets an address for
 * selinst-report to name its loop by. */
#define ELF_FUNCS(X)							\
	X(Elf *, dwfl_module_getelf, (Dwfl_Module *, GElf_Addr *))	\
	X(int, elf_getshdrstrndx, (Elf *, size_t *))			\
	X(Elf_Scn *, elf_nextscn, (Elf *, Elf_Scn *))			\
	X(GElf_Shdr *, gelf_getshdr, (Elf_Scn *, GElf_Shdr *))		\
	X(char *, elf_strptr, (Elf *, size_t, size_t))			\
	X(Elf_Data *, elf_getdata, (Elf_Scn *, Elf_Data *))		\
	X(GElf_Sym *, gelf_getsym, (Elf_Data *, int, GElf_Sym *))
#define DW_MEMBER(ret, name, args) ret (*name) args;
static struct { DW_FUNCS(DW_MEMBER) } dw;
static struct { ELF_FUNCS(DW_MEMBER) } el;
#undef DW_MEMBER
static int el_loaded;
static Dwfl *dwfl;
static Dwfl_Callbacks dwfl_callbacks;

/* Separate debug files (/usr/lib/debug, debuginfod) are not looked for:
 * a module's own DWARF (a program or library built with -g) is used, and
 * its symbol tables otherwise.  Loading libc's and libm's debug files,
 * where a -dbg package installs them, took about 50 ms of CPU at each
 * write, whatever the run's length (ft: +5% of a 1-second run). */
static int no_debuginfo(Dwfl_Module *mod, void **user, const char *modname, Dwarf_Addr base,
			const char *file, const char *debuglink, GElf_Word crc, char **path)
{
	(void)mod, (void)user, (void)modname, (void)base, (void)file, (void)debuglink;
	(void)crc, (void)path;
	return -1;
}

/* libdw's functions into dw (once); 0 when libdw cannot be loaded. */
static int load_libdw(void)
{
	static int state;	/* 0 not tried, 1 loaded, -1 missing */
	if (state)
		return state > 0;
	state = -1;
	void *h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return 0;
#define DW_LOAD(ret, name, args) \
	if (!(*(void **)&dw.name = dlsym(h, #name))) return 0;
	DW_FUNCS(DW_LOAD)
#undef DW_LOAD
	el_loaded = 1;
#define EL_LOAD(ret, name, args) \
	if (!(*(void **)&el.name = dlsym(h, #name))) el_loaded = 0;
	ELF_FUNCS(EL_LOAD)
#undef EL_LOAD
	dwfl_callbacks.find_elf = dw.dwfl_linux_proc_find_elf;
	dwfl_callbacks.find_debuginfo = no_debuginfo;
	state = 1;
	return 1;
}
#endif

/* The writer holds the registry lock: one write at a time. */
static struct si_map *names;	/* pc -> malloc'd name */
static struct si_map *symtabs;	/* (module, 3) -> malloc'd struct symtab *, or 0 */
#ifndef SI_STATIC
static struct si_map *units;	/* (unit DIE, 4) -> malloc'd struct unit_index * */
static void free_units(void);
#endif
static struct si_map *tables;	/* (module, 2) -> its index in lmods + 1, or 0: no loop table */
#define SAMPLE_LOOP_MODULES 64
#ifndef SI_STATIC
static struct loop_module { Dwfl_Module *mod; GElf_Addr bias; } lmods[SAMPLE_LOOP_MODULES];
#endif
static uint32_t nlmods;

void si_sample_write_begin(void)
{
#ifndef SI_STATIC
	if (!sample_on)
		return;
	handler_ours();
	if (!load_libdw())
		return;
	dwfl = dw.dwfl_begin(&dwfl_callbacks);
	if (dwfl) {
		dw.dwfl_report_begin(dwfl);
		if (dw.dwfl_linux_proc_report(dwfl, getpid()) != 0 ||
		    dw.dwfl_report_end(dwfl, NULL, NULL) != 0) {
			dw.dwfl_end(dwfl);
			dwfl = NULL;
		}
	}
#endif
}

static void free_strings(struct si_map **m)
{
	if (*m)
		for (size_t i = 0; i <= (*m)->mask; i++)
			if ((*m)->slot[i].a)
				free((char *)(*m)->slot[i].value);
	si_map_free(*m);
	*m = NULL;
}

void si_sample_write_end(void)
{
	free_strings(&names);
	free_strings(&symtabs);	/* each table is one block */
#ifndef SI_STATIC
	free_units();
#endif
	si_map_free(tables);
	tables = NULL;
	nlmods = 0;
#ifndef SI_STATIC
	if (dwfl)
		dw.dwfl_end(dwfl);
	dwfl = NULL;
#endif
}

#ifndef SI_STATIC
/* Whether DIEs of kind TAG, common in a function's body, never have code
 * of their own: their PC ranges need not be read (about half the scope
 * walk's work in lz4's inlined-heavy lz4.c). */
static int no_code(int tag)
{
	return tag == DW_TAG_formal_parameter || tag == DW_TAG_variable ||
	       tag == DW_TAG_call_site || tag == DW_TAG_GNU_call_site || tag == DW_TAG_label ||
	       tag == DW_TAG_unspecified_parameters;
}

/* The innermost function (subprogram or inlined instance) below PARENT
 * whose code holds PC, into *FN; 0 when none.  Only the scopes that hold
 * PC are entered (and namespaces, which have no code of their own): one
 * DIE's children per level.  dwarf_getscopes, used before, also walks the
 * whole unit again for an inlined instance's abstract origin, to list the
 * scopes outside it that are not needed here: lz4's lz4.c, 20,000 DIEs,
 * about 11 million instructions for each PC named (SELINST_SAMPLE=1000
 * cost a 25 ms lz4 run 27% more CPU time).  Nesting is about 10 deep in
 * real DWARF; 64 bounds the stack a dump uses. */
static int scope_at(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *fn, int depth)
{
	Dwarf_Die c;
	if (depth > 64 || dw.dwarf_child(parent, &c) != 0)
		return 0;
	do {
		int tag = dw.dwarf_tag(&c);
		if (tag == DW_TAG_namespace || tag == DW_TAG_module) {
			if (scope_at(&c, pc, fn, depth + 1))
				return 1;
			continue;
		}
		if (no_code(tag) || dw.dwarf_haspc(&c, pc) != 1)
			continue;
		if (scope_at(&c, pc, fn, depth + 1))
			return 1;
		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			return 0;	/* a block of PC's function: the caller's scope */
		*fn = c;
		return 1;
	} while (dw.dwarf_siblingof(&c, &c) == 0);
	return 0;
}

/* A unit's functions with code, by address range: the top of the scope
 * walk, made once per unit and write.  Each PC walked all the unit's
 * top-level DIEs before (types and declarations too): lz4's lz4.c, about
 * 300,000 instructions a PC. */
struct unit_fn { Dwarf_Addr lo, hi; Dwarf_Die die; };
struct unit_index { size_t n, cap; struct unit_fn *f; };

static void index_scope(struct unit_index *u, Dwarf_Die *parent, int depth)
{
	Dwarf_Die c;
	if (depth > 64 || dw.dwarf_child(parent, &c) != 0)
		return;
	do {
		int tag = dw.dwarf_tag(&c);
		if (tag == DW_TAG_namespace || tag == DW_TAG_module)
			index_scope(u, &c, depth + 1);
		if (tag != DW_TAG_subprogram)
			continue;
		Dwarf_Addr base, lo, hi;
		for (ptrdiff_t off = 0; (off = dw.dwarf_ranges(&c, off, &base, &lo, &hi)) > 0;) {
			if (u->n == u->cap) {
				size_t cap = u->cap ? 2 * u->cap : 64;
				struct unit_fn *more = realloc(u->f, cap * sizeof *more);
				if (!more)
					return;
				u->f = more;
				u->cap = cap;
			}
			u->f[u->n++] = (struct unit_fn){ lo, hi, c };
		}
	} while (dw.dwarf_siblingof(&c, &c) == 0);
}

/* CU's index (made on first use); NULL when memory ran out. */
static const struct unit_index *unit_index(Dwarf_Die *cu)
{
	struct si_mslot *x = si_map_find(units, (uintptr_t)cu->addr, 4, NULL, NULL);
	if (x)
		return (const struct unit_index *)x->value;
	struct unit_index *u = calloc(1, sizeof *u);
	if (u)
		index_scope(u, cu, 0);
	if (!u || !si_map_add(&units, (uintptr_t)cu->addr, 4, (uintptr_t)u, 0)) {
		if (u)
			free(u->f);
		free(u);
		return NULL;
	}
	return u;
}

static void free_units(void)
{
	if (units)
		for (size_t i = 0; i <= units->mask; i++)
			if (units->slot[i].a)
				free(((struct unit_index *)units->slot[i].value)->f);
	free_strings(&units);
}

/* The source function whose code PC is, from the module's DWARF: the
 * innermost inlined function there, else the function (its source name:
 * a clone such as x_solve.constprop.0 is x_solve, as its region is).
 * NULL without debug information. */
static char *dwarf_function(Dwfl_Module *mod, uintptr_t pc)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dw.dwfl_module_addrdie(mod, (Dwarf_Addr)pc, &bias);
	const struct unit_index *u = cu ? unit_index(cu) : NULL;
	Dwarf_Addr at = (Dwarf_Addr)pc - bias;
	Dwarf_Die fn;
	size_t i = 0;
	while (u && i < u->n && !(u->f[i].lo <= at && at < u->f[i].hi))
		i++;
	if (!u || i == u->n)
		return NULL;
	fn = u->f[i].die;
	if (!scope_at(&u->f[i].die, at, &fn, 1))
		fn = u->f[i].die;	/* in no inlined instance: the function's own code */
	const char *d = dw.dwarf_diename(&fn);
	return d ? strdup(d) : NULL;
}
#endif

#ifndef SI_STATIC
/* A module's function symbols, for naming PCs without DWARF (libc's, a
 * program built without -g), read once per module and write from its
 * .symtab, else its .dynsym.  dwfl_module_addrname, used before, walks
 * every symbol of the module for each address (Lua's program, without
 * -g: 21 million instructions for 30 PCs at exit), and
 * dwfl_module_getsym_info costs about 280 instructions a symbol (libc's
 * 3,000: 0.9 million).  A PC is named as dwfl_module_addrname names it:
 * by the function symbol whose extent holds it (of aliases at one
 * address: global, then weak, then local), else by the nearest symbol
 * without a size below it when no symbol starts in between (hand-written
 * assembly); none: NULL.  The first lookups scan the symbols; a module
 * looked up more often is sorted (libc's: 2 million instructions) and
 * searched. */
#define SYM_SCANS 16
struct sym { GElf_Addr lo, hi; const char *name; int rank; };	/* hi == lo: no size */
struct symtab { size_t n, lookups; struct sym s[]; };

static int sym_cmp(const void *pa, const void *pb)
{
	const struct sym *a = pa, *b = pb;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->rank - b->rank;
}

/* The symbols of section SCN (a symbol table) of ELF, BIAS added, into T
 * (room for all). */
static void add_symbols(struct symtab *t, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			GElf_Addr bias)
{
	Elf_Data *d = el.elf_getdata(scn, NULL);
	size_t n = d && sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	for (size_t i = 1; i < n && i <= INT32_MAX; i++) {
		GElf_Sym sym;
		if (!el.gelf_getsym(d, (int)i, &sym))
			continue;
		int type = GELF_ST_TYPE(sym.st_info), bind = GELF_ST_BIND(sym.st_info);
		const char *name = el.elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name || sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE))
			continue;
		/* sized symbols first among aliases: rank 0-2, sizeless 3-5 */
		t->s[t->n++] = (struct sym){ sym.st_value + bias, sym.st_value + bias + sym.st_size,
			name, (bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2) +
			(sym.st_size ? 0 : 3) };
	}
}

/* MOD's function symbols; NULL when it has none. */
static struct symtab *read_symtab(Dwfl_Module *mod)
{
	GElf_Addr bias;
	Elf *elf = el_loaded ? el.dwfl_module_getelf(mod, &bias) : NULL;
	Elf_Scn *best = NULL;
	GElf_Shdr sh, bsh = { 0 };
	for (Elf_Scn *scn = NULL; elf && (scn = el.elf_nextscn(elf, scn)) != NULL;)
		if (el.gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_SYMTAB ||
		    (sh.sh_type == SHT_DYNSYM && !best))) {
			best = scn;
			bsh = sh;
		}
	size_t n = best && bsh.sh_entsize ? bsh.sh_size / bsh.sh_entsize : 0;
	struct symtab *t = n ? malloc(sizeof *t + n * sizeof t->s[0]) : NULL;
	if (!t)
		return NULL;
	t->n = t->lookups = 0;
	add_symbols(t, elf, best, &bsh, bias);
	return t;
}

/* The symbol of T at PC (see above), scanning all of T. */
static const struct sym *sym_scan(const struct symtab *t, uintptr_t pc)
{
	const struct sym *best = NULL, *sizeless = NULL;
	GElf_Addr nearest = 0;	/* the highest start at or below PC */
	for (size_t i = 0; i < t->n; i++) {
		const struct sym *x = &t->s[i];
		if (x->lo > pc)
			continue;
		if (pc < x->hi && (!best || x->lo > best->lo ||
				   (x->lo == best->lo && x->rank < best->rank)))
			best = x;
		if (x->lo > nearest) {
			nearest = x->lo;
			sizeless = NULL;
		}
		if (x->lo == nearest && x->hi == x->lo && (!sizeless || x->rank < sizeless->rank))
			sizeless = x;
	}
	return best ? best : sizeless;
}

/* The same in T sorted: only the symbols starting just below PC. */
static const struct sym *sym_search(const struct symtab *t, uintptr_t pc)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {	/* the first symbol starting above PC */
		size_t mid = (lo + hi) / 2;
		if (t->s[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* A sized symbol that holds PC: the one starting nearest below, or
	 * one of the few before it (PC past a label inside a function). */
	const struct sym *best = NULL;
	for (size_t k = lo; k-- > 0 && lo - k <= 16;)
		if (pc < t->s[k].hi && (!best || t->s[k].lo == best->lo))
			best = &t->s[k];	/* going down: an alias of better rank */
	if (best || !lo)
		return best;
	/* Else a symbol without size that starts nearest below. */
	const struct sym *sizeless = NULL;
	for (size_t i = lo - 1;; i--) {
		if (t->s[i].hi == t->s[i].lo)
			sizeless = &t->s[i];
		if (i == 0 || t->s[i - 1].lo != t->s[i].lo)
			return sizeless;
	}
}

/* The name of MOD's function symbol at PC (see above); NULL when none. */
static const char *symbol_at(Dwfl_Module *mod, uintptr_t pc)
{
	struct si_mslot *x = si_map_find(symtabs, (uintptr_t)mod, 3, NULL, NULL);
	if (!x) {
		struct symtab *nt = read_symtab(mod);
		if (!si_map_add(&symtabs, (uintptr_t)mod, 3, (uintptr_t)nt, 0)) {
			free(nt);
			return NULL;
		}
		x = si_map_find(symtabs, (uintptr_t)mod, 3, NULL, NULL);
	}
	struct symtab *t = (struct symtab *)x->value;
	if (!t)
		return NULL;
	if (++t->lookups == SYM_SCANS)
		qsort(t->s, t->n, sizeof t->s[0], sym_cmp);
	const struct sym *s = t->lookups < SYM_SCANS ? sym_scan(t, pc) : sym_search(t, pc);
	return s ? s->name : NULL;
}
#endif

#ifndef SI_STATIC
/* FN as its region names it: the plugin's copies of a function (off-copy:
 * NAME.selinst.N, NAME.selinst_off.N, NAME.selinst_loops.N, and GCC's
 * clones of those) are NAME, as DWARF says (dwarf_function). */
static char *source_symbol(const char *fn)
{
	const char *cut = strstr(fn, ".selinst");
	return cut ? strndup(fn, (size_t)(cut - fn)) : strdup(fn);
}
#endif

/* PC's function name (see dwarf_function; else the symbol table's),
 * "[module]" when the module has no symbol there, "0x..." when no module
 * is known (or in the static library, which has no libdw). */
static char *name_pc(uintptr_t pc)
{
	char buf[64];
	snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)pc);
#ifndef SI_STATIC
	Dwfl_Module *mod = dwfl ? dw.dwfl_addrmodule(dwfl, (Dwarf_Addr)pc) : NULL;
	char *src = mod ? dwarf_function(mod, pc) : NULL;
	if (src)
		return src;
	if (mod) {
		const char *fn = symbol_at(mod, pc);
		if (fn)
			return source_symbol(fn);
		const char *mname = dw.dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL,
							 NULL);
		if (mname) {
			const char *base = strrchr(mname, '/');
			snprintf(buf, sizeof buf, "[%s]", base ? base + 1 : mname);
		}
	}
#endif
	return strdup(buf);
}

static const char *pc_name(uintptr_t pc)
{
	struct si_mslot *x = si_map_find(names, pc, 1, NULL, NULL);
	if (x)
		return (const char *)x->value;
	char *n = name_pc(pc);
	if (!n)
		return "?";
	if (!si_map_add(&names, pc, 1, (uintptr_t)n, 0)) {
		free(n);
		return "?";
	}
	return (const char *)si_map_find(names, pc, 1, NULL, NULL)->value;
}

#ifndef SI_STATIC
/* Whether MOD's file has a loop table (SELINST_LOOP_SECTION), and its
 * bias (runtime address - file address). */
static int has_loop_table(Dwfl_Module *mod, GElf_Addr *bias)
{
	Elf *elf = el.dwfl_module_getelf(mod, bias);
	size_t shstr;
	if (!elf || el.elf_getshdrstrndx(elf, &shstr) != 0)
		return 0;
	for (Elf_Scn *scn = NULL; (scn = el.elf_nextscn(elf, scn)) != NULL;) {
		GElf_Shdr sh;
		const char *name = el.gelf_getshdr(scn, &sh)
			? el.elf_strptr(elf, shstr, sh.sh_name) : NULL;
		if (name && !strcmp(name, SELINST_LOOP_SECTION) && sh.sh_size)
			return 1;
	}
	return 0;
}
#endif

/* The index among the profile's sample modules of PC's module, with PC's
 * file address in *AT, when the module has a loop table; -1 otherwise.
 * Which loop holds PC needs the line table of PC's unit, which costs a
 * short process most of its profile write (lz4.c: 17 million
 * instructions): selinst-report names the loop from the file instead. */
static int32_t loop_module(uintptr_t pc, uint64_t *at)
{
#ifndef SI_STATIC
	Dwfl_Module *mod = el_loaded && dwfl ? dw.dwfl_addrmodule(dwfl, (Dwarf_Addr)pc) : NULL;
	if (!mod)
		return -1;
	struct si_mslot *x = si_map_find(tables, (uintptr_t)mod, 2, NULL, NULL);
	if (!x) {
		GElf_Addr bias = 0;
		uintptr_t v = 0;
		if (nlmods < SAMPLE_LOOP_MODULES && has_loop_table(mod, &bias)) {
			lmods[nlmods] = (struct loop_module){ mod, bias };
			v = ++nlmods;
		}
		if (!si_map_add(&tables, (uintptr_t)mod, 2, v, 0))
			return -1;
		x = si_map_find(tables, (uintptr_t)mod, 2, NULL, NULL);
	}
	if (!x->value)
		return -1;
	*at = pc - lmods[x->value - 1].bias;
	return (int32_t)x->value - 1;
#else
	(void)pc, (void)at;
	return -1;
#endif
}

size_t si_sample_modules(void)
{
	return nlmods;
}

/* Module I of the sample modules: its path, and its GNU build-id in hex
 * into ID (empty when it has none). */
const char *si_sample_module(size_t i, char *id, size_t len)
{
	id[0] = 0;
#ifndef SI_STATIC
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dw.dwfl_module_build_id(lmods[i].mod, &bits, &vaddr);
	for (int k = 0; k < n && 2 * (size_t)k + 2 < len; k++)
		snprintf(id + 2 * k, 3, "%02x", bits[k]);
	const char *path = dw.dwfl_module_info(lmods[i].mod, NULL, NULL, NULL, NULL, NULL, NULL,
					       NULL);
	return path ? path : "";
#else
	(void)i, (void)len;
	return "";
#endif
}

static int strcmp0(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : (a != NULL) - (b != NULL);
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct si_sample_row *a = pa, *b = pb;
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	int c = strcmp(a->function, b->function);
	if (!c)
		c = strcmp0(a->caller, b->caller);
	if (!c && a->module != b->module)
		c = a->module < b->module ? -1 : 1;
	if (!c && a->address != b->address)
		c = a->address < b->address ? -1 : 1;
	return c;
}

/* Whether RET, a word found on the stack, is a return address: it lies
 * in a module still mapped, and the code just before it is a call (x86-64:
 * call rel32; call *disp32(%rip), as -fno-plt calls; call *%reg; call
 * *disp8(%reg)).  Code is read here, at write time, never in the handler. */
static int is_return_address(uintptr_t ret)
{
#ifndef SI_STATIC
	uint32_t i = 0;
	while (i < nranges && ret - ranges[i].lo >= ranges[i].hi - ranges[i].lo)
		i++;	/* the range of RET, so that RET - 6 is checked to lie in it too */
	if (i == nranges || ret - ranges[i].lo < 6 || !dwfl ||
	    !dw.dwfl_addrmodule(dwfl, (Dwarf_Addr)ret))
		return 0;
	const unsigned char *c = (const unsigned char *)ret;
	return c[-5] == 0xe8 || (c[-6] == 0xff && (c[-5] == 0x15 || (c[-5] & 0xf8) == 0x90)) ||
	       (c[-2] == 0xff && (c[-1] & 0xf8) == 0xd0) ||
	       (c[-3] == 0xff && (c[-2] & 0xf8) == 0x50) ||
	       (c[-3] == 0x41 && c[-2] == 0xff && (c[-1] & 0xf8) == 0xd0);
#else
	(void)ret;
	return 0;
#endif
}

/* The function that called the library code of slot X: the source
 * function (innermost inlined) of the call instruction before the first
 * of the slot's stack words that is a return address; NULL when none. */
static const char *slot_caller(const struct si_sample_slot *x)
{
	for (int i = 0; i < 2 && x->ret[i]; i++)
		if (is_return_address(x->ret[i]))
			return pc_name(x->ret[i] - 1);
	return NULL;
}

/* S's samples as rows (output node OMAP[id], function, count), sorted by
 * node then function, one row per pair; *N rows; NULL with *N 0 when there
 * are none or memory ran out. */
struct si_sample_row *si_sample_rows(const struct si_snap *s, const uint64_t *omap, size_t *n)
{
	*n = 0;
	const struct si_samples *t = s->samples;
	/* A live thread's handler goes on adding slots while this runs, at
	 * any index: every slot is looked at (stopping after the count read
	 * first left out the last slots whenever a new one had come in below
	 * them: the main thread's write at exit lost a slot of 131 samples
	 * to one taken in pthread_sigmask meanwhile), and the rows grow as
	 * needed (writing past them was heap corruption, seen as an abort in
	 * libdw's dwfl_end). */
	size_t cap = t ? __atomic_load_n(&t->used, __ATOMIC_RELAXED) : 0;
	if (!cap)
		return NULL;
	struct si_sample_row *r = malloc(cap * sizeof *r);
	if (!r)
		return NULL;
	size_t k = 0;
	for (uint32_t i = 0; i < SAMPLE_SLOTS; i++) {
		const struct si_sample_slot *x = &t->slot[i];
		uintptr_t pc = __atomic_load_n(&x->pc, __ATOMIC_ACQUIRE);	/* then the rest */
		if (!pc || x->node >= s->nn)
			continue;	/* a node the copy does not have yet */
		if (k == cap) {
			struct si_sample_row *more = realloc(r, 2 * cap * sizeof *r);
			if (!more)
				break;
			r = more;
			cap *= 2;
		}
		r[k].node = x->node ? omap[x->node] : 0;
		r[k].function = pc_name(pc);
		r[k].address = 0;
		r[k].module = loop_module(pc, &r[k].address);
		r[k].caller = slot_caller(x);
		r[k].count = x->count;
		k++;
	}
	qsort(r, k, sizeof *r, row_cmp);
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
