/* SPDX-License-Identifier: MIT */
/*
 * rt-pair.c - cost of the runtime's hot path: a timed enter/exit pair next
 * to the bare clock read (rdtsc and clock_gettime) measured in the same run,
 * the same with three regions in turn (the child cache's cost),
 * 1 thread and 2 threads x 10M pairs (per-thread cost ratio), and memory per
 * calling-context node.  Medians of several rounds, A B A B order.
 *
 *   bench/rt-pair [pairs-per-round] [rounds]
 *   bench/rt-pair [pairs-per-round] [rounds] --threads=1,2,4,8,16
 *
 * The second form measures thread scaling only: for each count T, T threads
 * each do pairs-per-round pairs at once (started together at a barrier);
 * it prints the per-thread ns per pair (median over rounds of the mean
 * over threads, and the slowest thread) and its ratio to 1 thread.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "selinst.h"

static const struct selinst_region r_main = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 1, 0, "main", "rt-pair.c", 0 };
static const struct selinst_region r_f = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 2, 0, "f", "rt-pair.c", 0 };
static const struct selinst_region r_g = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 4, 0, "g", "rt-pair.c", 0 };
static const struct selinst_region r_h = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 5, 0, "h", "rt-pair.c", 0 };
static const struct selinst_region r_t = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 3, 0, "thread", "rt-pair.c", 0 };

static long N = 10000000;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/* ns per bare rdtsc, kept alive through a sink. */
static volatile uint64_t sink;
static double time_rdtsc(void)
{
	double t0 = now_s();
	uint64_t s = 0;
	for (long i = 0; i < N; i++)
		s += rdtsc();
	sink = s;
	return (now_s() - t0) * 1e9 / N;
}

static double time_gettime(void)
{
	struct timespec ts;
	double t0 = now_s();
	uint64_t s = 0;
	for (long i = 0; i < N; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s += ts.tv_nsec;
	}
	sink = s;
	return (now_s() - t0) * 1e9 / N;
}

static double time_pairs(void)
{
	double t0 = now_s();
	for (long i = 0; i < N; i++) {
		__selinst_enter(&r_f);
		__selinst_exit(&r_f);
	}
	return (now_s() - t0) * 1e9 / N;
}

/* Pairs of three regions in turn (f, g, h): each parent's last child is
 * never the next one, so this is the child cache's cost (issue 10). */
static double time_pairs_rr3(void)
{
	double t0 = now_s();
	for (long i = 0; i < N; i += 3) {
		__selinst_enter(&r_f);
		__selinst_exit(&r_f);
		__selinst_enter(&r_g);
		__selinst_exit(&r_g);
		__selinst_enter(&r_h);
		__selinst_exit(&r_h);
	}
	return (now_s() - t0) * 1e9 / N;
}

/* Floor: a pair of out-of-line hooks that only read the TSC and store it
 * in thread-local memory (what any timed hook must at least do). */
static __thread uint64_t floor_t0, floor_sum;
__attribute__((noinline)) void floor_enter(const struct selinst_region *r)
{
	__asm__ volatile("" :: "r"(r));
	floor_t0 = rdtsc();
}
__attribute__((noinline)) void floor_exit(const struct selinst_region *r)
{
	__asm__ volatile("" :: "r"(r));
	floor_sum += rdtsc() - floor_t0;
}
static double time_calls(void)
{
	double t0 = now_s();
	for (long i = 0; i < N; i++) {
		floor_enter(&r_f);
		floor_exit(&r_f);
	}
	return (now_s() - t0) * 1e9 / N;
}

/* Control for the 2-thread figure: a pure register loop, 1 vs 2 threads,
 * shows what the machine itself gives (on shared vCPUs it is not 1.0). */
static double spin_ns(void)
{
	double t0 = now_s();
	volatile uint64_t x = 0;
	for (long i = 0; i < N * 4; i++)
		x++;
	return (now_s() - t0) * 1e9 / N;
}

#define MAX_THREADS 256
static pthread_barrier_t bar;
static double thread_ns[MAX_THREADS];
static int spin_mode;
static void *worker(void *arg)
{
	long k = (long)arg;
	__selinst_enter(&r_t);
	__selinst_enter(&r_f);		/* create the node before timing */
	__selinst_exit(&r_f);
	pthread_barrier_wait(&bar);
	thread_ns[k] = spin_mode ? spin_ns() : time_pairs();
	__selinst_exit(&r_t);
	return NULL;
}

/* NT threads at once; mean per-thread ns (and the slowest in *MAX). */
static double run_threads(int nt, double *max)
{
	pthread_t th[MAX_THREADS];
	pthread_barrier_init(&bar, NULL, (unsigned)nt);
	for (long k = 0; k < nt; k++)
		pthread_create(&th[k], NULL, worker, (void *)k);
	double sum = 0, hi = 0;
	for (int k = 0; k < nt; k++) {
		pthread_join(th[k], NULL);
		sum += thread_ns[k];
		if (thread_ns[k] > hi)
			hi = thread_ns[k];
	}
	pthread_barrier_destroy(&bar);
	if (max)
		*max = hi;
	return sum / nt;
}

static double two_threads(void)
{
	return run_threads(2, NULL);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}
