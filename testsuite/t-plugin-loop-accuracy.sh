#!/bin/bash
# SPDX-License-Identifier: MIT
# Paradyn's accuracy test on plugin-made loop regions: three nested loops
# (3 x 20 ms self; 6 x 10 ms self; 6 entries x 4 x 5 ms) report total and
# self times within 2% of what the program measures around them.  A
# preemption between the program's clock readings and the hooks' can
# split them on a busy machine: a level passes when one of 3 runs does.
. "$(dirname "$0")/lib.sh"
cp $T/programs/loop_accuracy.c .
check_run() {
	O=$1
	SELINST_OUTPUT=acc$O.prof ./acc$O > wall$O.txt || fail "run $O"
	# the hooks' own self times: not split by the samples (the busy-wait
	# is in clock_gettime)
	$REPORT --no-samples --format=json acc$O.prof > acc$O.json || fail "report $O"
	python3 - acc$O.json wall$O.txt "$O" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
loops = {r["line"]: r for r in d["regions"] if r["kind"] == "loop"}
bad = 0
for line in open(sys.argv[2]):
    ln, total, self_ = (int(x) for x in line.split())
    r = loops[ln]
    for what, want, got in (("total", total, r["inclusive_seconds"] * 1e9),
                            ("self", self_, r["exclusive_seconds"] * 1e9)):
        err = (got - want) / want
        print("%s loop line %d %-5s wall %8.3f ms profile %8.3f ms %+.3f%%"
              % (sys.argv[3], ln, what, want / 1e6, got / 1e6, err * 100))
        bad += abs(err) >= 0.02
sys.exit(bad)
PY
}
for O in -O0 -O2; do
	si_cc $O -fplugin-arg-selinst-loop-threshold=0 loop_accuracy.c -o acc$O || fail "compile $O"
	for attempt in 1 2 3; do
		check_run $O && break
		[ $attempt -lt 3 ] || fail "accuracy $O: off by 2% or more in 3 runs"
		echo "run $attempt ($O) off bounds (a busy machine?): again"
	done
done
exit 0
