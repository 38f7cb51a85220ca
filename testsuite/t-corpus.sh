#!/bin/bash
# SPDX-License-Identifier: MIT
# "Nothing breaks" (issue 2, item 5): every program in testsuite/corpus/
# (C, C++, Fortran; one source file each) is built plainly with -O2 as the
# reference, then rebuilt in these variants, and each variant's stdout and
# exit status must equal the reference's:
#   plain-O0             gcc -O0 (catches undefined behaviour in the corpus
#                        itself rather than in the plugin)
#   t0-O0 t0-O2 t0-O3    -fchecking -fplugin=selinst.so at threshold 0,
#                        linked with the runtime
#   tD-O0 tD-O2          the same at the default threshold 204800
#   h0-O2                threshold 0 linked with tools/hookcheck.c instead
#                        of the runtime (only when the runtime exists)
# t0: when the decision file says anything was instrumented, the run must
# have written its profile ($SELINST_OUTPUT).
# hookcheck (tools/hookcheck.c) is a stand-in runtime that checks the hook
# calls: region descriptors, exits of regions that are not open, function
# regions closed implicitly because their exit hook never ran, loop exits
# not on top (see its header).  A program may declare what it breaks on
# purpose with a line "corpus-hookcheck-allows: COUNTER...".
#
# Per-program settings are comment lines in the source:
#   corpus-flags: extra compile/link flags (e.g. -fopenmp, -pthread)
#   corpus-env:   VAR=value pairs for the run (e.g. OMP_NUM_THREADS=2)
# Environment: CORPUS_ONLY=glob picks programs (e.g. 'cc_*'),
# CORPUS_VARIANTS replaces the variant list (KIND-LEVEL[+FLAG...], KIND
# plain, t0, tD or h0: e.g. "t0-Os t0-O2+-g+-flto"), CORPUS_JOBS (default
# 2) parallel programs, CORPUS_KEEP=1 keeps $WORK, CORPUS_HOOKCHECK=1 links
# t0/tD with hookcheck even when the runtime exists.
#
# Without a loadable plugin only the plain variants run and the test ends
# with exit 77 (skip).  Without build/libselinst.so, t0/tD link against
# hookcheck, profiles are not checked, and the test ends with 77 unless
# something failed.
. "$(dirname "$0")/lib.sh"
CORPUS=$T/corpus
DEFAULT_THRESHOLD=204800
[ "${CORPUS_KEEP:-0}" = 1 ] && trap 'echo "kept $WORK"' EXIT

shopt -s nullglob
progs=()
for f in "$CORPUS"/${CORPUS_ONLY:-*}; do
	case $f in *.c|*.cc|*.f90) progs+=("$f") ;; esac
