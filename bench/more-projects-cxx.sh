#!/bin/bash
# SPDX-License-Identifier: MIT
# more-projects-cxx.sh - selinst's default settings on more real projects,
# each built by its own build system and checked by its OWN test suite.
#
# For each project: build plain (-O2 -g -Wall) and with the plugin at its
# defaults (the same flags with selinst-gcc/selinst-g++ of a private
# install, plus -fchecking and a decision file per unit), run the
# project's test suite on both builds (CPU time user+sys of the whole
# run), then print: tests passed plain / selinst, functions and loops
# instrumented / total (decision files), the test suite's CPU time ratio,
# the warnings only the plugin build gave (sorted warning lists compared),
# profiles written and selinst-report errors on them, and (autotools)
# configure results that differ from the plain build's.  By hand, never in
# CI: it needs `apt-get source` (network, a deb-src line) once and takes
# about an hour on 2 cores.  Results in bench/README.md, "More projects".
#
#   bash bench/more-projects-cxx.sh
#   PROJECTS="snappy sed" bash bench/more-projects-cxx.sh
#
# Variables:
#   WORK      scratch folder (default /tmp/selinst-more); Debian sources in
#             $WORK/src (fetched with apt-get source when missing), builds
#             in $WORK/build/PROJECT-VARIANT, logs and profiles in $WORK/res
#   PROJECTS  default "snappy leveldb re2 sed gawk"
#   VARIANTS  default "plain default"
#   JOBS      make -j (default 2)
#   WARN      warning flags of both builds (default -Wall: the late
#             warnings GCC gives after the plugin's pass, from its copies)
#   G         debug flag of both builds (default -g; -g0 went around the
#             ICE with -g that t-plugin-eh-debug covers, on re2's nfa.cc)
#   REUSE_BUILDS=1  run the tests again without building
#   ROOT      the selinst tree whose build/ is tested (default: this one)
# It runs itself under nice 10.
set -u
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
B=$ROOT/build
WORK=${WORK:-/tmp/selinst-more}
SRC=$WORK/src
PROJECTS=${PROJECTS:-snappy leveldb re2 sed gawk}
VARIANTS=${VARIANTS:-plain default}
JOBS=${JOBS:-2}
G=${G:--g}
WARN=${WARN--Wall}
RES=$WORK/res
mkdir -p "$SRC" "$RES" "$WORK/build"
renice -n 10 $$ >/dev/null
[ -f "$B/selinst.so" ] || { echo "build selinst first (make)" >&2; exit 1; }

# Debian source package and unpacked folder of each project.
srcpkg() { echo "$1"; }
srcdir() { ls -d "$SRC/$1"-[0-9]*/ 2>/dev/null | head -1; }

fetch() {
	[ -n "$(srcdir "$1")" ] && return 0
	(cd "$SRC" && apt-get source -qq "$(srcpkg "$1")") >"$RES/$1.fetch.log" 2>&1
}

# The plugin build uses the wrappers of a private install (their spec file
# links the runtime where the build system links, compiler checks too).
INST=$WORK/inst
make -C "$ROOT" install PREFIX="$INST" >"$RES/install.log" 2>&1 ||
	{ echo "make install PREFIX=$INST failed ($RES/install.log)" >&2; exit 1; }

# C compiler, C++ compiler and flags of variant $1 (decision files into $2).
cc_of() { case $1 in plain) echo gcc ;; *) echo "$INST/bin/selinst-gcc" ;; esac; }
cxx_of() { case $1 in plain) echo g++ ;; *) echo "$INST/bin/selinst-g++" ;; esac; }
cflags_of() {
	case $1 in
	plain) echo "-O2 $G $WARN" ;;
	default) echo "-O2 $G $WARN -fchecking -fplugin-arg-selinst-decisions=$2/%u.yaml" ;;
	esac
}

# cmake_build SRCDIR BUILDDIR VARIANT DECDIR EXTRA-CMAKE-ARGS...
cmake_build() {
	local s=$1 b=$2 v=$3 d=$4
	shift 4
	local cf
	cf=$(cflags_of "$v" "$d")
	cmake -S "$s" -B "$b" -DCMAKE_BUILD_TYPE=None \
		-DCMAKE_C_COMPILER="$(cc_of "$v")" -DCMAKE_CXX_COMPILER="$(cxx_of "$v")" \
		-DCMAKE_C_FLAGS="$cf" -DCMAKE_CXX_FLAGS="$cf" "$@" && make -C "$b" -j"$JOBS" VERBOSE=1
}

# autotools_build SRCDIR BUILDDIR VARIANT DECDIR EXTRA-CONFIGURE-ARGS...
autotools_build() {
	local s=$1 b=$2 v=$3 d=$4
	shift 4
	local cf
	cf=$(cflags_of "$v" "$d")
	(cd "$b" && "$s/configure" CC="$(cc_of "$v")" CXX="$(cxx_of "$v")" \
		CFLAGS="$cf" CXXFLAGS="$cf" "$@") &&
		make -C "$b" -j"$JOBS" V=1
}

