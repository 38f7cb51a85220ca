#!/bin/bash
# SPDX-License-Identifier: MIT
# Profile feedback (issue 13 point 2): for each bench workload, build the
# default selection, run it unthrottled (exact counts), rebuild with
# -fplugin-arg-selinst-profile= and the budget, and print the instruction
# overhead (valgrind --tool=callgrind, one run each) of the default and
# the feedback build over plain, next to the plugin's predicted hook cost:
#   pred default   every region of the first profile (feedback.predicted_all)
#   pred feedback  after the drops plus this unit's additions
#                  (predicted_kept + predicted_added)
#   pred feedback instr  the same in instructions: the decision file's
#                  predicted_kept_instructions + predicted_added_instructions
#                  over plain's instructions (callgrind)
#   predicted instr, feedback instr, ratio  pred feedback instr as a
#                  count, the feedback build's instructions over plain's
#                  (callgrind), predicted over measured ("-" at or below
#                  plain: the target is a factor of 2)
#   pred rerun     the feedback build's own profile, by the same rule
#                  (selinst-report --suggest's predicted hook cost): checks
#                  the estimates
#   program        the feedback build's instructions in the program's own
#                  functions over plain's (bench/callgrind_funcs.py; the
#                  rest is the runtime, the loader and libc).  Below 0
#                  the hooks' call sites and counters cannot be the cause
#                  (they only add instructions): code generation gave
#                  back more than they cost (cg: makea and main, their
#                  loops compiled differently)
#   ratio w/o gain predicted instr over the feedback build's instructions
#                  over plain less such a gain (program below 0): the
#                  hooks' cost, at least what the runtime and the loader
#                  run; the ratio column stays the verdict on the build
# The first build's run is sampled (SELINST_SAMPLE=$FIRST_SAMPLE, default
# 5000; empty: not) so that its hooks' share is measured in situ.
# ROUND2=1: a third build, the first profile again with profile-base= the
# feedback build's profile (the run's length from a light run), measured
# the same way (columns "round 2", "pred round 2", "pred round 2 instr").
# Predictions are shares of time, measurements of instructions; with
# TIME_RUNS=N (N >= 1) the two builds' overheads are also measured in time,
# the unit of the prediction: the median user + system CPU time of N runs
# of plain, default and feedback alternating (all with SELINST_THROTTLE=off,
# as the profiles), columns "default cpu" and "feedback cpu".  TIME_SIZE
# times plain and feedback at another size than the profile's ("medium":
# bench/overhead.py's, about 1 s plain), where the runtime's fixed cost
# (start-up, calibration, profile write: a few ms) no longer counts; the
# default build is then not timed ("-").
# Environment: BENCH_SIZE (default small), BENCH_WORKLOADS (bt,cg,ft,mg,interp),
# BUDGET (default 1), BASE (plugin arguments of both builds, e.g.
# "threshold=0 loop-threshold=0": start from full instrumentation).
# Output also in build/bench/feedback.tsv (feedback-BASE.tsv with BASE).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=$root/build
size=${BENCH_SIZE:-small}
budget=${BUDGET:-1}
out=$B/bench/feedback
mkdir -p "$out"
plug=(-fplugin="$B/selinst.so")
for a in ${BASE:-}; do plug+=(-fplugin-arg-selinst-$a); done
tsv=$B/bench/feedback${BASE:+-$(echo $BASE | tr ' =' '_-')}.tsv
sel=(-L"$B" -lselinst -Wl,-rpath,"$B")

