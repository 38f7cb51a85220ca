#!/bin/bash
# SPDX-License-Identifier: MIT
# more-projects.sh - selinst's default settings on more real projects, each
# built by its own build system and checked by its OWN test suite.
#
# bench/real-projects.sh measures overhead on a workload of seven projects;
# this one asks whether the default build (no threshold, off-copy=on) still
# builds, passes the project's tests and writes readable profiles on
# projects the plugin was not tuned on.  Per project it builds the sources
# twice from Debian 12's source packages, plain (gcc-12) and with the
# installed wrappers (selinst-gcc/selinst-g++), both with the same flags,
# then runs the project's test suite on each under /usr/bin/time, and
# prints: tests passed plain / selinst, functions instrumented / total (the
# decision files), the test suite's CPU time ratio, warnings only the
# plugin build gives, profiles written and whether selinst-report reads
# each.  By hand, never in CI: it needs apt-get source (network), build
# dependencies (scripts/install-deps.sh) and about 45 minutes on 2 cores.
#
#   bash bench/more-projects.sh
#   PROJECTS="zlib expat" WORK=/tmp/more bash bench/more-projects.sh
#
# Variables:
#   WORK      scratch folder (default /tmp/selinst-more): src/ sources,
#             inst/ a private `make install` of this tree (the wrappers),
#             b/PROJECT-VARIANT builds, res/ logs and results
#   PROJECTS  default "zlib bzip2 expat pcre2 jq tinyxml2 jsoncpp fmtlib"
#   FLAGS     compile flags of both builds (default "-O2 -g -fchecking")
#   JOBS      make -j (default 2)
#   VARIANTS  default "plain default"; "default" alone redoes only the
#             selinst builds (the table reads plain's results of an
#             earlier run)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${WORK:-/tmp/selinst-more}
PROJECTS=${PROJECTS:-zlib bzip2 expat pcre2 jq tinyxml2 jsoncpp fmtlib}
FLAGS=${FLAGS:--O2 -g -fchecking}
VARIANTS=${VARIANTS:-plain default}
JOBS=${JOBS:-2}
INST=$WORK/inst
SRC=$WORK/src
RES=$WORK/res

[ -f "$ROOT/build/selinst.so" ] ||
	{ echo "more-projects.sh: build the repo first (make)" >&2; exit 2; }
mkdir -p "$SRC" "$RES" "$WORK/b"
make -C "$ROOT" install PREFIX="$INST" >"$RES/install.log" 2>&1 ||
	{ echo "more-projects.sh: make install PREFIX=$INST failed" >&2; exit 2; }

debpkg() { case $1 in jsoncpp) echo libjsoncpp ;; *) echo "$1" ;; esac; }
# Build dependencies (libtool, bison, flex, oniguruma, googletest):
# scripts/install-deps.sh.

fetch() {
	local pkg
	pkg=$(debpkg "$1")
	ls -d "$SRC/$pkg"-[0-9]*/ >/dev/null 2>&1 && return 0
	if ! grep -rqs '^Types: deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		[ "$(id -u)" = 0 ] || { echo "no deb-src line; run as root once" >&2; return 1; }
		printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$(. /etc/os-release && echo "$VERSION_CODENAME")" \
			> /etc/apt/sources.list.d/selinst-more-src.sources
		apt-get update -qq
	fi
	(cd "$SRC" && apt-get source "$pkg" >/dev/null 2>&1) ||
		{ echo "apt-get source $pkg failed" >&2; return 1; }
}
srcdir() { ls -d "$SRC/$(debpkg "$1")"-[0-9]*/ | head -1; }

# Configure and build, in the current folder (a copy of the sources); the
# test programs too, so that the timed test run compiles nothing.
build() {
	case $1 in
	zlib) ./configure && make -j"$JOBS" && make infcover ;;
	bzip2) make -j"$JOBS" CC="$CC" CFLAGS="$CFLAGS -D_FILE_OFFSET_BITS=64" libbz2.a bzip2 bzip2recover ;;
	expat) # Debian's CVE patches break the CMake build (XML_DTD undefined); it uses autotools
		cd expat && autoreconf -fi >/dev/null 2>&1 && ./configure --without-docbook \
		--disable-silent-rules && make -j"$JOBS" && make -j"$JOBS" check TESTS= ;;
	pcre2) ./configure --enable-jit --enable-pcre2-16 --enable-pcre2-32 --disable-silent-rules &&
		make -j"$JOBS" && make -j"$JOBS" check TESTS= ;;
	jq) autoreconf -fi >/dev/null 2>&1 && ./configure --disable-docs --disable-maintainer-mode \
		--with-oniguruma --disable-silent-rules && make -j"$JOBS" && make -j"$JOBS" check TESTS= ;;
	tinyxml2) cmake -S . -B _b -DCMAKE_BUILD_TYPE=None -Dtinyxml2_BUILD_TESTING=ON &&
		cmake --build _b -j"$JOBS" ;;
	jsoncpp) cmake -S . -B _b -DCMAKE_BUILD_TYPE=None -DJSONCPP_WITH_POST_BUILD_UNITTEST=OFF \
		-DJSONCPP_WITH_TESTS=ON && cmake --build _b -j"$JOBS" ;;
	fmtlib) # Debian's flags (pedantic warnings), and -Werror: a warning only
		# the plugin gives would break the build
		cmake -S . -B _b -DCMAKE_BUILD_TYPE=None -DFMT_DOC=off -DFMT_PEDANTIC=on \
		-DFMT_WERROR=on -DBUILD_SHARED_LIBS=on && cmake --build _b -j"$JOBS" ;;
	esac
}

