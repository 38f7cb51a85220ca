#!/bin/bash
# SPDX-License-Identifier: MIT
# Tracing (issue 17): what SELINST_MODE=trace and flight cost and write.
#  1. Hook pair cost with events recorded vs the profile mode's fast path,
#     alternating in one process (bench/trace-pair.c), RUNS (default 5)
#     runs of each mode, then the median over the runs of each column;
#     instructions per pair in each mode (callgrind, when valgrind is
#     there: exact, unlike the times on a shared machine).
#  2. The cg workload (bench/workloads/cg.c, size SIZE, default small)
#     traced at the plugin's default selection and at threshold=0: events,
#     bytes recorded (8 per event, 16 per loop leave with its count), the
#     OTF2 archive's size, and the run time next to profile mode; then
#     XRay basic mode (32 bytes an event) on the same source: at its
#     default threshold, and with every function instrumented and none
#     inlined (clang inlines cg's kernels into main otherwise), its
#     duration filter off.  XRay is skipped without clang-14's XRay
#     runtime.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=$root/build
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
gcc -O2 -I"$root/include" "$root/bench/trace-pair.c" -L"$B" -lselinst -Wl,-rpath,"$B" -o pair
echo "== hook pair cost, ns: 9 alternating rounds of 500000 pairs, median and fastest"
echo "   (off: the profile mode's path; on: events recorded; clock: wall, or the"
echo "   thread's CPU time: steadier on a shared machine, page faults included)"
printf "%-8s %-5s %8s %8s %8s   %8s %8s %8s\n" mode clock off on delta "min off" "min on" delta
for r in $(seq "${RUNS:-5}"); do
	for m in trace flight; do
		for c in wall cpu; do
			read -r off on d moff mon md < <(SELINST_MODE=$m SELINST_OUTPUT=$tmp/pair.prof ./pair 500000 9 $c)
			printf "%-8s %-5s %8s %8s %8s   %8s %8s %8s\n" "$m" $c "$off" "$on" "$d" "$moff" "$mon" "$md" |
				tee -a pairs.txt
			rm -rf pair.prof pair.trace
		done
	done
done
echo "-- median over the runs"
median() { sort -g | awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for m in trace flight; do
	for c in wall cpu; do
		printf "%-8s %-5s" "$m" $c
		for i in 3 4 5 6 7 8; do
			printf " %8s" "$(awk -v m=$m -v c=$c -v i=$i '$1 == m && $2 == c { print $i }' pairs.txt | median)"
			[ $i = 5 ] && printf "  "
		done
		echo
	done
done
if command -v valgrind >/dev/null; then
	echo "-- instructions per pair (callgrind, 100000 pairs off then 100000 on)"
	for m in profile trace flight; do
		SELINST_MODE=$m SELINST_OUTPUT=$tmp/cg.prof valgrind --tool=callgrind --toggle-collect=round_ns \
			--callgrind-out-file=ir.$m ./pair 100000 1 >/dev/null 2>&1
		rm -rf cg.prof cg.trace
	done
	ir() { sed -n "s/^summary: //p" "ir.$1"; }
	# profile mode: both rounds are the profile path (trace_on does nothing)
	awk -v p="$(ir profile)" -v t="$(ir trace)" -v f="$(ir flight)" 'BEGIN {
		printf "profile %.1f, trace %.1f (+%.1f), flight %.1f (+%.1f)\n", p / 2e5,
			p / 2e5 + (t - p) / 1e5, (t - p) / 1e5, p / 2e5 + (f - p) / 1e5, (f - p) / 1e5 }'
fi

size=${SIZE:-small}
src=$root/bench/workloads/cg.c
secs() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N); awk -v d=$((t1 - t0)) 'BEGIN { print d / 1e9 }'; }
echo
echo "== cg $size: trace size and events"
printf "%-26s %12s %12s %12s %9s %9s\n" build events "recorded B" "archive B" "prof s" "trace s"
# threshold=0 runs with the default throttle (SELINST_THROTTLE: the tiny
# kernels switched off after 100000 calls) and without it.
for sel in default threshold=0 threshold=0,nothrottle; do
	args=()
	[ "$sel" = default ] || args=(-fplugin-arg-selinst-threshold=0)
	thr=100000:10000
	[ "$sel" = threshold=0,nothrottle ] && thr=off
	gcc -O2 -fplugin="$B/selinst.so" "${args[@]}" "$src" -o cg -lm -L"$B" -lselinst -Wl,-rpath,"$B"
	tp=$(SELINST_THROTTLE=$thr SELINST_OUTPUT=$tmp/p.prof secs ./cg "$size")
	tt=$(SELINST_THROTTLE=$thr SELINST_MODE=trace SELINST_OUTPUT=$tmp/t.prof secs ./cg "$size")
	ev=$(otf2-print -G t.trace/traces.otf2 | awk '/^LOCATION /{ for (i = 1; i <= NF; i++) if ($i == "Events:") { s += $(i + 1); sub(",", "", s) } } END { print s + 0 }')
	loops=$(otf2-print t.trace/traces.otf2 | grep -c '"iterations"' || true)
	printf "%-26s %12d %12d %12d %9.3f %9.3f\n" "selinst $sel" "$ev" $(((ev + loops) * 8)) \
		"$(du -sb t.trace | cut -f1)" "$tp" "$tt"
	rm -rf t.trace t.prof p.prof
done
if command -v clang-14 >/dev/null && ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.xray-basic-x86_64.a >/dev/null 2>&1; then
	for v in default all; do
		flags=()
		[ $v = all ] && flags=(-fno-inline -fxray-instruction-threshold=1)
		clang-14 -O2 -fxray-instrument -fxray-modes=xray-basic "${flags[@]}" "$src" -lm -o cgx
		rm -f xray-*
		t=$(XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic verbosity=0 xray_logfile_base=$tmp/xray-" \
			XRAY_BASIC_OPTIONS="func_duration_threshold_us=0" secs ./cgx "$size" 2>/dev/null)
		bytes=$(cat xray-* | wc -c)
		ev=$(( (bytes - 32) / 32 ))
		printf "%-26s %12d %12d %12d %9s %9.3f\n" "xray-basic $v" "$ev" "$bytes" "$bytes" - "$t"
	done
else
	echo "(XRay columns skipped: clang-14 with its XRay runtime not installed)"
fi