done
[ ${#progs[@]} -gt 0 ] || fail "no corpus programs in $CORPUS"

# Is the plugin there and does it load?
plugin_ok=0
plugin_why="$PLUGIN does not exist"
if [ -f "$PLUGIN" ]; then
	echo 'int main(void) { return 0; }' >probe.c
	if gcc -fplugin="$PLUGIN" -c probe.c -o probe.o >probe.log 2>&1; then
		plugin_ok=1
	else
		plugin_why="$PLUGIN does not load: $(head -3 probe.log | tr '\n' ' ')"
	fi
fi

# The runtime, and tools/hookcheck.c: a stand-in runtime that checks the
# hook calls (nesting, descriptors) instead of profiling.  It replaces the
# runtime when build/libselinst.so is missing (or CORPUS_HOOKCHECK=1), and
# otherwise runs as an extra variant, h0 (threshold 0).
runtime=real
[ $plugin_ok = 1 ] || runtime=none
libs=$SI_LIBS
hclibs=""
if [ $plugin_ok = 1 ]; then
	mkdir -p hookcheck
	gcc -O2 -shared -fPIC -I"$SELINST_ROOT/include" "$CORPUS/tools/hookcheck.c" -o hookcheck/libselinst.so ||
		fail "cannot build tools/hookcheck.c"
	hclibs="-L$WORK/hookcheck -lselinst -Wl,-rpath,$WORK/hookcheck"
	if [ ! -f "$SELINST_BUILD/libselinst.so" ] || [ "${CORPUS_HOOKCHECK:-0}" = 1 ]; then
		runtime=hookcheck
		libs=$hclibs
	fi
fi

# `make check` runs the variants that catch most (threshold 0 at -O0 and
# -O2, compared region by region; the default threshold; hookcheck);
# `make check-full` (SELINST_FULL=1) adds plain-O0, t0-O3 and tD-O0.
variants=""
[ "${SELINST_FULL:-0}" = 1 ] || [ $plugin_ok = 0 ] && variants="plain-O0"
[ $plugin_ok = 1 ] && variants="$variants t0-O0 t0-O2 tD-O2"
[ $plugin_ok = 1 ] && [ "${SELINST_FULL:-0}" = 1 ] && variants="$variants t0-O3 tD-O0"
[ $runtime = real ] && variants="$variants h0-O2"
[ -n "${CORPUS_VARIANTS:-}" ] && variants=$CORPUS_VARIANTS
export WORK PLUGIN SELINST_ROOT DEFAULT_THRESHOLD runtime libs hclibs variants CORPUS REPORT

# run_prog SRC: builds and runs every variant of one program; writes
# res/NAME.log (failures, human-readable) and res/NAME.count (pass/fail
# counts).  Always returns 0 so that xargs goes on.
run_prog() {
	src=$1
	base=$(basename "$src")
	name=${base%.*}
	case $base in
	*.c)   cc=gcc ;;
	*.cc)  cc=g++ ;;
	*.f90) cc=gfortran ;;
	esac
	flags=$(sed -n 's/.*corpus-flags: *\(.*\)/\1/p' "$src" | sed 's/ *\*\/ *$//' | tr '\n' ' ')
	allows=$(sed -n 's/.*corpus-hookcheck-allows: *\(.*\)/\1/p' "$src" | sed 's/ *\*\/ *$//' | tr '\n' ' ')
	envs=$(sed -n 's/.*corpus-env: *\(.*\)/\1/p' "$src" | sed 's/ *\*\/ *$//' | tr '\n' ' ')
	dir=$WORK/res/$name
	mkdir -p "$dir"
	log=$WORK/res/$name.log
	: >"$log"
	pass=0 nfail=0

	# build_run VARIANT: compile into $dir/VARIANT/prog and run it there;
	# leaves out, rc, cc.log, and prof_expected (1 when the decision file
	# says something was instrumented).
	build_run() {
		v=$1
		vd=$dir/$v
		mkdir -p "$vd"
		local O plug="" extra="" more=""
		# VARIANT is KIND-LEVEL[+FLAG...]: t0-O2+-g+-flto adds -g -flto
		case $v in *+*) more=$(echo "${v#*+}" | tr '+' ' ') ;; esac
		local lvl=${v%%+*}
		case $lvl in
		ref)     O=-O2 ;;
		plain-*) O=-${lvl#plain-} ;;
		t0-*)    O=-${lvl#t0-}; plug="-fchecking -fplugin=$PLUGIN -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=$vd/decisions.yaml -I$SELINST_ROOT/include" ;;
		h0-*)    O=-${lvl#h0-}; plug="-fchecking -fplugin=$PLUGIN -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=$vd/decisions.yaml -I$SELINST_ROOT/include" ;;
		tD-*)    O=-${lvl#tD-}; plug="-fchecking -fplugin=$PLUGIN -fplugin-arg-selinst-threshold=$DEFAULT_THRESHOLD -I$SELINST_ROOT/include" ;;
		esac
		[ -n "$plug" ] && extra=$libs
		case $lvl in h0-*) extra=$hclibs ;; esac
		if [ $cc = gfortran ]; then extra="$extra -J$vd"; fi
		# shellcheck disable=SC2086
		if ! (cd "$vd" && $cc $O -g0 -w $more $plug "$src" -o prog $flags -lm $extra) >"$vd/cc.log" 2>&1; then
			echo "compile failed"
			return 1
		fi
		echo 0 >"$vd/prof_expected"
		[ -f "$vd/decisions.yaml" ] && grep -Eq 'instrument: *true' "$vd/decisions.yaml" && echo 1 >"$vd/prof_expected"
		# shellcheck disable=SC2086
		(cd "$vd" && env $envs SELINST_OUTPUT="$vd/x.prof" timeout 30 ./prog >out 2>err </dev/null)
		echo $? >"$vd/rc"
		return 0
	}

	if ! build_run ref >/dev/null; then
		{ echo "== $name ref (plain -O2): compile failed"; tail -20 "$dir/ref/cc.log"; } >>"$log"
		echo "0 1" >"$WORK/res/$name.count"
		return 0
	fi
	for v in $variants; do
		vd=$dir/$v
		if ! build_run "$v" >/dev/null; then
			{ echo "== $name $v: compile failed"; sed 's/^/   /' "$vd/cc.log" | tail -25; } >>"$log"
			nfail=$((nfail + 1))
			continue
		fi
		why=""
		cmp -s "$dir/ref/out" "$vd/out" || why="stdout differs"
		rr=$(cat "$dir/ref/rc") vr=$(cat "$vd/rc")
		[ "$rr" = "$vr" ] || why="${why:+$why; }exit status $vr, reference $rr"
		if [ -z "$why" ] && [ "$runtime" = real ] && [ "${v%%-*}" = t0 ] && [ "$(cat "$vd/prof_expected")" = 1 ] && [ ! -f "$vd/x.prof" ]; then
			why="no profile written (SELINST_OUTPUT=$vd/x.prof)"
		fi
		if [ -z "$why" ] && [ -f "$vd/x.prof.check" ]; then
			for k in bad_descriptor exit_unmatched func_closed loop_exit_nottop bad_iterations overflow; do
				case " $allows " in *" $k "*) continue ;; esac
				n=$(grep -o " $k [0-9]*" "$vd/x.prof.check" | awk '{ s += $2 } END { print s + 0 }')
				[ "$n" = 0 ] || why="${why:+$why; }hookcheck: $k $n"
			done
			[ -n "$why" ] && why="$why; $(grep -o 'first: .*' "$vd/x.prof.check" | head -1)"
		fi
		if [ -n "$why" ]; then
			{
				echo "== $name $v: $why"
				diff -u "$dir/ref/out" "$vd/out" | head -30 | sed 's/^/   /'
				[ -s "$vd/err" ] && { echo "   stderr:"; head -10 "$vd/err" | sed 's/^/   | /'; }
			} >>"$log"
			nfail=$((nfail + 1))
		else
			pass=$((pass + 1))
		fi
	done
	# The same functions, loops, metrics, decisions, names and counts at
	# -O0 and -O2.  Programs whose
	# counts depend on timing say "corpus-levels: decisions" (threaded ones
	# are compared so without saying);
	# those where a front end makes different code by level say
	# "corpus-levels: none", with the reason.
	if [ -f "$dir/t0-O0/decisions.yaml" ] && [ -f "$dir/t0-O2/decisions.yaml" ] \
	   && ! grep -q 'corpus-levels: none' "$src"; then
		local mode=counts
		grep -q 'corpus-levels: decisions' "$src" && mode=decisions
		# Threads: who runs what, and so the per-region counts, depends on
		# scheduling.
		case " $flags " in *" -fopenmp "*|*" -pthread "*) mode=decisions ;; esac
		[ "$runtime" = real ] && [ -f "$dir/t0-O0/x.prof" ] && [ -f "$dir/t0-O2/x.prof" ] || mode=decisions
		# Metrics too (blocks, statements, ...), unless the program says
		# "corpus-levels-metrics: differ (reason)".
		local metrics=metrics
		grep -q 'corpus-levels-metrics: differ' "$src" && metrics=""
		if ! python3 "$CORPUS/tools/levels.py" "$dir/t0-O0" "$dir/t0-O2" $mode "$REPORT" $metrics >"$dir/levels.txt" 2>&1; then
			{ echo "== $name -O0 vs -O2 ($mode):"; head -20 "$dir/levels.txt" | sed 's/^/   /'; } >>"$log"
			nfail=$((nfail + 1))
		else
			pass=$((pass + 1))
		fi
	fi
	echo "$pass $nfail" >"$WORK/res/$name.count"
	return 0
}
export -f run_prog

mkdir -p res
start=$(date +%s)
printf '%s\n' "${progs[@]}" | xargs -P "${CORPUS_JOBS:-2}" -I{} bash -c 'run_prog "$1"' _ {}
secs=$(( $(date +%s) - start ))

passed=0 failed=0
for p in "${progs[@]}"; do
	b=$(basename "$p"); n=${b%.*}
	if [ -f "res/$n.count" ]; then
		read -r a f <"res/$n.count"
		passed=$((passed + a)) failed=$((failed + f))
	else
		echo "== $n: did not finish"
		failed=$((failed + 1))
	fi
	[ -s "res/$n.log" ] && cat "res/$n.log"
done
echo "corpus: ${#progs[@]} programs, variants: ref $variants; $passed passed, $failed failed (${secs}s, runtime: $runtime)"
[ $failed -eq 0 ] || exit 1
[ $plugin_ok = 1 ] || skip "plain builds only: $plugin_why"
[ $runtime = real ] || skip "plugin variants linked against tools/hookcheck.c, not build/libselinst.so; profiles not checked"
exit 0