static double median(double *v, int n)
{
	qsort(v, n, sizeof *v, cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long rss_bytes(void)
{
	long pages = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res * sysconf(_SC_PAGESIZE);
}

/* Memory per node: 1000 x 1000 distinct two-level paths in a fresh thread. */
static double node_bytes;
static void *mem_worker(void *arg)
{
	(void)arg;
	enum { K = 1000 };
	struct selinst_region *rs = calloc(K, sizeof *rs);
	for (int i = 0; i < K; i++) {
		rs[i].abi_version = SELINST_ABI_VERSION;
		rs[i].kind = SELINST_KIND_FUNCTION;
		rs[i].line = 100 + i;
		rs[i].name = "g";
		rs[i].file = "rt-pair.c";
	}
	long before = rss_bytes();
	for (int i = 0; i < K; i++) {
		__selinst_enter(&rs[i]);
		for (int j = 0; j < K; j++) {
			__selinst_enter(&rs[j]);
			__selinst_exit(&rs[j]);
		}
		__selinst_exit(&rs[i]);
	}
	node_bytes = (double)(rss_bytes() - before) / ((double)K * K + K);
	return NULL;
}

static double median(double *v, int n);

/* --threads=LIST: per-thread pair cost for each thread count in LIST. */
static int scaling(const char *list, int rounds)
{
	int counts[32], nc = 0;
	for (const char *p = list; *p && nc < 32;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 1 || v > MAX_THREADS) {
			fprintf(stderr, "rt-pair: --threads wants counts 1..%d separated by commas\n", MAX_THREADS);
			return 2;
		}
		counts[nc++] = (int)v;
		p = *end == ',' ? end + 1 : end;
	}
	double clk[16], mean[32][16], slow[32][16], spin[32][16];
	__selinst_enter(&r_main);
	for (int r = 0; r < rounds; r++) {
		clk[r] = time_rdtsc();
		for (int c = 0; c < nc; c++) {
			mean[c][r] = run_threads(counts[c], &slow[c][r]);
			spin_mode = 1;
			spin[c][r] = run_threads(counts[c], NULL);
			spin_mode = 0;
		}
	}
	__selinst_exit(&r_main);
	printf("thread scaling (%ld pairs per thread x %d rounds, medians; %ld CPUs online)\n",
	       N, rounds, sysconf(_SC_NPROCESSORS_ONLN));
	printf("  bare rdtsc %.2f ns\n", median(clk, rounds));
	printf("  threads  ns/pair per thread  slowest thread  ratio to %d thread(s)  control ratio\n",
	       counts[0]);
	/* Ratios to the first count (1 in the usual list); the control is a
	 * plain register loop run the same way: the machine's own scaling. */
	double base = median(mean[0], rounds), sbase = median(spin[0], rounds);
	for (int c = 0; c < nc; c++) {
		double m = median(mean[c], rounds), s = median(slow[c], rounds);
		printf("  %7d  %18.2f  %14.2f  %20.3f  %13.3f\n", counts[c], m, s, m / base,
		       median(spin[c], rounds) / sbase);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1) N = atol(argv[1]);
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	double clk[16], gt[16], pair[16], calls[16], one[16], two[16], sone[16], stwo[16], rr3[16];
	if (rounds > 16) rounds = 16;
	if (rounds < 1) rounds = 1;
	if (argc > 3 && strncmp(argv[3], "--threads=", 10) == 0)
		return scaling(argv[3] + 10, rounds);
	__selinst_enter(&r_main);
	__selinst_enter(&r_f);		/* warm: node exists */
	__selinst_exit(&r_f);
	for (int r = 0; r < rounds; r++) {
		clk[r] = time_rdtsc();
		pair[r] = time_pairs();
		rr3[r] = time_pairs_rr3();
		gt[r] = time_gettime();
		calls[r] = time_calls();
	}
	for (int r = 0; r < rounds; r++) {
		one[r] = time_pairs();
		two[r] = two_threads();
		spin_mode = 1;
		sone[r] = spin_ns();
		stwo[r] = two_threads();
		spin_mode = 0;
	}
	__selinst_exit(&r_main);
	pthread_t mt;
	pthread_create(&mt, NULL, mem_worker, NULL);
	pthread_join(mt, NULL);
	const char *ck = getenv("SELINST_CLOCK");
	int mono = ck && !strcmp(ck, "monotonic");
	double mclk = mono ? median(gt, rounds) : median(clk, rounds), mpair = median(pair, rounds);
	double mone = median(one, rounds), mtwo = median(two, rounds);
	printf("runtime hot path (%ld pairs x %d rounds, medians; clock: %s)\n", N, rounds,
	       getenv("SELINST_CLOCK") ? getenv("SELINST_CLOCK") : "default");
	printf("  bare rdtsc                    %6.2f ns\n", median(clk, rounds));
	printf("  bare clock_gettime(MONOTONIC) %6.2f ns\n", median(gt, rounds));
	printf("  floor: rdtsc-only hook pair   %6.2f ns\n", median(calls, rounds));
	printf("  enter/exit pair               %6.2f ns  = 2 x %s + %.2f ns (target <= +5)\n",
	       mpair, mono ? "clock_gettime" : "rdtsc", mpair - 2 * mclk);
	printf("  pair, 3 regions in turn       %6.2f ns  = %.3f x one region repeated\n",
	       median(rr3, rounds), median(rr3, rounds) / mpair);
	printf("  pair, 1 thread                %6.2f ns\n", mone);
	double sr = median(stwo, rounds) / median(sone, rounds);
	printf("  pair, 2 threads (per thread)  %6.2f ns  ratio %.3f (target <= 1.10)\n", mtwo, mtwo / mone);
	printf("  control: plain loop, 2 thr/1  %6.3f     (machine's own ratio; pair ratio / control = %.3f)\n",
	       sr, mtwo / mone / sr);
	printf("  memory per call-path node     %6.1f bytes (1,001,000 nodes, RSS delta)\n", node_bytes);
	return 0;
}
