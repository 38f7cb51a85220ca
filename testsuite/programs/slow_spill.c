/* SPDX-License-Identifier: MIT */
/* slow_spill.c - LD_PRELOAD shim for t-rt-trace-busy.sh: each write() of
 * one 64 KiB trace chunk (a thread spilling its oldest chunk) sleeps
 * SLOW_SPILL_US microseconds first, as a disk under writeback pressure
 * or a preempted thread makes it, so that dumps meet a thread in the
 * middle of reusing a chunk.  Other writes are untouched. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t n)
{
	static long us = -1;
	if (us < 0) {
		const char *e = getenv("SLOW_SPILL_US");
		us = e ? atol(e) : 0;
	}
	if (n == 65536 && us > 0) {
		struct timespec ts = { us / 1000000, us % 1000000 * 1000 };
		nanosleep(&ts, NULL);
	}
	return syscall(SYS_write, fd, buf, n);
}
