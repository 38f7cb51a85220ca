# SPDX-License-Identifier: MIT
# Sourced by every test script.  Gives a scratch directory as the working
# directory and helpers to compile with the plugin and check results.
set -u
export LC_ALL=C  # ASCII quotes in GCC diagnostics
: "${SELINST_ROOT:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${SELINST_BUILD:=$SELINST_ROOT/build}"
T=$SELINST_ROOT/testsuite
PLUGIN=$SELINST_BUILD/selinst.so
REPORT=$SELINST_BUILD/selinst-report
WORK=$(mktemp -d /tmp/selinst-t.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1

# Flags to compile and link a program with the plugin and the runtime.
SI_CFLAGS="-fchecking -fplugin=$PLUGIN -I$SELINST_ROOT/include"
SI_LIBS="-L$SELINST_BUILD -lselinst -Wl,-rpath,$SELINST_BUILD"

# si_cc [gcc args...]: gcc with the plugin and the runtime.
si_cc()  { gcc $SI_CFLAGS "$@" $SI_LIBS; }
si_cxx() { g++ $SI_CFLAGS "$@" $SI_LIBS; }

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
need() { command -v "$1" >/dev/null 2>&1 || skip "$1 not installed"; }

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() { [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"; }

# Tests query YAML and JSON with python3 and PyYAML (installed by the
# README's set-up command): yget FILE EXPR evaluates EXPR with d = the
# parsed document and prints the result.
# samples_total PROFILE...: the threads' samples, added up over the
# profiles (a sampled thread writes "samples: 0" when none landed).
samples_total() { cat "$@" | sed -n 's/^  samples: \([0-9][0-9]*\).*/\1/p' | awk '{s += $1} END {print s + 0}'; }
yget() { python3 -c 'import sys,yaml; d=yaml.safe_load(open(sys.argv[1])); print(eval(sys.argv[2], {"d": d}))' "$@"; }
jget() { python3 -c 'import sys,json; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {"d": d}))' "$@"; }

# loop_split FOLDED STACK A B: in selinst-report's folded output FOLDED,
# the sampled loops ~loop A and ~loop B under STACK hold 90% or more of
# STACK's time, A 75% of the two within 6 points (the sample tests' 3:1
# loops; binomial error over about 600 signals: 1.8 points of standard
# deviation).
loop_split() {
	python3 - "$@" <<'PY'
import sys
f = {}
for l in open(sys.argv[1]):
    stack, v = l.rsplit(" ", 1)
    f[stack] = int(v)
o = sys.argv[2]
a, b = f.get(o + ";~loop " + sys.argv[3], 0), f.get(o + ";~loop " + sys.argv[4], 0)
assert a + b >= 0.9 * (a + b + f.get(o, 0)), f
share = 100.0 * a / (a + b)
assert abs(share - 75) <= 6, (share, f)
PY
}

# sampled_paths PROFILE... : the sampled nodes that selinst-report names
# (--tree over the profiles, nothing pruned), one a line: the call path
# ("work;[loop hot.c:23];~leaf", a loop without its iteration count), a
# tab, its sample count.  The profile gives addresses; the report names
# them (profile version 3), so tests read names here.
sampled_paths() {
	"$REPORT" --tree --prune 0 --wide "$@" | python3 -c '
import re, sys
path = []
for l in sys.stdin:
    m = re.match(r"^ *[0-9.]+ +[0-9.]+% +[0-9.]+ +([0-9]+)( smp)?( +)(\S.*)$", l.rstrip("\n"))
    if not m:
        continue
    depth = (len(m.group(3)) - (1 if m.group(2) else 1)) // 2
    name = re.sub(r"^(\[loop [^]]*\]).*", r"\1", m.group(4))
    path[depth:] = [name]
    if m.group(2):
        print(";".join(path) + "\t" + m.group(1))
'
}

# with_samples PROFILE OUT SAMPLES IN_HOOKS: PROFILE (of a run with
# SELINST_SAMPLE=off) again in OUT with its
# thread 0 sampled (SELINST_SAMPLE): SAMPLES samples, IN_HOOKS of them
# found a hook running.
with_samples() {
	python3 - "$@" <<'PY'
import sys
out, done = [], False
for line in open(sys.argv[1]):
    out.append(line)
    if line.startswith("  overflow_calls:") and not done:
        out.append("  samples: %s\n  samples_in_runtime: %s\n" % (sys.argv[3], sys.argv[4]))
        done = True
open(sys.argv[2], "w").write("".join(out))
PY
}
