#!/bin/bash
# SPDX-License-Identifier: MIT
# real-projects.sh - the selection on real multi-file programs (issue 10).
#
# Builds real projects from Debian's sources with their own build systems,
# plain and with the plugin (several selections), runs a workload of each
# under callgrind (exact instruction counts) and natively (the profile),
# and prints, per project and selection: functions instrumented / total
# (from the decision files), instructions over plain, the largest share of
# exclusive time any one region holds, and the top regions by inclusive
# time at the default beside those at threshold 0 (and as a markdown
# table for bench/README.md).  Then the threshold dial
# for one project.  By hand or `make bench`, never in CI: it needs
# apt-get source (network) once, and takes about half an hour.
#
#   bash bench/real-projects.sh
#   PROJECTS="lz4 lua" VARIANTS="plain default t0" DIAL= bash bench/real-projects.sh
#
# Variables:
#   WORK      scratch folder (default /tmp/selinst-real); sources in $WORK/src
#             unless REALSRC names a folder with them already unpacked
#   PROJECTS  default "lz4 cjson lua zstd yaml-cpp sqlite libxml2"
#   VARIANTS  default "plain paper default sites t0": paper is -fplugin-
#             arg-selinst-model=paper (the formula alone, the default before
#             issue 10); sites is the default built SITES_ROUNDS + 1 times,
#             each build reading the call sites the one before recorded
#             (sites-out=, sites=); t0 is threshold=0 (everything);
#             plainlto and lto are plain and the default with -flto
#             (the plugin at the link too; lto's row is over plainlto);
#             fb and fb0 are profile feedback (issue 13): the default (fb)
#             or t0 (fb0) rebuilt with profile= the profiles of that
#             variant's workload run again with SELINST_THROTTLE=off (all
#             processes) and budget=$BUDGET (default 1), and measured with
#             SELINST_THROTTLE=off; measure the first variant before
#             (bench/feedback-real.sh prints predicted vs measured)
#             plainsmp is the plain build run again (measure plain
#             first) with the runtime preloaded, sampling only: the CPU
#             share of each function with no hooks, the half rule's
#             witness beside t0 (the table: the default's largest
#             region's own function there, and the largest function)
#             fb0b is fb0 again with profile-base= fb0's own profiles (the
#             run's length from a light run; measure fb0 before)
#             any of them with "-noinline" appended (t0-noinline) adds
#             inline=off
#             any of them with "-thrCALLS" or "-thrCALLS-NS" appended
#             (default-thr3000) is that variant's build run with
#             SELINST_THROTTLE=CALLS:NS (NS default 10000; every "-" a
#             ":", so -thr1000-200,100000-10000 gives two rules; -throff:
#             off; -thrdefault: SELINST_THROTTLE unset, the runtime's own):
#             with REUSE_BUILDS, a copy of the variant's build measured
#             at several throttles without rebuilding (bench/throttle-dial.sh)
#   DIAL, DIAL_PROJECT  thresholds for the dial table (default model) and
#             the project they are measured on (default lua); DIAL= skips it
#   SITES_ROUNDS  recording builds before the measured sites build (2)
#   OPT       optimization level (default -O2)
#   NATIVE_RUNS  native runs of the workload (profiles; default 15), with
#             SELINST_SAMPLE=$SAMPLE_HZ (default 1000): the table's shares
#             and top regions are the CPU-time samples of all of them added
#             up, for every variant alike (elapsed time on a shared machine
#             gives whichever region is running the time other processes
#             take)
#   FIRST_SAMPLE  SELINST_SAMPLE of fb's and fb0's first run (default 5000;
#             empty: not sampled, the calibrated hook pair alone)
#   CALLGRIND_RUNS  callgrind runs of each command, the median counted
#             (default 1): zstd's threads poll each other, and one binary's
#             compression measured 232.5, 233.3 and 234.6 million
#             instructions in three runs (a 1% budget is 3.3 million)
#   DECISIONS_ONLY=1  build each variant and keep its decision files
#             ($WORK/res/PROJECT-VARIANT.dec), run nothing, print functions
#             instrumented / total (to compare a cost-model change's
#             decisions with another build's before measuring)
#   REUSE=1   keep results already in $WORK/res (measure only what is missing)
#   REUSE_BUILDS=1  run again, without building, what an earlier run built
#   NATIVE_ONLY=1  with REUSE_BUILDS: only the native runs (the profiles)
#             again, the instruction counts of the earlier run kept
# Run it under `nice` on a shared machine; callgrind counts do not care.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=$ROOT/build
WORK=${WORK:-/tmp/selinst-real}
SRC=${REALSRC:-$WORK/src}
PROJECTS=${PROJECTS:-lz4 cjson lua zstd yaml-cpp sqlite libxml2}
VARIANTS=${VARIANTS:-plain paper default sites t0}
DIAL_PROJECT=${DIAL_PROJECT:-lua}
SITES_ROUNDS=${SITES_ROUNDS:-2}
DIAL=${DIAL-0 198656 202752 204800 204900 205300 206848}
OPT=${OPT:--O2}
JOBS=${JOBS:-2}
NATIVE_RUNS=${NATIVE_RUNS:-15}
SAMPLE_HZ=${SAMPLE_HZ:-1000}
FIRST_SAMPLE=${FIRST_SAMPLE:-5000}