# The project's own tests.
runtests() {
	case $1 in
	zlib) make test && ./infcover ;;
	bzip2) make test CC="$CC" CFLAGS="$CFLAGS -D_FILE_OFFSET_BITS=64" ;;
	tinyxml2|jsoncpp|fmtlib) (cd _b && ctest --output-on-failure) ;;
	expat) make -C expat check ;;
	pcre2|jq) make check ;;
	esac
}

# "passed/total" from a test log.
tally() {
	local log=$1 p t
	case $2 in
	zlib) # example and minigzip three times; infcover's last case
		p=$(grep -c 'zlib .*test OK \*\*\*' "$log")
		tail -1 "$log" | grep -q '^copy direct from output' && p=$((p + 1))
		echo "$p/4" ;;
	bzip2) t=$(grep -c '^cmp ' "$log"); p=$t
		grep -q 'Error\|differ' "$log" && p=$((t - $(grep -c 'differ' "$log")))
		echo "$p/$t" ;;
	tinyxml2|jsoncpp|fmtlib)
		sed -n 's/.*tests passed, \([0-9]*\) tests\? failed out of \([0-9]*\).*/\1 \2/p' "$log" |
			awk '{print $2-$1 "/" $2}' ;;
	expat|pcre2|jq) awk '/^# TOTAL:/{t+=$3} /^# PASS:/{p+=$3} END{print p "/" t}' "$log" ;;
	esac
}

# Sorted warnings of a build log, paths made relative to the build folder.
warnings() {
	sed -n "s|$2/||g; /warning: /p" "$1" | sort | uniq -c | sort -rn
}

one() {
	local p=$1 v=$2 d=$WORK/b/$1-$2 r=$RES/$1-$2 rc
	rm -rf "$d"; rm -f "$r".*; cp -a "$(srcdir "$p")" "$d"; mkdir -p "$d/_dec"
	if [ "$v" = plain ]; then
		export CC=gcc-12 CXX=g++-12; unset SELINST_PLUGIN_ARGS
	else
		export CC=$INST/bin/selinst-gcc CXX=$INST/bin/selinst-g++
		export SELINST_PLUGIN_ARGS="decisions=$d/_dec/%u.yaml"
	fi
	export CFLAGS="$FLAGS" CXXFLAGS="$FLAGS"
	(cd "$d" && build "$p") >"$r.build.log" 2>&1
	rc=$?
	# Configure's and CMake's probes wrote decisions too: only the
	# project's own units count (those of its build, tests included).
	find "$d/_dec" \( -name '*conftest*' -o -name '*ztest[0-9]*' -o -name '*CMakeTmp*' -o -name '*CompilerId*' \) -delete
	unset SELINST_PLUGIN_ARGS
	warnings "$r.build.log" "$d" >"$r.warn"
	if [ $rc != 0 ]; then echo "build failed" >"$r.tests"; return; fi
	find "$d" -name '*.prof*' -delete
	(cd "$d" && nice -n 10 /usr/bin/time -f 'CPU %U %S' -o "$r.time" \
		bash -c "$(declare -f runtests); runtests $p") >"$r.test.log" 2>&1
	echo "rc=$? $(tally "$r.test.log" "$p")" >"$r.tests"
	awk '/^CPU /{printf "%.2f\n", $2 + $3}' "$r.time" >"$r.cpu"
	[ "$v" = plain ] && return
	cat "$d"/_dec/*.yaml >"$r.dec" 2>/dev/null
	echo "$(grep -c '^  instrument: true' "$r.dec") $(grep -c '^- name:' "$r.dec")" >"$r.funcs"
	# Every profile the tests wrote must be readable by the report.
	local n=0 bad=0 f
	while IFS= read -r f; do
		n=$((n + 1))
		"$INST/bin/selinst-report" "$f" >/dev/null 2>>"$r.report-errors" || bad=$((bad + 1))
	done < <(find "$d" -name '*.prof' -o -name '*.prof.[0-9]*')
	echo "$n $bad" >"$r.profiles"
}

for p in $PROJECTS; do
	fetch "$p" || continue
	for v in $VARIANTS; do echo "== $p $v"; one "$p" "$v"; done
done

echo
echo "| project | tests passed plain / selinst | functions instrumented / total | test CPU s plain / selinst (ratio) | warnings only with selinst (plain / selinst counts) | profiles written (report errors) |"
echo "|---|---|---|---|---|---|"
for p in $PROJECTS; do
	pr=$RES/$p-plain; sr=$RES/$p-default
	[ -f "$sr.tests" ] || continue
	extra=$(diff <(sed 's/^ *[0-9]* //' "$pr.warn" 2>/dev/null | sort -u) \
		<(sed 's/^ *[0-9]* //' "$sr.warn" 2>/dev/null | sort -u) | grep -c '^>')
	pc=$(cat "$pr.cpu" 2>/dev/null); sc=$(cat "$sr.cpu" 2>/dev/null)
	printf '| %s | %s / %s | %s | %s / %s (%s) | %s new (%s / %s) | %s |\n' "$p" \
		"$(cat "$pr.tests")" "$(cat "$sr.tests")" "$(awk '{print $1 " / " $2}' "$sr.funcs" 2>/dev/null)" \
		"$pc" "$sc" "$(awk -v a="$pc" -v b="$sc" 'BEGIN{if (a > 0 && b > 0) printf "%.2f", b / a; else print "-"}')" "$extra" \
		"$(awk '{s+=$1} END{print s+0}' "$pr.warn")" "$(awk '{s+=$1} END{print s+0}' "$sr.warn")" \
		"$(awk '{print $1 " (" $2 ")"}' "$sr.profiles" 2>/dev/null)"
done