instr() { # EXE: instructions executed under callgrind (its output: EXE.cg)
	local log=$out/cg.log
	valgrind --tool=callgrind --callgrind-out-file="$1.cg" "$@" >"$out/cg.stdout" 2>"$log" \
		|| { echo "callgrind failed: $*" >&2; tail -3 "$log" >&2; exit 1; }
	grep -q "VERIFICATION SUCCESSFUL" "$out/cg.stdout" || { echo "verification failed: $*" >&2; exit 1; }
	sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$log"
}
# PROFILE: predicted hook cost in percent, the plugin's rule, which
# selinst-report --suggest shares (include/selinst-predict.h).
predicted() {
	"$B/selinst-report" --suggest --budget 100 --select "$out/rerun-sel.yaml" "$1" |
		sed -n 's/^predicted hook cost: \([0-9.]*\)% of the run.*/\1/p'
}
# RUNS SIZE PLAIN DEFAULT FEEDBACK: median CPU-time overhead of DEFAULT and
# FEEDBACK over PLAIN in percent, runs alternating (one line, two fields)
cputime() {
	python3 - "$@" <<'PY'
import os, resource, statistics, subprocess, sys
runs, size, exes = int(sys.argv[1]), sys.argv[2].split(), sys.argv[3:]
env = dict(os.environ, SELINST_THROTTLE="off", SELINST_OUTPUT="/dev/null")
cpu = {e: [] for e in exes}
for _ in range(runs):
    for e in exes:
        a = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([e] + size, env=env, stdout=subprocess.DEVNULL, check=True)
        b = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[e].append(b.ru_utime + b.ru_stime - a.ru_utime - a.ru_stime)
m = [statistics.median(cpu[e]) for e in exes]
print(" ".join("%+.2f%%" % (100 * (x / m[0] - 1)) for x in m[1:]))
PY
}
insn_pct() { # DECISIONS PLAIN [MEASURED]: predicted instructions in percent
	# of PLAIN; with MEASURED (instructions over plain) the count, MEASURED
	# and their ratio instead, tab-separated
	python3 -c 'import sys,yaml
d=yaml.safe_load(open(sys.argv[1]))["feedback"]
n = (d["predicted_kept_instructions"] + d["predicted_added_instructions"]
     - d.get("predicted_not_chosen_instructions", 0))
if len(sys.argv) < 4:
    print("%.2f" % (100.0 * n / float(sys.argv[2])))
else:
    m = int(sys.argv[3])
    print("%d\t%d\t%s" % (n, m, "%.2f" % (n / m) if m > 0 else "-"))' "$@"
}
fb() { # DECISIONS KEY...: sum of the feedback summary's KEYs (-KEY: less it)
	python3 -c 'import sys,yaml
d=yaml.safe_load(open(sys.argv[1]))["feedback"]
print("%.2f" % sum(-d.get(k[1:], 0) if k[0] == "-" else d[k] for k in sys.argv[2:]))' "$@"
}
count() { grep -c "instrument: true" "$1"; }
changes() { # DECISIONS: dropped/added
	echo "$(grep -c 'reason: "dropped' "$1")/$(grep -c 'added: in bottleneck' "$1")"
}

runs=${TIME_RUNS:-0}
first_sample=${FIRST_SAMPLE-5000}
printf "workload\tsize\tregions default\tregions feedback\tdropped/added\tinstr plain\tdefault\tfeedback\tpred default\tpred feedback\tpred feedback instr\tpred rerun\tpredicted instr\tfeedback instr\tratio\tprogram\tratio w/o gain%s%s\n" \
	"$([ -n "${ROUND2:-}" ] && printf '\tround 2\tpred round 2\tpred round 2 instr')" \
	"$([ "$runs" -gt 0 ] && printf '\tdefault cpu\tfeedback cpu')" | tee "$tsv"
