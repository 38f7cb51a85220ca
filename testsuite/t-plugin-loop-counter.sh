#!/bin/bash
# SPDX-License-Identifier: MIT
# A loop region's counter costs its iterations only where GCC keeps it
# (issue 13 point 2; plugin/loopcounter.cc, include/selinst-predict.h):
# - at -O2, sum's counted for (loop_counter.c:13) keeps no counter of its
#   own (the count is the induction variable's final value): its region
#   says "counter: folded" in the profile, in selinst-report's JSON, and
#   the feedback build predicts its iterations nothing; chase's
#   data-dependent walk (:22) keeps one (a new induction variable that
#   only the hooks use), and calls' loop (:37) stores its count before
#   each call: both are charged 3 instructions an iteration;
# - at -O0 (and -fno-toplevel-reorder) nothing is marked: the counter is
#   charged as before;
# - callgrind: sum's loop costs nothing an iteration over plain's, chase's
#   at least one instruction.
. "$(dirname "$0")/lib.sh"
src=$T/programs/loop_counter.c
fl=(-fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loop-threshold=0)
n=300000
folded() { # PROFILE: the lines of the loops whose counter is folded
	yget "$1" "sorted(r['line'] for r in d['regions'] if r.get('counter') == 'folded')"
}
si_cc -O2 "${fl[@]}" "$src" -o o2 || fail "-O2 build"
SELINST_THROTTLE=off SELINST_OUTPUT=o2.prof ./o2 $n >/dev/null || fail "run -O2"
expect_eq "folded at -O2" "[13, 45]" "$(folded o2.prof)"
"$REPORT" --format=json o2.prof > o2.json || fail "report json"
expect_eq "folded in the report's JSON" "[13, 45]" \
	"$(jget o2.json "sorted(r['line'] for r in d['regions'] if r.get('counter') == 'folded')")"
for o in -O0 "-O2 -fno-toplevel-reorder"; do
	si_cc $o "${fl[@]}" "$src" -o o0 || fail "$o build"
	SELINST_OUTPUT=o0.prof ./o0 1000 >/dev/null || fail "run $o"
	expect_eq "folded at $o" "[]" "$(folded o0.prof)"
done

# The feedback build's prediction in instructions, by the rule of
# selinst-predict.h with the loop term per loop as it should be: 0 for
# sum's, 3 an iteration for chase's and calls' (and main's, folded: 0).
rm -f fb.yaml
si_cc -O2 "${fl[@]}" -fplugin-arg-selinst-decisions=fb.yaml -fplugin-arg-selinst-profile=o2.prof \
	-fplugin-arg-selinst-budget=100 "$src" -o fb || fail "feedback build"
predict() { # PROFILE
	python3 - "$@" <<'PY'
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))
counted = {22, 37}
total = 243000
for r in p["regions"]:
    mine = [n for t in p["threads"] for n in t["nodes"] if n["region"] == r["id"]]
    loop = r["kind"] == "loop"
    total += sum(n["calls"] for n in mine) * (78 if loop else 87)
    if loop and r["line"] in counted:
        total += 3 * sum(n.get("iterations", 0) for n in mine)
    total += len(mine) * (5000 if loop else 2600)
    total += 2700 + 29 * (len(r["name"]) + len(r["file"]) + len(r.get("function", "")))
print(total)
PY
}
expect_eq "predicted_kept_instructions" "$(predict o2.prof)" \
	"$(yget fb.yaml "d['feedback']['predicted_kept_instructions']")"

# What the counters cost, per function against plain (bench/loop-counter.sh).
if command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null; then
	gcc -O2 "$src" -o plain || fail "plain build"
	for x in plain o2; do
		SELINST_OUTPUT=/dev/null valgrind --tool=callgrind --callgrind-out-file=$x.cg \
			./$x $n >/dev/null 2>&1 || fail "callgrind $x"
		callgrind_annotate --threshold=100 $x.cg > $x.txt
	done
	fn_ir() { # ANNOTATION FUNCTION: its own instructions, its copies' added
		# (off-copy: FUNCTION.selinst.N and the like, README "What gets inserted")
		sed -n "s/^ *\([0-9,]*\) ([ 0-9.]*%) *[^ ]*:$2\(\.selinst[a-z_]*\.[0-9][^ ]*\)\{0,1\} .*/\1/p" "$1" | tr -d , |
			awk '{s += $1} END {print s + 0}'
	}
	per_iter() { # FUNCTION: its instructions over plain's, per iteration of its loop
		yget o2.prof "($(fn_ir o2.txt $1) - $(fn_ir plain.txt $1)) / sum(n.get('iterations', 0)
			for r in d['regions'] if r['kind'] == 'loop' and r['function'] == '$1'
			for t in d['threads'] for n in t['nodes'] if n['region'] == r['id'])"
	}
	s=$(per_iter sum) c=$(per_iter chase)
	ok=$(python3 -c 'import sys; s, c = map(float, sys.argv[1:]); print(abs(s) < 0.1 and c >= 1)' "$s" "$c")
	[ "$ok" = True ] || echo "sum $s, chase $c instructions an iteration"
	expect_eq "sum's counter free, chase's not (instructions an iteration)" True "$ok"
fi
echo ok
