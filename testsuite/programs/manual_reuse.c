/* manual_reuse.c N - N manual regions named from one reused buffer,
 * "phase 0" and "phase 1" in turn (issue 11, L): two regions, N/2 calls
 * each, and constant memory: prints (stderr) the peak RSS growth over
 * the last 4/5 of the calls. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#pragma weak selinst_region_begin
#pragma weak selinst_region_end
void selinst_region_begin(const char *);
void selinst_region_end(const char *);

static long rss_kb(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return u.ru_maxrss;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, r0 = 0;
	char buf[32];
	for (long i = 0; i < n; i++) {
		if (i == n / 5)
			r0 = rss_kb();
		snprintf(buf, sizeof buf, "phase %ld", i % 2);
		if (selinst_region_begin) {
			selinst_region_begin(buf);
			selinst_region_end(buf);
		}
	}
	fprintf(stderr, "rss growth %ld KB\n", rss_kb() - r0);
	printf("%ld calls\n", n);
	return 0;
}
