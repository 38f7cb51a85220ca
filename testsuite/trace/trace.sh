# SPDX-License-Identifier: MIT
# trace.sh - sourced by the tracing tests after lib.sh: builds
# programs/trace_prog.c with the plugin, and helpers on its traces.
need otf2-print
command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml missing"
si_cc -O2 -pthread "$T/programs/trace_prog.c" -o tp || fail "compile trace_prog"
# otf2_counts ARCHIVE: {"location": {"ENTER region": n, ...}} (check.py)
otf2_counts() { python3 "$T/trace/check.py" otf2 "$1" || fail "otf2 check of $1"; }
# jq_py JSON EXPR: EXPR with c = the parsed JSON on standard input
jq_py() { python3 -c 'import json,sys; c=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

# busy_counts ARCHIVE: "WORK LEAF", the enters of work and leaf in the
# location that entered work more than once (./tp busy's thread; "0 0"
# when none), or "unbalanced" when a location's enters and leaves do not
# pair up; awk, as otf2_counts takes seconds for 2M events.
busy_counts() {
	otf2-print "$1" | awk '$1 == "ENTER" || $1 == "LEAVE" {
			d[$2] += $1 == "ENTER" ? 1 : -1; if (d[$2] < 0) bad = 1 }
		$1 == "ENTER" && $5 == "\"work\"" { w[$2]++ }
		$1 == "ENTER" && $5 == "\"leaf\"" { l[$2]++ }
		END { for (k in d) if (d[k]) bad = 1
		      r = "0 0"; for (k in w) if (w[k] > 1) r = w[k] " " l[k] + 0
		      print bad ? "unbalanced" : r }'
}

# check_busy WHAT [dumps]: the traces of ./tp busy > out.txt (a line per
# dump: its name and the work(1) calls the thread had finished before it
# began).  Each dump holds all those calls, in order: work and leaf
# enters within one of each other, never fewer than the dump before.  The
# exit's trace (tp.trace) holds all 300000 (not read with "dumps").
check_busy() {
	local prev=0 name before w l exit="tp 300000"
	[ "${2:-}" = dumps ] && exit=
	while read -r name before; do
		[ -n "$name" ] || continue
		[ -f $name.trace/traces.otf2 ] || fail "$1: no trace $name.trace"
		read -r w l < <(busy_counts $name.trace/traces.otf2)
		[ "$w" != unbalanced ] || fail "$1: $name: enters and leaves do not pair up"
		[ "$w" -ge "$before" ] && [ "$w" -ge "$prev" ] && [ $((w - l)) -ge 0 ] && [ $((w - l)) -le 1 ] ||
			fail "$1: $name: work $w, leaf $l (calls finished before it: $before; the dump before: $prev)"
		prev=$w
	done < <(cat out.txt; echo "$exit")
	[ -z "$exit" ] || expect_eq "$1: work() calls in the exit's trace" 300000 "$prev"
}
