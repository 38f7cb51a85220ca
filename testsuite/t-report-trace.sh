#!/bin/bash
# SPDX-License-Identifier: MIT
# Report, --format=perfetto / chrome-trace (issue 17): an OTF2 trace as a
# Chrome trace-event timeline that follows the format's rules (B/E nest per
# track, timestamps never go back, nothing left open; check.py), one track
# per thread, real times in microseconds; a flight ring's cut-off start
# still nests; a missing or bad trace is exit 2 with no output file.
. "$(dirname "$0")/lib.sh"
. "$T/trace/trace.sh"
perf() { python3 "$T/trace/check.py" perfetto "$1" || fail "timeline check of $1"; }

SELINST_MODE=trace ./tp threads || fail "run"
$REPORT --format=perfetto tp.prof -o t.json || fail "report"
perf t.json > c.json
pairs=$(jq_py "sorted((v['work'], v['leaf']) for v in c.values())" < c.json)
expect_eq "tracks' work and leaf" "[(1, 2), (100, 100), (100, 200), (100, 300)]" "$pairs"
# The same from the folder and from the anchor file, with the alias.
$REPORT --format=chrome-trace tp.trace > t2.json || fail "report from the folder"
$REPORT --format=chrome-trace tp.trace/traces.otf2 > t3.json || fail "report from the anchor"
cmp -s t2.json t3.json || fail "folder and anchor differ"
python3 - t.json <<'PY' || fail "track metadata"
import json, sys
d = json.load(open(sys.argv[1]))["traceEvents"]
names = [e for e in d if e["ph"] == "M" and e["name"] == "thread_name"]
assert len(names) == 4 and all("tid" in e["args"]["name"] for e in names), names
pids = {e["pid"] for e in d}
assert len(pids) == 1, pids
PY

# Real times: 1.5 s asleep between the a() and b() phases.
SELINST_MODE=trace ./tp window || fail "window run"
$REPORT --format=perfetto tp.prof -o w.json || fail "window report"
perf w.json > /dev/null
python3 - w.json <<'PY' || fail "timeline times"
import json, sys
d = json.load(open(sys.argv[1]))["traceEvents"]
last_a = max(e["ts"] for e in d if e.get("name") == "a")
first_b = min(e["ts"] for e in d if e.get("name") == "b")
gap = first_b - last_a
assert 1.4e6 < gap < 60e6, gap
PY

# A flight ring: the leaves of regions entered before its oldest event
# are dropped, so the timeline still nests.
SELINST_MODE=flight SELINST_FLIGHT_MB=1 ./tp flight
$REPORT --format=perfetto tp.prof -o f.json || fail "flight report"
perf f.json > c.json
expect_eq "late() in the flight timeline" 1000 "$(jq_py "list(c.values())[0]['late']" < c.json)"

# Bad input.
$REPORT --format=perfetto nothing.prof -o x.json 2> err.txt
expect_eq "missing trace: exit" 2 $?
[ -e x.json ] && fail "output written for a missing trace"
grep -q 'no OTF2 trace' err.txt || fail "message: $(cat err.txt)"
mkdir bad.trace && echo junk > bad.trace/traces.otf2
$REPORT --format=perfetto bad.trace -o x.json 2> err.txt
expect_eq "bad trace: exit" 2 $?
[ -e x.json ] && fail "output written for a bad trace"
$REPORT --format=perfetto --diff a b 2> /dev/null
expect_eq "--diff with perfetto" 2 $?
echo ok
