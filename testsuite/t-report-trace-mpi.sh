#!/bin/bash
# SPDX-License-Identifier: MIT
# Traces under real MPI (issue 17): 2 ranks (Open MPI, localhost) in trace
# mode write one OTF2 archive each beside their profiles; the report puts
# them in one timeline, one process per rank (pid = the rank), each
# track nesting, the ranks' exchange calls overlapping in time (real
# clocks, aligned by each archive's wall-clock start).
. "$(dirname "$0")/lib.sh"
need mpicc
need mpirun
need otf2-print
D=$T/report-data
OMPI_CC=gcc mpicc -O2 $SI_CFLAGS -fplugin-arg-selinst-threshold=0 "$D/mpiprog.c" -o mpiprog $SI_LIBS \
	|| fail "mpicc with the plugin failed"
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
SELINST_MODE=trace timeout 120 mpirun "${root[@]}" -x SELINST_MODE -np 2 --oversubscribe ./mpiprog \
	> run.txt 2>&1 || { cat run.txt; fail "mpirun failed"; }
expect_eq "trace folders" "mpiprog.0.trace mpiprog.1.trace" "$(ls -d mpiprog.*.trace | xargs)"
$REPORT --format=perfetto mpiprog.*.trace -o m.json || fail "report"
python3 "$T/trace/check.py" perfetto m.json > c.json || fail "timeline check"
python3 - m.json <<'PY' || fail "ranks in the timeline"
import json, sys
d = json.load(open(sys.argv[1]))["traceEvents"]
assert {e["pid"] for e in d} == {0, 1}, {e["pid"] for e in d}
procs = [e["args"]["name"] for e in d if e["ph"] == "M" and e["name"] == "process_name"]
assert len(procs) == 2 and all("rank" in p for p in procs), procs
def span(pid, name):
    b = [e["ts"] for e in d if e.get("name") == name and e["pid"] == pid and e["ph"] == "B"]
    e_ = [e["ts"] for e in d if e.get("name") == name and e["pid"] == pid and e["ph"] == "E"]
    return min(b), max(e_)
a, b = span(0, "main"), span(1, "main")
assert a[0] < b[1] and b[0] < a[1], ("ranks' main do not overlap", a, b)
calls = sum(1 for e in d if e.get("name") == "exchange" and e["ph"] == "B")
assert calls == 10, calls
PY
echo ok
