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