for wl in $(echo "${BENCH_WORKLOADS:-bt,cg,ft,mg,interp}" | tr , ' '); do
	src=$root/bench/workloads/$wl.c
	gcc -O2 -Wno-unknown-pragmas "$src" -o "$out/$wl-plain" -lm
	rm -f "$out/$wl-default.yaml" "$out/$wl-feedback.yaml"
	gcc -O2 -Wno-unknown-pragmas "${plug[@]}" -fplugin-arg-selinst-decisions="$out/$wl-default.yaml" \
		"$src" -o "$out/$wl-default" -lm "${sel[@]}"
	SELINST_THROTTLE=off SELINST_SAMPLE=$first_sample SELINST_OUTPUT="$out/$wl-default.prof" \
		"$out/$wl-default" $size >/dev/null
	gcc -O2 -Wno-unknown-pragmas "${plug[@]}" -fplugin-arg-selinst-decisions="$out/$wl-feedback.yaml" \
		-fplugin-arg-selinst-profile="$out/$wl-default.prof" -fplugin-arg-selinst-budget="$budget" \
		"$src" -o "$out/$wl-feedback" -lm "${sel[@]}"
	SELINST_THROTTLE=off SELINST_OUTPUT="$out/$wl-feedback.prof" "$out/$wl-feedback" $size >/dev/null
	p=$(instr "$out/$wl-plain" $size)
	d=$(SELINST_THROTTLE=off SELINST_OUTPUT=/dev/null instr "$out/$wl-default" $size)
	f=$(SELINST_THROTTLE=off SELINST_OUTPUT=/dev/null instr "$out/$wl-feedback" $size)
	r2=
	if [ -n "${ROUND2:-}" ]; then	# the first profile again, the run's length from the feedback run
		# (run under the first build's name: profiles must name one program)
		mkdir -p "$out/light"
		cp "$out/$wl-feedback" "$out/light/$wl-default"
		SELINST_THROTTLE=off SELINST_OUTPUT="$out/$wl-light.prof" "$out/light/$wl-default" $size >/dev/null
		rm -f "$out/$wl-round2.yaml"
		gcc -O2 -Wno-unknown-pragmas "${plug[@]}" -fplugin-arg-selinst-decisions="$out/$wl-round2.yaml" \
			-fplugin-arg-selinst-profile="$out/$wl-default.prof" \
			-fplugin-arg-selinst-profile-base="$out/$wl-light.prof" -fplugin-arg-selinst-budget="$budget" \
			"$src" -o "$out/$wl-round2" -lm "${sel[@]}"
		f2=$(SELINST_THROTTLE=off SELINST_OUTPUT=/dev/null instr "$out/$wl-round2" $size)
		r2=$(printf '\t%+.2f%%\t%s%%\t%s%%' "$(echo "($f2 / $p - 1) * 100" | bc -l)" \
			"$(fb "$out/$wl-round2.yaml" predicted_kept predicted_added -predicted_not_chosen)" \
			"$(insn_pct "$out/$wl-round2.yaml" "$p")")
	fi
	cpu=
	if [ "$runs" -gt 0 ] && [ -z "${TIME_SIZE:-}" ]; then
		cpu=$(printf '\t%s\t%s' $(cputime "$runs" "$size" "$out/$wl-plain" "$out/$wl-default" "$out/$wl-feedback"))
	elif [ "$runs" -gt 0 ]; then
		ts=$TIME_SIZE
		[ "$ts" = medium ] && ts=$(python3 -c "import sys; sys.path.insert(0, '$root/bench'); import overhead; print(' '.join(overhead.MEDIUM['$wl']))")
		cpu=$(printf '\t-\t%s' $(cputime "$runs" "$ts" "$out/$wl-plain" "$out/$wl-feedback"))
	fi
	# the program's own functions against plain (a gain: code generation)
	prog=$(python3 "$root/bench/callgrind_funcs.py" split "$out/$wl-plain.cg" -- "$out/$wl-feedback.cg" |
		awk '{print $4 + $5}')
	pi=$(insn_pct "$out/$wl-feedback.yaml" "$p" $((f - p)))
	wo=$(python3 -c 'import sys; n, m, g = map(int, sys.argv[1:]); m -= min(g, 0)
print("%.2f" % (n / m) if m > 0 else "-")' "$(echo "$pi" | cut -f1)" $((f - p)) "$prog")
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%+.2f%%\t%+.2f%%\t%s%%\t%s%%\t%s%%\t%s%%\t%s\t%s\t%s%s\n" "$wl" "$size" \
		"$(count "$out/$wl-default.yaml")" "$(count "$out/$wl-feedback.yaml")" "$(changes "$out/$wl-feedback.yaml")" "$p" \
		"$(echo "($d / $p - 1) * 100" | bc -l)" "$(echo "($f / $p - 1) * 100" | bc -l)" \
		"$(fb "$out/$wl-feedback.yaml" predicted_all)" \
		"$(fb "$out/$wl-feedback.yaml" predicted_kept predicted_added -predicted_not_chosen)" \
		"$(insn_pct "$out/$wl-feedback.yaml" "$p")" \
		"$(predicted "$out/$wl-feedback.prof")" "$pi" "$prog" "$wo" \
		"$r2$cpu" | tee -a "$tsv"
done
