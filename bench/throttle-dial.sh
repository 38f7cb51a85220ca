#!/bin/bash
# SPDX-License-Identifier: MIT
# throttle-dial.sh - the runtime throttle's CALLS (and NS) on real
# projects' default builds, without rebuilding them: instructions over
# plain (callgrind), the largest exclusive share, the top 5 regions by
# inclusive time beside threshold 0's, and how many regions were switched
# off, at each SELINST_THROTTLE (bench/README.md, "Throttle dial").
#
#   bash bench/throttle-dial.sh
#   FROM=/tmp/selinst-real CALLS="100000 10000" PROJECTS=lua bash bench/throttle-dial.sh
#
# Variables:
#   FROM      a bench/real-projects.sh WORK folder that holds the default
#             builds (build/P-default), the plain and t0 results (res/)
#             and the inputs (in/); default /tmp/selinst-real.  Read only:
#             each build is copied once to WORK and hard-linked per setting.
#   WORK      scratch folder (default /tmp/selinst-throttle)
#   REALSRC   the projects' sources (default FROM/src; only looked at)
#   PROJECTS  default "lz4 cjson lua zstd yaml-cpp sqlite libxml2"
#   CALLS     the CALLS values measured (default "100000 30000 10000 3000
#             default"): "off" no throttle, "default" SELINST_THROTTLE
#             unset (the runtime's default), a value with a colon a whole
#             setting (1000:200,100000:10000)
#   NS        NS of each setting given as CALLS alone (default 10000)
#   NATIVE_RUNS  native runs of each setting (profiles; default 5)
#   CALLGRIND_NS_SCALE  NS times this under callgrind (default 90: the
#             workloads run some 90 times slower there, and a time rule
#             must switch off the regions it switches off natively; the
#             table's off/cg column compares the two), empty: unscaled;
#             CALLGRIND_THROTTLE=SETTING: the callgrind runs' setting
#             itself (the first calls of a region take far longer under
#             valgrind, which translates code on first use)
# The builds' libselinst.so is this checkout's build/ (LD_LIBRARY_PATH),
# so a runtime change is measured on the same builds.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FROM=${FROM:-/tmp/selinst-real}
WORK=${WORK:-/tmp/selinst-throttle}
PROJECTS=${PROJECTS:-lz4 cjson lua zstd yaml-cpp sqlite libxml2}
CALLS=${CALLS:-100000 30000 10000 3000 default}
NS=${NS:-10000}
mkdir -p "$WORK/build" "$WORK/res" "$WORK/in"
cp -n "$FROM"/in/* "$WORK/in/" 2>/dev/null
variants=
for c in $CALLS; do
	case $c in
	off|default) v=default-thr$c ;;
	*:*) v=default-thr${c//:/-} ;;
	*) v=default-thr$c-$NS ;;
	esac
	variants="$variants $v"
done
for p in $PROJECTS; do
	[ -f "$FROM/build/$p-default/.built" ] || { echo "no $FROM/build/$p-default" >&2; exit 2; }
	for v in plain t0; do
		for f in "$FROM/res/$p-$v".*; do [ -e "$WORK/res/${f##*/}" ] || cp "$f" "$WORK/res/"; done
	done
	[ -d "$WORK/build/$p-default" ] || cp -a "$FROM/build/$p-default" "$WORK/build/"
	for v in $variants; do
		[ -d "$WORK/build/$p-$v" ] || cp -al "$WORK/build/$p-default" "$WORK/build/$p-$v"
	done
done
LD_LIBRARY_PATH=$ROOT/build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
WORK=$WORK REALSRC=${REALSRC:-$FROM/src} PROJECTS=$PROJECTS VARIANTS=$variants DIAL= \
REUSE=1 REUSE_BUILDS=1 NATIVE_RUNS=${NATIVE_RUNS:-5} CALLGRIND_NS_SCALE=${CALLGRIND_NS_SCALE-90} \
	bash "$ROOT/bench/real-projects.sh" > "$WORK/real-projects.out" || exit
python3 "$ROOT/bench/throttle-table.py" "$WORK/res" "$ROOT/build/selinst-report" "$PROJECTS" "$variants"
