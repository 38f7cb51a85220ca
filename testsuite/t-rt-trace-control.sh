#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime, trace control (issue 17): selinst_trace_off/on leave out the
# events between them (the profile counts them all); SELINST_TRACE_AFTER
# and SELINST_TRACE_FOR (seconds from the start) keep the events of a time
# window only.  The window case sleeps 1.5 s between its two phases and
# cuts at 0.7 s, so only a start-up delayed by 0.7 s could move a phase.
. "$(dirname "$0")/lib.sh"
. "$T/trace/trace.sh"

SELINST_MODE=trace ./tp control 2> err.txt || fail "control run: $(cat err.txt)"
otf2_counts tp.trace/traces.otf2 > c.json
expect_eq "a b c enters" "10 0 10" "$(jq_py "c['0'].get('ENTER a', 0), c['0'].get('ENTER b', 0), c['0'].get('ENTER c', 0)" < c.json | tr -d '(),')"
# the profile is not affected by the switch
n=$(python3 -c 'import yaml,sys; p=yaml.safe_load(open("tp.prof")); i={r["id"] for r in p["regions"] if r["name"]=="b"}; print(sum(n["calls"] for t in p["threads"] for n in t["nodes"] if n["region"] in i))')
expect_eq "profile's b calls" 10 "$n"
# In profile mode the switch does nothing.
rm -rf tp.trace
./tp control 2> err.txt || fail "profile-mode run"
[ -e tp.trace ] && fail "trace written in profile mode"

rm -rf tp.trace
SELINST_MODE=trace SELINST_TRACE_AFTER=0.7 ./tp window || fail "after run"
otf2_counts tp.trace/traces.otf2 > c.json
expect_eq "AFTER: a b enters" "0 100" "$(jq_py "c['0'].get('ENTER a', 0), c['0'].get('ENTER b', 0)" < c.json | tr -d '(),')"
rm -rf tp.trace
SELINST_MODE=trace SELINST_TRACE_FOR=0.7 ./tp window || fail "for run"
otf2_counts tp.trace/traces.otf2 > c.json
expect_eq "FOR: a b enters" "100 0" "$(jq_py "c['0'].get('ENTER a', 0), c['0'].get('ENTER b', 0)" < c.json | tr -d '(),')"
rm -rf tp.trace
SELINST_MODE=trace SELINST_TRACE_AFTER=0.7 SELINST_TRACE_FOR=100 ./tp window || fail "window run"
otf2_counts tp.trace/traces.otf2 > c.json
expect_eq "window: a b enters" "0 100" "$(jq_py "c['0'].get('ENTER a', 0), c['0'].get('ENTER b', 0)" < c.json | tr -d '(),')"
echo ok
