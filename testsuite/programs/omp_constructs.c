/* SPDX-License-Identifier: MIT */
/* One of each OpenMP construct that waits in libgomp, once per thread of
 * one parallel region: a static loop's end and an explicit barrier
 * (GOMP_barrier), a dynamic loop's end (GOMP_loop_end), single,
 * sections, a lock, a named critical section, a task and taskwait; then
 * a parallel sections construct (GOMP_parallel_sections). */
#include <omp.h>
#include <stdio.h>

static int a[1000];
static omp_lock_t lock;

static void constructs(int n)
{
#pragma omp parallel
	{
#pragma omp for
		for (int i = 0; i < n; i++)
			a[i] += i;
#pragma omp for schedule(dynamic)
		for (int i = 0; i < n; i++)
			a[i] += i;
#pragma omp single
		a[1]++;
#pragma omp barrier
#pragma omp sections
		{
#pragma omp section
			a[2]++;
#pragma omp section
			a[3]++;
		}
		omp_set_lock(&lock);
		a[4]++;
		omp_unset_lock(&lock);
#pragma omp critical(named)
		a[5]++;
#pragma omp task
#pragma omp atomic
		a[6]++;
#pragma omp taskwait
	}
}

static void parallel_sections(void)
{
#pragma omp parallel sections
	{
#pragma omp section
		a[7]++;
#pragma omp section
		a[8]++;
	}
}

/* Each thread's task adds its thread number + 1: 10 with 4 threads. */
static int task_reduction(void)
{
	int r = 0;
#pragma omp parallel reduction(task, + : r)
	{
		int me = omp_get_thread_num() + 1;
#pragma omp task in_reduction(+ : r)
		r += me;
	}
	return r;
}

/* Two teams on the host, each adds its number + 1: 3. */
static int teams(void)
{
	int t = 0;
#pragma omp teams num_teams(2) reduction(+ : t)
	t += omp_get_team_num() + 1;
	return t;
}

/* 2 threads, each forking 2: 4. */
static int nested(void)
{
	int n = 0;
	omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) reduction(+ : n)
	{
#pragma omp parallel num_threads(2) reduction(+ : n)
		n++;
	}
	return n;
}

int main(void)
{
	omp_init_lock(&lock);
	constructs(1000);
	parallel_sections();
	int r = task_reduction(), t = teams(), n = nested();
	printf("%d %d %d %d %d %d %d\n", a[4], a[5], a[6], a[7] + a[8], r, t, n);
	return 0;
}
