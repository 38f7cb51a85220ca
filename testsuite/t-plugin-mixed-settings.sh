#!/bin/bash
# SPDX-License-Identifier: MIT
# Units compiled with different plugin settings and linked together (issue
# 10, bad input): every unit carries a .note.selinst naming its settings;
# the runtime reports a mix once on stderr and in the profile, the report
# says so.  Equal settings (given or by default) are no mix; a shared
# library and -flto (plugin at compile time only, or at link time too)
# keep their notes; -flto with the plugin only at the link is reported.
. "$(dirname "$0")/lib.sh"
cat >main.c <<'C'
#include <stdio.h>
double work(int n);
double lib_work(int n);
int main(void)
{
	double s = 0;
	for (int i = 0; i < 50; i++)
		s += work(500 + i);
	printf("%.0f\n", s);
	return 0;
}
C
cat >work.c <<'C'
double work(int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < 50; j++)
			s += i * 0.5 + j;
	return s;
}
C
settings_of() { yget "$1" "sorted((e['units'], e['settings'].split()[1]) for e in d.get('plugin_settings', []))"; }

# 1. One unit at threshold 0, the other at the default: a mix.
gcc -O2 $SI_CFLAGS -c main.c -o main.o || fail "compile main"
gcc -O2 $SI_CFLAGS -fplugin-arg-selinst-threshold=0 -c work.c -o work0.o || fail "compile work (0)"
gcc main.o work0.o $SI_LIBS -o mixed || fail "link mixed"
readelf -n work0.o | grep -q 'selinst .*NT_VERSION' || { readelf -n work0.o; fail "no selinst note in the object"; }
SELINST_OUTPUT=mixed.prof ./mixed >out.txt 2>err.txt || fail "run mixed"
expect_eq "output" "$(gcc -O2 main.c work.c -o plain && ./plain)" "$(cat out.txt)"
expect_eq "said once" 1 "$(grep -c 'units compiled with different plugin settings' err.txt)"
grep -q '^selinst:   1 unit: model=default threshold=0 loop-threshold=0 ' err.txt || { cat err.txt; fail "threshold 0 unit not named"; }
grep -q '^selinst:   1 unit: model=default threshold=204800 ' err.txt || { cat err.txt; fail "default unit not named"; }
expect_eq "profile" "[(1, 'threshold=0'), (1, 'threshold=204800')]" "$(settings_of mixed.prof)"
"$REPORT" mixed.prof >rep.txt || fail "report"
grep -q '^note: units compiled with different plugin settings' rep.txt || { cat rep.txt; fail "report note"; }
"$REPORT" --format=json mixed.prof >rep.json || fail "report json"
expect_eq "json" 2 "$(jget rep.json "len(d['plugin_settings'])")"

# 2. The same settings, once given and once by default: no mix.
gcc -O2 $SI_CFLAGS -fplugin-arg-selinst-threshold=204800 -c work.c -o workd.o || fail "compile work (default)"
gcc main.o workd.o $SI_LIBS -o same || fail "link same"
SELINST_OUTPUT=same.prof ./same >/dev/null 2>err.txt || fail "run same"
[ ! -s err.txt ] || { cat err.txt; fail "equal settings reported"; }
expect_eq "one setting, two units" "[(2, 'threshold=204800')]" "$(settings_of same.prof)"
"$REPORT" same.prof | grep -q 'different plugin settings' && fail "report notes a mix of equal settings"

# 3. A shared library compiled with another model: its note is read too.
gcc -O2 -fPIC -shared $SI_CFLAGS -fplugin-arg-selinst-model=paper work.c -o libw.so || fail "compile libw.so"
gcc main.o -L. -lw -Wl,-rpath,"$WORK" $SI_LIBS -o withlib || fail "link withlib"
SELINST_OUTPUT=lib.prof ./withlib >/dev/null 2>err.txt || fail "run withlib"
grep -q '^selinst:   1 unit: model=paper ' err.txt || { cat err.txt; fail "the library's settings not named"; }

# 4. -flto: the plugin decides at compile time; the notes survive the LTO
# link whether or not the plugin is loaded there, and the regions are the
# same either way.
gcc -O2 -flto $SI_CFLAGS -c main.c -o lmain.o || fail "compile main (lto)"
gcc -O2 -flto $SI_CFLAGS -fplugin-arg-selinst-threshold=0 -c work.c -o lwork.o || fail "compile work (lto)"
gcc -O2 -flto lmain.o lwork.o $SI_LIBS -o lto-noplugin || fail "lto link without the plugin"
gcc -O2 -flto $SI_CFLAGS lmain.o lwork.o $SI_LIBS -o lto-plugin || fail "lto link with the plugin"
for v in noplugin plugin; do
	SELINST_OUTPUT=lto-$v.prof ./lto-$v >/dev/null 2>err.txt || fail "run lto-$v"
	grep -q 'different plugin settings' err.txt || { cat err.txt; fail "lto ($v): mix not reported"; }
	expect_eq "lto ($v) settings" "[(1, 'threshold=0'), (1, 'threshold=204800')]" "$(settings_of lto-$v.prof)"
done
expect_eq "lto: same regions with and without the plugin at link time" \
	"$(yget lto-plugin.prof "sorted(r['name'] for r in d['regions'])")" \
	"$(yget lto-noplugin.prof "sorted(r['name'] for r in d['regions'])")"
# 5. -flto with the plugin given only at the link: nothing is instrumented
# there, and the plugin says so (once); units compiled with it: no word.
gcc -O2 -flto -c main.c -o pmain.o && gcc -O2 -flto -c work.c -o pwork.o || fail "compile plain lto"
gcc -O2 -flto $SI_CFLAGS pmain.o pwork.o $SI_LIBS -o late 2>err.txt || fail "lto link, plugin late"
expect_eq "plugin only at the lto link: said once" 1 \
	"$(grep -c 'selinst: no unit of this link was compiled with the plugin' err.txt)"
gcc -O2 -flto $SI_CFLAGS lmain.o pwork.o $SI_LIBS -o half 2>err.txt || fail "lto link, one unit"
grep -q 'no unit of this link' err.txt && fail "warned though a unit was compiled with the plugin"
echo ok