[ -f "$B/selinst.so" ] && [ -f "$B/libselinst.so" ] && [ -x "$B/selinst-report" ] ||
	{ echo "real-projects.sh: build the repo first (make)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "real-projects.sh: needs valgrind" >&2; exit 2; }
mkdir -p "$SRC" "$WORK/bin" "$WORK/in" "$WORK/res"

# Debian source package of each project.
debpkg() {
	case $1 in lua) echo lua5.4 ;; zstd) echo libzstd ;; sqlite) echo sqlite3 ;; *) echo "$1" ;; esac
}

# Sources, once: apt-get source, adding a deb-src line when there is none.
fetch() {
	local pkg
	pkg=$(debpkg "$1")
	ls -d "$SRC/$pkg"-[0-9]*/ >/dev/null 2>&1 && return 0
	if ! grep -rqs 'deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		[ "$(id -u)" = 0 ] || { echo "no deb-src line; run as root once" >&2; return 1; }
		printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$(. /etc/os-release && echo "$VERSION_CODENAME")" \
			> /etc/apt/sources.list.d/selinst-torture-src.sources
		apt-get update -qq
	fi
	(cd "$SRC" && apt-get source "$pkg" >/dev/null 2>&1) ||
		{ echo "apt-get source $pkg failed" >&2; return 1; }
}
# Lua: Debian's patches make the build use libtool; upstream's own Makefile
# is in the .orig tarball beside them.
srcdir() {
	if [ "$1" = lua ]; then
		[ -d "$SRC/lua-upstream" ] || { mkdir -p "$SRC/lua-upstream" &&
			tar xzf "$(ls "$SRC"/lua5.4_*.orig.tar.gz | head -1)" -C "$SRC/lua-upstream" \
				--strip-components=1; }
		echo "$SRC/lua-upstream"
		return
	fi
	ls -d "$SRC/$(debpkg "$1")"-[0-9]*/ | head -1
}

# Compiler wrappers: our flags go last, so the -O level and the plugin win
# over whatever the project's build system passes.
for c in gcc g++; do
	printf '#!/bin/sh\nexec %s "$@" $SELFLAGS $SELFLAGS_READ\n' "$c" > "$WORK/bin/sel-$c"
	chmod +x "$WORK/bin/sel-$c"
done
CC=$WORK/bin/sel-gcc
CXX=$WORK/bin/sel-g++

