#!/bin/bash
# SPDX-License-Identifier: MIT
# Real MPI: build a small MPI program with mpicc and the plugin, run it on 4
# ranks (Open MPI, localhost), and merge the four rank files.
. "$(dirname "$0")/lib.sh"
D=$T/report-data
[ -x "$REPORT" ] || fail "no $REPORT"
need mpicc
need mpirun
[ -f "$PLUGIN" ] || skip "plugin not built"
[ -f "$SELINST_BUILD/libselinst.so" ] || skip "runtime not built"

# threshold=0: instrument every function, so compute and exchange are in.
OMPI_CC=gcc mpicc -O2 $SI_CFLAGS -fplugin-arg-selinst-threshold=0 "$D/mpiprog.c" -o mpiprog $SI_LIBS \
	|| fail "mpicc with the plugin failed"
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
SELINST_OUTPUT="$WORK/app.%r.prof" timeout 120 mpirun "${root[@]}" -np 4 --oversubscribe ./mpiprog > run.txt 2>&1 \
	|| { cat run.txt; fail "mpirun failed"; }
cat run.txt
ls app.*.prof
expect_eq "rank files" "app.0.prof app.1.prof app.2.prof app.3.prof" "$(ls app.*.prof | xargs)"
for r in 0 1 2 3; do
	expect_eq "rank in app.$r.prof" "$r" "$(yget app.$r.prof 'd["rank"]')"
done
"$REPORT" --format=json app.*.prof > all.json || fail "merge exit $?"
"$REPORT" app.*.prof
expect_eq processes 4 "$(jget all.json 'd["processes"]')"
r() { jget all.json "[r for r in d['regions'] if r['name'] == '$1'][0]$2"; }
expect_eq "compute calls over 4 ranks" 20 "$(r compute '["calls"]')"
expect_eq "exchange calls over 4 ranks" 20 "$(r exchange '["calls"]')"
expect_eq "main calls" 4 "$(r main '["calls"]')"
expect_eq "compute processes" 4 "$(r compute '["processes"]')"
# rank 3 computes 4x what rank 0 does: per-process inclusive max > 1.5 min
expect_eq "compute per-rank spread" True "$(jget all.json "[r['per_process']['inclusive_seconds']['max'] > 1.5 * r['per_process']['inclusive_seconds']['min'] for r in d['regions'] if r['name'] == 'compute'][0]")"
# If the plugin instrumented compute's loop, its counts are the program's:
# 5 calls x (1+2+3+4) x 2,000,000 iterations over the 4 ranks.
loop=$(jget all.json "[(r['entries'], r['iterations'], r['trip_counts']) for r in d['regions'] if r['kind'] == 'loop' and r['function'] == 'compute']")
if [ "$loop" != "[]" ]; then
	expect_eq "compute loop" "[(20, 100000000, {'1048576-2097151': 5, '2097152-4194303': 5, '4194304-8388607': 10})]" "$loop"
fi
# Order of files does not matter.
"$REPORT" --format=json app.3.prof app.1.prof app.0.prof app.2.prof > rev.json
cmp -s all.json rev.json || fail "merge depends on file order"
echo ok
