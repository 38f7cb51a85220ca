#!/bin/bash
# SPDX-License-Identifier: MIT
# torture.sh - build real Debian packages with the selinst plugin and check
# that their own test suites pass exactly as they do without it.
#
# For running by hand, not in CI (needs the network for apt, and minutes).
#
#   bash scripts/torture.sh                 # zlib and tinyxml2, -O0 -O2 -O3
#   PKGS=zlib OPTS="O2 Os" bash scripts/torture.sh
#
# Per package and -O level: a plain build, one with threshold=0 (everything
# instrumented) and one with the default threshold.  Each build's test suite
# is run; a plugin build passes when its build succeeds and its test result
# equals the plain build's.  Profiles go to $WORK/prof/<run>/%p.prof and each
# is read back with selinst-report.  Compile time is user+sys CPU seconds.
# Everything is compiled with -fchecking (plain builds too, for a fair ratio).
# Exit status: 0 when every plugin build passes, 1 otherwise.
#
# Needs: make (the repo built), apt-get source with deb-src lines (added as
# /etc/apt/sources.list.d/selinst-torture-src.sources when run as root and
# missing), and each package's build tools (zlib: make; tinyxml2: g++).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=$ROOT/build
WORK=${WORK:-/tmp/selinst-torture}
PKGS=${PKGS:-zlib tinyxml2}
OPTS=${OPTS:-O0 O2 O3}
NICE=${NICE:-nice -n 19}

[ -f "$B/selinst.so" ] && [ -f "$B/libselinst.so" ] && [ -x "$B/selinst-report" ] ||
	{ echo "torture.sh: build the repo first (make)" >&2; exit 2; }
mkdir -p "$WORK/src" "$WORK/bin" "$WORK/logs" "$WORK/prof"

# Sources, once.
fetch() {
	local pkg=$1
	[ -e "$WORK/src/$pkg" ] && return 0
	if ! (cd "$WORK/src" && apt-get source --download-only "$pkg" >/dev/null 2>&1); then
		if [ "$(id -u)" = 0 ] && ! grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/ &&
		   ! grep -qs '^deb-src' /etc/apt/sources.list; then
			codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
			printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
				"$codename" > /etc/apt/sources.list.d/selinst-torture-src.sources
			apt-get update -qq
		fi
		(cd "$WORK/src" && apt-get source --download-only "$pkg" >/dev/null) ||
			{ echo "torture.sh: apt-get source $pkg failed (deb-src lines?)" >&2; return 1; }
	fi
	(cd "$WORK/src" && dpkg-source -x --no-check "$(ls ${pkg}_*.dsc | head -1)" >/dev/null) || return 1
	ln -sfn "$(cd "$WORK/src" && ls -d ${pkg}-*/ | head -1)" "$WORK/src/$pkg"
}

# Compiler wrappers: flags go last so that the -O level and plugin win over
# whatever the package's build system passes.
for c in gcc g++; do
	printf '#!/bin/sh\nexec %s "$@" $OPTFLAG $SELFLAGS\n' "$c" > "$WORK/bin/sel-$c"
	chmod +x "$WORK/bin/sel-$c"
done

build_pkg() {
	case $1 in
	zlib) ./configure && make -j2 all ;;
	tinyxml2) $CXX -c tinyxml2.cpp && $CXX -c xmltest.cpp && $CXX tinyxml2.o xmltest.o -o xmltest ;;
	esac
}
# Prints one line that must be equal between plain and plugin builds.
test_pkg() {
	case $1 in
	zlib) make test >test.out 2>&1; echo "rc=$? ok_lines=$(grep -c 'test OK' test.out)" ;;
	tinyxml2) timeout 600 ./xmltest >test.out 2>&1; echo "rc=$? $(tail -1 test.out)" ;;
	esac
}