# Inputs, made once, deterministic: each from a fixed-seed generator, so
# every checkout and machine measures the same bytes.
make_inputs() {
	# 12 MB of code-like text (lz4, zstd): identifiers from a Zipf-weighted
	# vocabulary, nesting, comments, and recent lines repeated as code
	# repeats itself (lz4 -1 2.7:1, zstd -3 4.2:1; the 3 MB of C sources
	# used before gave 3.2:1 and 6.7:1).  12 MB: the runtime's fixed cost
	# per process (start, writing the profile: about 0.3 to 0.8 million
	# instructions) stays near 0.5%.
	[ -s "$WORK/in/words" ] || python3 - "$WORK/in/words" 12000000 <<'PY'
import random, re, sys
random.seed(10)
syl = ["ba", "ce", "di", "fo", "gu", "ha", "je", "ki", "lo", "mu", "na", "pe", "qi", "ro",
       "su", "ta", "ve", "wi", "xo", "yu", "ze", "st", "tr", "pl", "ch", "sh", "th", "in", "er", "on"]
def word():
    return "".join(random.choice(syl) for _ in range(random.randint(1, 4)))
vocab = sorted(set(word() for _ in range(1500)))
random.shuffle(vocab)
cum, acc = [], 0.0
for r in range(len(vocab)):
    acc += 1.0 / (r + 1)
    cum.append(acc)
def words(n):
    return random.choices(vocab, cum_weights=cum, k=n)
kw = ["if", "for", "while", "return", "static", "int", "size_t", "const", "char", "unsigned"]
ops = [" = ", " + ", " - ", " * ", " < ", " == ", " != ", " & ", " >> ", " += "]
out, size, depth = [], 0, 0
while size < int(sys.argv[2]):
    if random.random() < 0.45 and len(out) > 50:
        line = re.sub(r"[0-9]+", str(random.randint(0, 99)), out[-random.randint(1, 50)], count=1)
        out.append(line)
        size += len(line)
        continue
    k = random.random()
    ind = "\t" * depth
    if k < 0.15:
        line = ind + "/* " + " ".join(words(random.randint(4, 14))) + " */"
    elif k < 0.25 and depth < 4:
        line = ind + "%s (%s%s%d) {" % (random.choice(kw[:3]), words(1)[0], random.choice(ops),
                                        random.randint(0, 999))
        depth += 1
    elif k < 0.35 and depth > 0:
        depth -= 1
        line = "\t" * depth + "}"
    elif k < 0.45:
        a, b, c = words(3)
        line = "%s%s %s_%s(%s *%s, %s n);" % (ind, random.choice(kw[4:]), a, b,
                                             random.choice(kw[5:]), c, random.choice(kw[5:]))
    else:
        a, b, c = words(3)
        line = "%s%s->%s%s%s(%s, %d);" % (ind, a, b, random.choice(ops), c,
                                          ", ".join(words(random.randint(0, 3))), random.randint(0, 4096))
    out.append(line + "\n")
    size += len(line) + 1
open(sys.argv[1], "w").write("".join(out)[:int(sys.argv[2])])
PY
	# 3.3 MB of XML (libxml2): 9,000 records with attributes, an internal
	# entity, character references, comments, CDATA and mixed content.
	[ -s "$WORK/in/data.xml" ] || python3 - "$WORK/in/data.xml" <<'PY'
import random, sys
random.seed(10)
words = ["alpha", "beta", "gamma", "delta", "omega", "north", "south", "river", "stone", "light",
         "paper", "glass", "iron", "cloud", "field", "green", "quick", "brown", "lazy", "amber"]
def text(n):
    return " ".join(random.choice(words) for _ in range(n))
out = ['<?xml version="1.0" encoding="UTF-8"?>\n',
       '<!DOCTYPE catalog [\n<!ENTITY co "Example &amp; Sons">\n]>\n', '<catalog version="2">\n']
for i in range(9000):
    out.append('  <item id="i%05d" tag="t%d" ok="%s">\n'
               % (i, random.randint(0, 40), "yes" if i % 3 == 0 else "no"))
    out.append("    <name>item %05d &amp; %s</name>\n" % (i, text(2)))
    out.append('    <price cur="EUR">%.2f</price><qty>%d</qty>\n'
               % (random.random() * 1000, random.randint(1, 99)))
    out.append("    <maker>&co;</maker>\n" if i % 11 == 0 else "")
    out.append('    <desc lang="en">%s <b>%s</b> %s</desc>\n'
               % (text(random.randint(3, 12)), text(1), text(random.randint(2, 8))))
    if i % 5 == 0:
        out.append("    <!-- revised %d -->\n    <note><![CDATA[a < b && c > d, %s]]></note>\n"
                   % (i, text(3)))
    out.append("    <parts>%s</parts>\n" % "".join('<part n="%d" w="%d"/>' % (k, random.randint(1, 500))
                                                  for k in range(random.randint(1, 6))))
    out.append("  </item>\n")
out.append("</catalog>\n")
open(sys.argv[1], "w").write("".join(out))
PY
	[ -s "$WORK/in/data.json" ] || python3 - "$WORK/in/data.json" <<'PY'
import json, random, sys
random.seed(10)
def item(i):
    return {"id": i, "name": "item%05d" % i, "price": round(random.random() * 1000, 3),
            "tags": ["t%d" % random.randint(0, 50) for _ in range(4)],
            "dims": {"w": random.randint(1, 99), "h": random.randint(1, 99), "ok": i % 3 == 0},
            "note": None if i % 7 else "seven \u00e9\u00e8 \"quoted\""}
open(sys.argv[1], "w").write("bf" + json.dumps([item(i) for i in range(6000)]))
PY
	[ -s "$WORK/in/data.yaml" ] || python3 - "$WORK/in/data.yaml" <<'PY'
import random, sys
random.seed(10)
out = []
for i in range(1500):
    out.append("- id: %d\n  name: item%05d\n  price: %.3f\n  tags: [t%d, t%d, t%d]\n"
               "  dims: {w: %d, h: %d}\n  text: |\n    line one of %d\n    line two\n"
               % (i, i, random.random() * 1000, random.randint(0, 50), random.randint(0, 50),
                  random.randint(0, 50), random.randint(1, 99), random.randint(1, 99), i))
open(sys.argv[1], "w").write("".join(out))
PY
	cat > "$WORK/in/work.sql" <<'SQL'
CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, price REAL, tag TEXT, qty INTEGER);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
INSERT INTO item SELECT i, 'item' || printf('%05d', i), (i * 7919 % 10007) / 10.0,
  't' || (i % 53), i % 17 FROM n;
