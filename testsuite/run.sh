#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs every test script testsuite/t-*.sh (or those named on the command
# line), two at a time, and ends with the summary line CI reads:
#   N passed, N failed
# (skipped tests are counted on the line before it).
# A test script exits 0 (pass), 77 (skip: a tool it needs is missing) or
# anything else (fail); its output is shown only when it fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
export SELINST_ROOT=$(dirname "$here")
export SELINST_BUILD=${SELINST_BUILD:-$SELINST_ROOT/build}
jobs=${TEST_JOBS:-2}
logdir=$(mktemp -d /tmp/selinst-tests.XXXXXX)
# SELINST_GCC=gcc-11 (make check PLUGIN_GCC=gcc-11): the tests' gcc, g++,
# gfortran, cc and c++ are that GCC's drivers (mpicc runs gcc through PATH).
if [ -n "${SELINST_GCC:-}" ] && [ "$SELINST_GCC" != gcc ]; then
	mkdir "$logdir/bin"
	pre=${SELINST_GCC%gcc*} suf=${SELINST_GCC##*gcc}	# /usr/bin/gcc-11: "/usr/bin/", "-11"
	for d in gcc:gcc g++:g++ gfortran:gfortran cc:gcc c++:g++; do
		real=$(command -v "$pre${d#*:}$suf") && ln -s "$real" "$logdir/bin/${d%%:*}"
	done
	export PATH=$logdir/bin:$PATH
	echo "compilers: $(gcc -dumpfullversion) ($SELINST_GCC)"
fi
if [ $# -gt 0 ]; then tests=("$@"); else tests=("$here"/t-*.sh); fi

run_one() {
	t=$1; logdir=$2
	name=$(basename "$t" .sh)
	start=$(date +%s%N)
	bash "$t" >"$logdir/$name.log" 2>&1
	rc=$?
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	case $rc in
	0)  echo "PASS $name ($((ms / 1000)).$((ms % 1000 / 100))s)"; echo pass >"$logdir/$name.rc" ;;
	77) echo "SKIP $name: $(tail -1 "$logdir/$name.log")"; echo skip >"$logdir/$name.rc" ;;
	*)  echo "FAIL $name (exit $rc)"; sed 's/^/    | /' "$logdir/$name.log" | tail -40
	    echo fail >"$logdir/$name.rc" ;;
	esac
}
export -f run_one
printf '%s\n' "${tests[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one "$1" "$2"' _ {} "$logdir"

passed=$(cat "$logdir"/*.rc 2>/dev/null | grep -c '^pass$')
failed=$(cat "$logdir"/*.rc 2>/dev/null | grep -c '^fail$')
skipped=$(cat "$logdir"/*.rc 2>/dev/null | grep -c '^skip$')
ran=$(ls "$logdir"/*.rc 2>/dev/null | wc -l)
missing=$(( ${#tests[@]} - ran ))
failed=$(( failed + missing ))
rm -rf "$logdir"
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
