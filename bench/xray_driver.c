/* SPDX-License-Identifier: MIT */
/*
 * xray_driver.c - turns on LLVM XRay's profiling mode for the overhead
 * benchmark: XRay instruments at compile time but records nothing until a
 * mode is initialised and the sleds are patched; at exit the profile is
 * finalised and written (xray-log.<program>.*), as a user of XRay would.
 * Built with clang-14 as C++ (the XRay headers are C++).
 */
#include <xray/xray_interface.h>
#include <xray/xray_log_interface.h>
#include <stdio.h>

[[clang::xray_never_instrument]] __attribute__((constructor))
static void xray_start(void)
{
	__xray_log_select_mode("xray-profiling");
	if (__xray_log_init_mode("xray-profiling", "") != XRAY_LOG_INITIALIZED)
		fprintf(stderr, "xray_driver: cannot initialise xray-profiling\n");
	__xray_patch();
}

[[clang::xray_never_instrument]] __attribute__((destructor))
static void xray_stop(void)
{
	__xray_log_finalize();
	__xray_log_flushLog();
}