run() {	# run PKG OPT MODE -> sets R_BUILD R_TEST R_TIME R_PROF
	local pkg=$1 opt=$2 mode=$3 tag=$1-$2-$3
	local dir=$WORK/build/$tag prof=$WORK/prof/$tag
	rm -rf "$dir" "$prof"; mkdir -p "$dir" "$prof"
	cp -a "$WORK/src/$pkg/." "$dir"
	local plug="-fplugin=$B/selinst.so -I$ROOT/include -L$B -lselinst -Wl,-rpath,$B"
	case $mode in
	plain) SELFLAGS=-fchecking ;;
	t0) SELFLAGS="-fchecking $plug -fplugin-arg-selinst-threshold=0" ;;
	tdef) SELFLAGS="-fchecking $plug" ;;
	esac
	export SELFLAGS OPTFLAG=-$opt CC=sel-gcc CXX=sel-g++ PATH=$WORK/bin:$PATH
	export SELINST_OUTPUT=$prof/%p.prof
	(cd "$dir" && $NICE /usr/bin/time -f '%U %S' -o "$WORK/logs/$tag.time" \
		bash -c "$(declare -f build_pkg); build_pkg $pkg") >"$WORK/logs/$tag.build" 2>&1
	if [ $? = 0 ]; then
		R_BUILD=ok
		R_TEST=$(cd "$dir" && $NICE bash -c "$(declare -f test_pkg); test_pkg $pkg")
	else
		R_BUILD=FAIL
		R_TEST=-
		grep -m1 -E 'internal compiler error|error:' "$WORK/logs/$tag.build" >&2
	fi
	R_TIME=$(tail -1 "$WORK/logs/$tag.time" | awk '{print $1 + $2}')
	local n=0 bad=0 f
	for f in "$prof"/*.prof; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		"$B/selinst-report" "$f" >/dev/null 2>>"$WORK/logs/$tag.report" || bad=$((bad + 1))
	done
	local regions
	# Distinct regions of all the run's profiles, from the report's JSON
	# (which reads the format; no parsing of the profile here).
	regions=0
	[ $n -gt 0 ] && regions=$("$B/selinst-report" --format=json "$prof"/*.prof 2>/dev/null |
		python3 -c 'import json,sys; print(len(json.load(sys.stdin)["regions"]))' 2>/dev/null ||
		echo '?')
	R_PROF="$n profiles, $regions regions"
	[ $bad = 0 ] || R_PROF="$R_PROF, $bad UNREADABLE"
}

status=0
printf '%-10s %-4s %-6s %-6s %-5s %-8s %s\n' package -O mode build tests time profile
for pkg in $PKGS; do
	fetch "$pkg" || { status=1; continue; }
	for opt in $OPTS; do
		run "$pkg" "$opt" plain
		base_test=$R_TEST base_time=$R_TIME
		printf '%-10s %-4s %-6s %-6s %-5s %-8s %s\n' "$pkg" "$opt" plain "$R_BUILD" \
			"$( [ "$R_BUILD" = ok ] && echo ref || echo -)" "${R_TIME}s" "($base_test)"
		for mode in t0 tdef; do
			run "$pkg" "$opt" "$mode"
			verdict=FAIL
			[ "$R_BUILD" = ok ] && [ "$R_TEST" = "$base_test" ] && verdict=pass
			[ "$verdict" = pass ] && [[ "$R_PROF" != *UNREADABLE* ]] || status=1
			[ "$R_TEST" = "$base_test" ] || [ "$R_BUILD" != ok ] || echo "  tests differ: $R_TEST" >&2
			ratio=$(awk -v a="$R_TIME" -v b="$base_time" 'BEGIN{printf "%.2fx", (b > 0 ? a / b : 0)}')
			printf '%-10s %-4s %-6s %-6s %-5s %-8s %s\n' "$pkg" "$opt" "$mode" "$R_BUILD" \
				"$verdict" "$ratio" "$R_PROF"
		done
	done
done
echo "logs: $WORK/logs"
exit $status
