/* The hooks leave errno as they found it, also where their cold paths
 * fail (issue 11: "signal handler spoils errno").  The address space is
 * limited so that the region stack cannot grow: recursing 100,000 deep,
 * the hooks' mmap fails (ENOMEM) and errno, set to 0 before, must still
 * be 0 at the bottom and after the return; the same in a signal handler
 * that recurses.  Prints "errno kept" or what it found. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>

static volatile int seen = -1;
static volatile long sink;

/* Map 6 MB of the C stack before the limit is set (recursing needs it). */
__attribute__((no_instrument_function, noinline)) static void touch_stack(void)
{
	volatile char big[6 << 20];
	for (size_t i = 0; i < sizeof big; i += 4096)
		big[i] = 1;
}

__attribute__((noinline)) static void down(int n)
{
	sink++;
	if (n > 0)
		down(n - 1);
	else
		seen = errno;
	sink++;
}

static void on_usr1(int sig)
{
	(void)sig;
	down(5000);
}

static long vm_bytes(void)
{
	long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f || fscanf(f, "%ld", &pages) != 1)
		pages = -1;
	if (f)
		fclose(f);
	return pages * 4096;
}

int main(void)
{
	touch_stack();
	long vm = vm_bytes();
	if (vm <= 0)
		return 3;
	struct rlimit rl = { (rlim_t)vm + (512 << 10), (rlim_t)vm + (512 << 10) };
	if (setrlimit(RLIMIT_AS, &rl))
		return 3;
	signal(SIGUSR1, on_usr1);
	errno = 0;
	down(100000);
	int after = errno;
	errno = 0;
	raise(SIGUSR1);
	int after_signal = errno;
	if (seen || after || after_signal) {
		printf("errno changed: bottom %d, after %d, after the handler %d\n", seen, after, after_signal);
		return 1;
	}
	printf("errno kept\n");
	return 0;
}