CREATE INDEX item_tag ON item(tag, price);
CREATE TABLE sale(item_id INTEGER, day INTEGER, n INTEGER);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
INSERT INTO sale SELECT (i * 31) % 20000 + 1, i % 365, i % 9 + 1 FROM n;
SELECT tag, count(*), round(avg(price), 2), max(qty) FROM item GROUP BY tag ORDER BY 3 DESC LIMIT 5;
SELECT count(*) FROM item WHERE name LIKE '%77%';
SELECT i.tag, sum(s.n * i.price) AS v FROM sale s JOIN item i ON i.id = s.item_id
  GROUP BY i.tag ORDER BY v DESC LIMIT 3;
SELECT day, sum(n) FROM sale GROUP BY day ORDER BY 2 DESC, 1 LIMIT 3;
UPDATE item SET price = price * 1.1 WHERE tag IN ('t1', 't2', 't3');
DELETE FROM sale WHERE day % 7 = 0;
SELECT count(*), sum(n) FROM sale;
SELECT group_concat(name, ',') FROM (SELECT name FROM item WHERE qty = 3 ORDER BY price LIMIT 20);
SQL
	cat > "$WORK/in/work.lua" <<'LUA'
local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end
local t = {}
for i = 1, 30000 do t[i] = (i * 7919) % 10007 end
table.sort(t)
local parts = {}
for i = 1, 20000 do parts[#parts+1] = string.format("%d:%s", i, tostring(i * 1.5)) end
local s = table.concat(parts, ",")
local n = 0
for w in s:gmatch("%d+:") do n = n + 1 end
local src = {}
for i = 1, 150 do src[#src+1] = "local a" .. i .. " = {x=" .. i .. ", y=function(z) return z*" .. i .. " end}" end
for i = 1, 40 do assert(load(table.concat(src, "\n")))() end
local obj = setmetatable({}, {__index = function(_, k) return k * 2 end})
local acc = 0
for i = 1, 50000 do acc = acc + obj[i] end
print(fib(22), t[1], t[#t], n, acc)
LUA
}

# build PROJECT DIR: the project's own build system, in DIR (a copy).
build() {
	local p=$1 d=$2
	case $p in
	lz4) make -C "$d" -j"$JOBS" CC="$CC" lz4 ;;
	zstd) make -C "$d/programs" -j"$JOBS" CC="$CC" HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0 zstd ;;
	lua) make -C "$d/src" -j"$JOBS" CC="$CC -std=gnu99" linux ;;
	cjson) make -C "$d" -j"$JOBS" CC="$CC" static &&
		"$CC" -I"$d" "$d/fuzzing/afl.c" "$d/libcjson.a" -o "$d/cjson-run" ;;
	yaml-cpp) cmake -S "$d" -B "$d/_b" -G Ninja -DCMAKE_BUILD_TYPE=None \
			-DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
			-DYAML_CPP_BUILD_TESTS=OFF -DYAML_CPP_BUILD_TOOLS=ON &&
		ninja -C "$d/_b" -j"$JOBS" util/parse ;;
	# The shell (shell.c) linked with the library built from the
	# amalgamation (sqlite3.c, made by the build from src/): two units.
	sqlite) (cd "$d" && ./configure -q --disable-tcl --disable-readline \
			--disable-shared CC="$CC") && make -C "$d" -j"$JOBS" sqlite3 ;;
	# xmllint linked with the static library (libtool), optional parts off;
	# no maintainer mode: Debian's patches touch Makefile.am, and the
	# tarball's automake (1.16.1) is not the one installed.
	libxml2) (cd "$d" && ./configure -q --disable-maintainer-mode \
			--disable-shared --enable-static --without-python --without-zlib \
			--without-lzma --without-icu --without-readline --without-history \
			--without-http --without-ftp CC="$CC") && make -C "$d" -j"$JOBS" xmllint ;;
	esac
}

