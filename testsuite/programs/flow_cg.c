/* A CG-like loop (spmv, dot, axpy 25 times) in two threads: the
 * predecessor graph (SELINST_FLOW) shows the repetition (issue 15). */
#include <pthread.h>
#include <stdio.h>
static volatile double sink;
__attribute__((noinline)) void spmv(int n) { double s = 0; for (int i = 0; i < n; i++) s += i; sink = s; }
__attribute__((noinline)) void dot(int n) { double s = 0; for (int i = 0; i < n; i++) s += i * 2.0; sink = s; }
__attribute__((noinline)) void axpy(int n) { double s = 0; for (int i = 0; i < n; i++) s -= i; sink = s; }
static void *solve(void *arg)
{
	(void)arg;
	for (int it = 0; it < 25; it++) {
		spmv(1000);
		dot(100);
		axpy(100);
	}
	return NULL;
}
int main(void)
{
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, solve, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("ok\n");
	return 0;
}
