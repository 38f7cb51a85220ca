#!/bin/bash
# SPDX-License-Identifier: MIT
# Profiles of version 1 named a sample's loop in the process (loop:
# "file:LINE" in the sample entry); version 2 gives the module and the
# addresses instead (doc/profile-format.md).  selinst-report still reads
# version 1's entries: ~loop under the node, or under ~callee for another
# function's loop, with their shares; no module file is looked for.
. "$(dirname "$0")/lib.sh"
cat >v1.prof <<'Y'
format: selinst-profile
version: 1
program: /nonexistent/app
pid: 1
rank: ~
size: ~
wall_seconds: 1.0
complete: true
overflow: false
sampling: {hz: 1000, signal: 37, clock: thread_cpu}
regions:
- id: 0
  name: "work"
  kind: function
  file: "w.c"
  line: 3
threads:
- index: 0
  tid: 1
  cpu_ns: 1000000000
  finished: true
  nodes:
  - {id: 1, parent: 0, region: 0, calls: 1, inclusive_ns: 1000000000, exclusive_ns: 1000000000, samples: [{function: "work", loop: "w.c:5", count: 600}, {function: "work", loop: "w.c:9", count: 200}, {function: "leaf", loop: "l.c:2", count: 150}, {function: "work", count: 50}]}
  overflow_calls: 0
  samples: 1000
  samples_in_runtime: 0
  samples_dropped: 0
end: true
Y
"$REPORT" --format=folded v1.prof >f.txt 2>err.txt || fail "folded: $(cat err.txt)"
[ -s err.txt ] && fail "stderr: $(cat err.txt)"
cat >want.txt <<'W'
work 50000000
work;~leaf;~loop l.c:2 150000000
work;~loop w.c:5 600000000
work;~loop w.c:9 200000000
W
sort f.txt | diff - want.txt || fail "folded: $(cat f.txt)"
exit 0