# build_P SRC BUILD VARIANT DECDIR; test_P BUILD (prints the test log)
# Debian's build_static_lib.patch makes two targets write libsnappy.a:
# under make -j2 they race ("file truncated"), so one job.
build_snappy() { JOBS=1 cmake_build "$1" "$2" "$3" "$4" -DSNAPPY_BUILD_BENCHMARKS=OFF -DSNAPPY_BUILD_TESTS=ON; }
test_snappy() { (cd "$1" && ctest --output-on-failure -j"$JOBS"); }
build_leveldb() { cmake_build "$1" "$2" "$3" "$4" -DLEVELDB_BUILD_BENCHMARKS=OFF -DLEVELDB_BUILD_TESTS=ON; }
test_leveldb() { (cd "$1" && ctest --output-on-failure -j"$JOBS"); }
# re2's exhaustive and random tests (its "big tests") take tens of
# minutes each on one core: left out.
# Debian's source leaves out the generated Unicode tables (its build makes
# them with REBUILD_TABLES=1 from unicode-data).
prep_re2() {
	[ -f "$1/re2/perl_groups.cc" ] ||
		make -C "$1" REBUILD_TABLES=1 re2/perl_groups.cc re2/unicode_casefold.cc re2/unicode_groups.cc
}
build_re2() { cmake_build "$1" "$2" "$3" "$4" -DRE2_BUILD_TESTING=ON; }
test_re2() { (cd "$1" && ctest --output-on-failure -j"$JOBS" -E 'exhaustive|random_test'); }
# The test programs (gnulib's) built with the build (TESTS= runs none), so
# the suite's CPU time is running tests, not compiling them.
build_sed() { autotools_build "$1" "$2" "$3" "$4" && make -C "$2" -j"$JOBS" check TESTS=; }
# -k: the gnulib tests too after a failure (panic-tests.sh fails as root).
test_sed() { make -k -C "$1" -j"$JOBS" check; }
# Debian's source drops the manual; its build touches these (debian/rules).
prep_gawk() {
	(cd "$1/doc" && touch --date="Jan 01 2000" gawktexi.in sidebar.awk gawk.texi gawk.info \
		gawkinet.texi gawkinet.info gawkworkflow.texi gawkworkflow.info pm-gawk.texi pm-gawk.info)
}
build_gawk() { autotools_build "$1" "$2" "$3" "$4"; }
test_gawk() { make -C "$1" check; }