# workload PROJECT DIR: each command of the representative run, one a line
# (run in DIR with the project's binary).
workload() {
	local p=$1 d=$2 i=$WORK/in
	case $p in
	lz4) echo "$d/lz4 -1 -f -q $i/words $d/w.lz4"
	     echo "$d/lz4 -d -f -q $d/w.lz4 $d/w.out" ;;
	zstd) echo "$d/programs/zstd -3 -f -q $i/words -o $d/w.zst"
	      echo "$d/programs/zstd -d -f -q $d/w.zst -o $d/w.out" ;;
	lua) echo "$d/src/lua $i/work.lua" ;;
	cjson) echo "$d/cjson-run $i/data.json yes" ;;
	yaml-cpp) echo "$d/_b/util/parse $i/data.yaml" ;;
	sqlite) echo "$d/sqlite3 -init $i/work.sql :memory: .quit" ;;
	# Parse only; parse and serialize indented; parse and an XPath query.
	libxml2) echo "$d/xmllint --noout $i/data.xml"
	         echo "$d/xmllint --format $i/data.xml"
	         echo "$d/xmllint --xpath sum(//item[@tag='t7']/parts/part/@w) $i/data.xml" ;;
	esac
}

flags_of() {
	local plug="-fplugin=$B/selinst.so -I$ROOT/include -L$B -lselinst -Wl,-rpath,$B"
	case $1 in
	# VARIANT-thrCALLS[-NS]: VARIANT's build (the throttle is run time).
	*-thr*) flags_of "${1%-thr*}" ;;
	# VARIANT-noinline: VARIANT with inline=off (instrumented bodies kept
	# out of line, the default before inline=on).
	*-noinline) echo "$(flags_of "${1%-noinline}") -fplugin-arg-selinst-inline=off" ;;
	plain) echo "$OPT" ;;
	paper) echo "$OPT $plug -fplugin-arg-selinst-model=paper" ;;
	default|sites) echo "$OPT $plug" ;;
	# lto: the default with -flto, the plugin at the link too (whole-
	# program depths, plugin/lto.cc); its table row is against plainlto.
	plainlto) echo "$OPT -flto" ;;
	lto) echo "$OPT -flto $plug" ;;
	t*) echo "$OPT $plug -fplugin-arg-selinst-threshold=${1#t}" ;;
	esac
}

