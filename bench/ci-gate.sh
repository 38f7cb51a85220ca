#!/bin/bash
# SPDX-License-Identifier: MIT
# CI gate on instrumentation overhead (issue 6; .ci/run calls it before
# `make check`).  Counts instructions (valgrind --tool=callgrind, exact) of
# every workload at size small as plain, selinst at the default threshold
# and selinst full nothrottle (threshold 0, every call counted:
# SELINST_THROTTLE=off), and fails (exit 1) when
#   - selinst at the default threshold adds more than GATE_MAX_SELECTIVE
#     (default 3) percent instructions on any workload, or
#   - the full/selective instruction-overhead ratio is below GATE_MIN_RATIO
#     (default 50) on any workload.
# The full build runs unthrottled: with the default throttle and the
# switched-off copies it runs nearly the plain code once its cheap regions
# are off (ft at threshold 0: -1.33%, code generation), so the ratio would
# no longer say what selection saves over instrumenting everything.
# bench/README.md gives the measurements these limits come from.
# About 2 minutes on 2 cores.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
make -s -C "$root" all
s=$(date +%s)
python3 "$root/bench/overhead.py" --mode instructions --size small \
	--variants "plain,selinst,selinst full nothrottle" --gate \
	--max-selective "${GATE_MAX_SELECTIVE:-3}" --min-ratio "${GATE_MIN_RATIO:-50}" && rc=0 || rc=$?
echo "bench gate took $(( $(date +%s) - s )) s"
exit $rc