# Tests passed / run, from a test log.
passed_of() {
	local log=$1 n t
	if grep -q 'tests passed, .* tests failed out of' "$log"; then
		# ctest: "100% tests passed, 0 tests failed out of 3"
		t=$(grep -o 'failed out of [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
		n=$(grep -o '[0-9]* tests failed' "$log" | tail -1 | grep -o '^[0-9]*')
		echo "$((t - n))/$t$(awk '/^\[  PASSED  \] [0-9]+ test/{s+=$4; g=1}
			END{if (g) printf " (gtest cases passed: %d)", s}' "$log")"
	elif grep -q '^# PASS:' "$log"; then
		# automake test driver summaries (one per test directory)
		n=$(awk '/^# PASS:/{s+=$3} END{print s+0}' "$log")
		t=$(awk '/^# TOTAL:/{s+=$3} END{print s+0}' "$log")
		echo "$n/$t (skip $(awk '/^# SKIP:/{s+=$3} END{print s+0}' "$log"))"
	elif grep -q 'ALL TESTS PASSED' "$log"; then
		echo "all"
	elif grep -Eq '^[0-9]+ TESTS? FAILED' "$log"; then
		# gawk: "3 TESTS FAILED", and the failed tests' names before
		echo "all but $(grep -Eo '^[0-9]+ TESTS? FAILED' "$log" | awk '{s+=$1} END{print s}')" \
			"($(grep -o '^============== _[^ ]*' "$log" | sed 's/.*_//' | tr '\n' ' '| sed 's/ $//'))"
	else
		echo "$(grep -c 'FAILED\|failed' "$log") failure lines"
	fi
}

# Warnings of a build log, without build-folder paths, sorted.
warnings_of() {
	grep -o '[^ ]*: warning: .*' "$1" | sed "s|$WORK/build/[^/]*/||g" | sort -u
}

# Functions and loops instrumented / total over a folder of decision files
# (each file: "functions:" then "loops:", an entry per "- name:").
decisions_of() {
	cat "$1"/*.yaml 2>/dev/null | awk '
		/^functions:/ { sec = "f" } /^loops:/ { sec = "l" } /^---/ { sec = "" }
		/^- name:/ { n[sec]++ } /^  instrument: true/ { i[sec]++ }
		END { printf "%d / %d functions, %d / %d loops instrumented\n",
			i["f"], n["f"], i["l"], n["l"] }'
}

run_one() {
	local p=$1 v=$2 s b d
	s=$(srcdir "$p")
	s=${s%/}
	b=$WORK/build/$p-$v
	d=$RES/dec/$p-$v
	if [ -z "${REUSE_BUILDS:-}" ]; then
		rm -rf "$b" "$d"
		mkdir -p "$b" "$d"
		"build_$p" "$s" "$b" "$v" "$d" >"$RES/$p-$v.build.log" 2>&1 ||
			{ echo "$p $v: BUILD FAILED ($RES/$p-$v.build.log)"; return 1; }
	fi
	rm -rf "$RES/prof/$p-$v"
	mkdir -p "$RES/prof/$p-$v"
	local rc TIMEFORMAT='%U %S %R'
	# bash's time: user and sys of the whole suite, its children included
	{ time SELINST_OUTPUT="$RES/prof/$p-$v/%e.%p.prof" \
		"test_$p" "$b" >"$RES/$p-$v.test.log" 2>&1; } 2>"$RES/$p-$v.time"
	rc=$?
	echo "  $p $v: test exit $rc, passed $(passed_of "$RES/$p-$v.test.log")," \
		"cpu $(awk '{print $1 + $2}' "$RES/$p-$v.time") s"
}

# configure's cached results that differ from the plain build's, the
# compiler's own names and flags aside (a check that fails only with the
# plugin changes what the project builds: gnulib's unsetenv replaced, its
# warning options dropped).
configure_diff() {
	local p=$1 v=$2 a=$WORK/build/$1-plain/config.log b=$WORK/build/$1-$2/config.log
	[ -f "$a" ] && [ -f "$b" ] || { echo "  $p $v: no config.log"; return; }
	diff <(config_results "$a" "$p-plain") <(config_results "$b" "$p-$v") >"$RES/$p-$v.configure-diff"
	echo "  $p $v: $(grep -c '^>' "$RES/$p-$v.configure-diff") configure results differ from plain" \
		"($RES/$p-$v.configure-diff)"
}
# Cached results and output variables of a config.log, the build folder
# named alike and the compiler's own names and flags left out.
config_results() {
	grep -E '^[A-Za-z_][A-Za-z0-9_]*=' "$1" | sed "s|$WORK/build/$2|BUILD|g" |
		grep -v selinst | grep -Ev '^(COLLECT_GCC=|ac_cv_env_|ac_cv_prog_(ac_ct_)?(CC|CXX|CPP|CXXCPP)=|(CC|CXX|CPP|CXXCPP|CFLAGS|CXXFLAGS|ac_ct_CC|ac_ct_CXX)=)'
}

report_profiles() {
	local p=$1 v=$2 n=0 bad=0 f
	for f in "$RES/prof/$p-$v"/*.prof; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		"$B/selinst-report" "$f" >/dev/null 2>>"$RES/$p-$v.report-errors" || bad=$((bad + 1))
	done
	# a process that ended without the exit-time write leaves a snapshot
	# (complete: false) or nothing
	echo "  $p $v: $n profiles ($(grep -l '^complete: false' "$RES/prof/$p-$v"/*.prof 2>/dev/null |
		wc -l) incomplete), $bad selinst-report failures;" \
		"$(grep -c 'selinst: ' "$RES/$p-$v.test.log") runtime messages in the test log"
}

for p in $PROJECTS; do
	fetch "$p" || { echo "$p: apt-get source failed"; continue; }
	if declare -F "prep_$p" >/dev/null; then
		s=$(srcdir "$p")
		"prep_$p" "${s%/}" >"$RES/$p.prep.log" 2>&1 || { echo "$p: prep_$p failed"; continue; }
	fi
	for v in $VARIANTS; do run_one "$p" "$v"; done
	for v in $VARIANTS; do
		[ "$v" = plain ] && continue
		echo "  $p $v: $(decisions_of "$RES/dec/$p-$v")"
		echo "  $p $v: CPU ratio $(paste "$RES/$p-plain.time" "$RES/$p-$v.time" |
			awk '{printf "%.3f", ($4 + $5) / ($1 + $2)}')"
		comm -13 <(warnings_of "$RES/$p-plain.build.log") <(warnings_of "$RES/$p-$v.build.log") \
			>"$RES/$p-$v.extra-warnings"
		echo "  $p $v: $(wc -l <"$RES/$p-$v.extra-warnings") warnings only with the plugin" \
			"($RES/$p-$v.extra-warnings)"
		report_profiles "$p" "$v"
		[ -f "$WORK/build/$p-$v/config.log" ] && configure_diff "$p" "$v"
	done
done