# first_profiles PROJECT DIR RESULT: DIR's build (measured before) runs
# the workload natively with SELINST_THROTTLE=off (every call counted, as
# feedback wants) and SELINST_SAMPLE=$FIRST_SAMPLE (the hooks' share of
# each thread measured in situ: include/selinst-predict.h); its profiles
# are listed in RESULT.first.
first_profiles() {
	local cmd
	rm -rf "$2/prof-first"; mkdir -p "$2/prof-first"
	while read -r cmd; do
		(cd "$2" && SELINST_THROTTLE=off SELINST_SAMPLE=$FIRST_SAMPLE \
			SELINST_OUTPUT="$2/prof-first/%p.prof" $cmd >/dev/null)
	done < <(workload "$1" "$2")
	ls "$2"/prof-first/*.prof > "$3.first"
}

# measure PROJECT VARIANT: build, run natively (profile) and under
# callgrind; writes $WORK/res/PROJECT-VARIANT.{ir,dec,prof}.
measure() {
	local p=$1 v=$2 d=$WORK/build/$1-$2 r=$WORK/res/$1-$2
	[ "$v" = plainsmp ] && { sample_plain "$p"; return; }
	if [ -n "${REUSE:-}" ] && [ -s "$r.ir" ]; then
		echo "  $p $v: $(cat "$r.ir") instructions (reused)"
		return 0
	fi
	if [ -n "${REUSE_BUILDS:-}" ] && [ -f "$d/.built" ]; then
		rm -rf "$d/prof"; mkdir -p "$d/prof"
		run_workload "$p" "$v" "$d" "$r"
		return
	fi
	rm -rf "$d"; rm -f "$r".*; mkdir -p "$d/dec" "$d/prof"
	cp -a "$(srcdir "$p")/." "$d"
	# sites: the default, built SITES_ROUNDS + 1 times; each build records
	# every unit's calls to external functions and reads what the one
	# before recorded, so depths travel one unit-to-unit call further per
	# round; the last build is measured.
	if [ "$v" = sites ]; then
		local round prev=
		for round in $(seq 1 "$SITES_ROUNDS"); do
			rm -rf "$d.pass"; mkdir -p "$d.pass"
			cp -a "$(srcdir "$p")/." "$d.pass"
			rm -f "$r.sites$round"
			SELFLAGS="$(flags_of default) -fplugin-arg-selinst-sites-out=$r.sites$round" \
			SELFLAGS_READ=${prev:+-fplugin-arg-selinst-sites=$prev} \
				build "$p" "$d.pass" > "$r.pass$round.log" 2>&1 ||
				{ echo "  $p $v: build $round failed, see $r.pass$round.log" >&2; return 1; }
			prev=$r.sites$round
		done
		rm -rf "$d.pass"
		cp "$prev" "$r.sites"
	fi
	SELFLAGS="$(flags_of "$v") -fplugin-arg-selinst-decisions=$d/dec/%u.yaml"
	[ "$v" = sites ] && SELFLAGS="$SELFLAGS -fplugin-arg-selinst-sites=$r.sites"
	case $v in plain|plainlto) SELFLAGS=$(flags_of "$v") ;; esac
	case $v in fb|fb0) # the first variant, run again unthrottled: every process's profile
		local first=default profs; [ "$v" = fb0 ] && first=t0
		first_profiles "$p" "$WORK/build/$p-$first" "$r"
		profs=$(tr '\n' ':' < "$r.first")
		SELFLAGS="$(flags_of "$first") -fplugin-arg-selinst-decisions=$d/dec/%u.yaml
			-fplugin-arg-selinst-profile=${profs%:} -fplugin-arg-selinst-budget=${BUDGET:-1}" ;;
	fb0b) # fb0's profiles again, the run's length from fb0's own run
		local profs base
		profs=$(tr '\n' ':' < "$WORK/res/$p-fb0.first")
		base=$(ls "$WORK/build/$p-fb0"/prof/1/*.prof | tr '\n' ':')
		SELFLAGS="$(flags_of t0) -fplugin-arg-selinst-decisions=$d/dec/%u.yaml
			-fplugin-arg-selinst-profile=${profs%:} -fplugin-arg-selinst-profile-base=${base%:}
			-fplugin-arg-selinst-budget=${BUDGET:-1}" ;;
	esac
	export SELFLAGS
	if ! (build "$p" "$d") > "$r.build.log" 2>&1; then
		echo "  $p $v: build failed, see $r.build.log" >&2
		return 1
	fi
	touch "$d/.built"
	if [ -n "${DECISIONS_ONLY:-}" ]; then
		cat "$d"/dec/*.yaml > "$r.dec" 2>/dev/null
		echo "  $p $v: $(grep -c '^  instrument: true' "$r.dec") / $(grep -c '^- name:' "$r.dec") functions instrumented"
		return 0
	fi
	run_workload "$p" "$v" "$d" "$r"
}

# sample_plain PROJECT: the plain build (measured before) run natively
# NATIVE_RUNS times with the runtime preloaded and SELINST_SAMPLE=$SAMPLE_HZ
# (sampling-only mode: no hooks, no regions, the program's own inlining):
# each sample named by the function it was taken in.  The table compares
# the default's largest region with these shares: threshold 0's are
# distorted by its hooks (zstd's block compressor, 51% at the default,
# had 40% at threshold 0 and 45-59% here: bench/README.md, "The half rule:
# what a region costs where the time is per row").
sample_plain() {
	local p=$1 d=$WORK/build/$1-plain r=$WORK/res/$1-plainsmp cmd k
	[ -f "$d/.built" ] || { echo "  $p plainsmp: measure plain first" >&2; return 1; }
	rm -rf "$d/prof-smp"; rm -f "$r.runs"
	for k in $(seq 1 "$NATIVE_RUNS"); do
		mkdir -p "$d/prof-smp/$k"
		while read -r cmd; do
			(cd "$d" && LD_PRELOAD=$B/libselinst.so SELINST_SAMPLE=$SAMPLE_HZ \
				SELINST_OUTPUT="$d/prof-smp/$k/%p.prof" $cmd < /dev/null > /dev/null \
				2>>"$r.run.log") || echo "  $p plainsmp: '$cmd' failed" >&2
		done < <(workload "$p" "$d")
		echo $(ls "$d"/prof-smp/"$k"/*.prof 2>/dev/null) >> "$r.runs"
	done
	echo "  $p plainsmp: $NATIVE_RUNS sampled runs of the plain build"
}

# scale_ns SETTING S: SELINST_THROTTLE SETTING (empty: the runtime's
# default, as the profile names it) with every NS times S.
scale_ns() {
	local set=$1 out= rule
	[ -n "$set" ] || set=$(sed -n 's/^#define DEFAULT_SETTING "\(.*\)"$/\1/p' "$ROOT/runtime/throttle.c")
	[ "$set" = off ] && { echo off; return; }
	for rule in ${set//,/ }; do out="$out,${rule%%:*}:$(( ${rule#*:} * $2 ))"; done
	echo "${out#,}"
}

# run_workload PROJECT VARIANT DIR RESULT (stdin: nothing): natively (the profile), then
# under callgrind: all instructions, and those spent writing the profile at
# exit (inclusive cost of the runtime's si_write_profile, a fixed cost per
# process that depends on the profile's size, not on the calls made).
run_workload() {
	local p=$1 v=$2 d=$3 r=$4 ir=0 wr=0 cmd n w k
	case $v in
	fb*) local SELINST_THROTTLE=off; export SELINST_THROTTLE ;;
	*-throff) local SELINST_THROTTLE=off; export SELINST_THROTTLE ;;
	*-thrdefault) local SELINST_THROTTLE; unset SELINST_THROTTLE ;;
	*-thr*-*) local SELINST_THROTTLE=${v##*-thr}; SELINST_THROTTLE=${SELINST_THROTTLE//-/:}
		export SELINST_THROTTLE ;;
	*-thr*) local SELINST_THROTTLE=${v##*-thr}:10000; export SELINST_THROTTLE ;;
	esac
	# The native runs (the profiles): NATIVE_RUNS times the whole
	# workload, each run's profiles in prof/K/, with CPU-time samples; the
	# table adds the samples of all runs up (one run's elapsed time on a
	# loaded machine moved cJSON's largest share by 24 points).
	rm -f "$r.runs"
	# The workload's commands, for bench/sample-overhead.py --real.
	workload "$p" "$d" > "$r.cmds"
	for k in $(seq 1 "$NATIVE_RUNS"); do
		mkdir -p "$d/prof/$k"
		while read -r cmd; do
			(cd "$d" && SELINST_SAMPLE=$SAMPLE_HZ SELINST_OUTPUT="$d/prof/$k/%p.prof" \
				$cmd < /dev/null > /dev/null 2>>"$r.run.log") ||
				echo "  $p $v: '$cmd' failed" >&2
		done < <(workload "$p" "$d")
		echo $(ls "$d"/prof/"$k"/*.prof 2>/dev/null) >> "$r.runs"
	done
	if [ -n "${NATIVE_ONLY:-}" ] && [ -s "$r.ir" ]; then
		echo "  $p $v: $NATIVE_RUNS native runs again, $(cat "$r.ir") instructions kept"
		return 0
	fi
	# CALLGRIND_NS_SCALE=S: the callgrind runs take every NS of the
	# throttle setting times S (valgrind's clock: a region takes some 20
	# to 300 times its native time there, so a time rule would switch
	# off other regions than natively) and write their profiles to
	# prof-cg/, so the regions switched off can be compared;
	# CALLGRIND_THROTTLE: the callgrind runs' setting itself (valgrind
	# translates code at its first run, so a region's first calls take
	# far longer there: an early rule may need more than S).
	local cg_env=() scaled= i=0
	if [ -n "${CALLGRIND_NS_SCALE:-}" ]; then
		rm -rf "$d/prof-cg"; mkdir -p "$d/prof-cg"
		scaled=1
		cg_env=(SELINST_THROTTLE="${CALLGRIND_THROTTLE:-$(scale_ns "${SELINST_THROTTLE-}" "$CALLGRIND_NS_SCALE")}")
	fi
	# Each callgrind run writes its profiles to cg-runs/I.K/ (command I,
	# run K; a folder of its own, so the runtime's look for stale
	# temporaries finds nothing) and keeps its callgrind output there: the
	# median run's are $r.cgI and $r.cgprofs, for bench/predict-terms.py
	# (the prediction from the run that was measured, and the instructions
	# per function against plain's).
	rm -rf "$d/cg-runs" "$r".cg[0-9]* "$r.cgprofs"
	while read -r cmd; do
		local runs=() k
		i=$((i + 1))
		for k in $(seq 1 "${CALLGRIND_RUNS:-1}"); do
			local rd=$d/cg-runs/$i.$k
			mkdir -p "$rd"
			(cd "$d" && env "${cg_env[@]}" SELINST_OUTPUT="$rd/%p.prof" valgrind --tool=callgrind \
				--callgrind-out-file="$rd/callgrind.out" $cmd < /dev/null > /dev/null 2>>"$r.run.log")
			[ -n "$scaled" ] && cp "$rd"/*.prof "$d/prof-cg/" 2>/dev/null
			n=$(awk '/^(summary|totals):/ {print $2; exit}' "$rd/callgrind.out")
			w=$(python3 "$ROOT/bench/callgrind_funcs.py" incl "$rd/callgrind.out" si_write_profile)
			runs+=("${n:-0} ${w:-0} $k")
		done
		# the median run (by instructions) of CALLGRIND_RUNS
		read -r n w k < <(printf '%s\n' "${runs[@]}" | sort -n | sed -n "$(( (${#runs[@]} + 1) / 2 ))p")
		ir=$((ir + ${n:-0}))
		wr=$((wr + ${w:-0}))
		cp "$d/cg-runs/$i.$k/callgrind.out" "$r.cg$i"
		ls "$d/cg-runs/$i.$k/"*.prof >> "$r.cgprofs" 2>/dev/null
	done < <(workload "$p" "$d")
	echo "$ir" > "$r.ir"
	echo "$wr" > "$r.write"
	cat "$d"/dec/*.yaml > "$r.dec" 2>/dev/null
	ls "$d"/prof/1/*.prof > "$r.profs" 2>/dev/null
	echo "  $p $v: $ir instructions, $wr writing the profile"
}

fetch_all() {
	for p in $PROJECTS; do fetch "$p" || exit 1; done
}

fetch_all
make_inputs
echo "== building and running (results in $WORK/res)"
for p in $PROJECTS; do
	for v in $VARIANTS; do measure "$p" "$v"; done
done
[ -n "${DECISIONS_ONLY:-}" ] && exit 0
if [ -n "$DIAL" ]; then
	for t in $DIAL; do
		[ -f "$WORK/res/$DIAL_PROJECT-t$t.ir" ] && [ "$t" = 0 ] && continue
		measure "$DIAL_PROJECT" "t$t"
	done
fi
python3 "$ROOT/bench/real-projects-table.py" "$WORK/res" "$B/selinst-report" \
	"$PROJECTS" "$VARIANTS" "$DIAL_PROJECT" "$DIAL"
