#!/bin/bash
# SPDX-License-Identifier: MIT
# Whole-program depths at an -flto link (issue 10, plugin/lto.cc).  Each
# unit alone sees no call of its exported functions and scores them at
# depth 0: scale_all (a loop of weight over 64) and leaf_work are chosen.
# main calls scale_all inside two loops, and mid (another unit, no
# region) inside two loops, which calls leaf_work: both run at depth 2.
# With the plugin at the link too, both are dropped there (the decision
# file's lto_link document says so) and their tests are folded: they are
# no regions even with the throttle off, which would leave a region on;
# setup, called once, stays.  Without the plugin at the link, or with the
# paper's formula, the units' decisions stand.  Every build prints what
# the plain build prints; so does C++ (a mangled name).
. "$(dirname "$0")/lib.sh"
cp $T/programs/scale_all.c lib.c
cat >> lib.c <<'C'
int leaf_work(const int *v, int n, int k)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		int x = v[i] + k;
		if (x % 7 == 0)
			s += 3 * x;
		else if (x % 5 == 0)
			s -= x;
		else if (x % 3 == 0)
			s ^= x;
		else if (x & 1)
			s += x / 2;
		else
			s += x;
	}
	return s;
}
int setup(int *v, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		v[i] = (i * 7) % 11;
		if (v[i] > 5)
			s += v[i];
		else if (v[i] > 2)
			s -= v[i];
		else
			s ^= v[i];
	}
	return s;
}
C
cat > mid.c <<'C'
int leaf_work(const int *v, int n, int k);
int mid(const int *v, int k)
{
	return leaf_work(v, 8, k) + 1;
}
C
cat > main.c <<'C'
#include <stdio.h>
int scale_all(const int *v, int n, int k);
int setup(int *v, int n);
int mid(const int *v, int k);
int main(void)
{
	int v[8], t = setup(v, 8);
	for (int r = 0; r < 100; r++)
		for (int k = 0; k < 10; k++)
			t += scale_all(v, 8, k) + mid(v, k);
	printf("%d\n", t);
	return 0;
}
C
gcc -O2 lib.c mid.c main.c -o plain && ./plain > plain.txt || fail "plain build"
regions() { yget "$1" "sorted(r['name'] for r in d['regions'] if r['kind'] == 'function')"; }
for u in lib mid main; do
	gcc -O2 -flto $SI_CFLAGS -c $u.c -o $u.o -fplugin-arg-selinst-decisions=$u.yaml \
		|| fail "compile $u.c"
done
expect_eq "each unit alone chooses" "True True True" \
	"$(yget lib.yaml "' '.join(str(f['instrument']) for f in d['functions'])")"
export SELINST_THROTTLE=off
# Without the plugin at the link: the units' decisions.
gcc -O2 -flto lib.o mid.o main.o $SI_LIBS -o nolink || fail "link without the plugin"
SELINST_OUTPUT=nolink.prof ./nolink > out.txt && cmp -s out.txt plain.txt || fail "nolink: output"
expect_eq "nolink: regions" "['leaf_work', 'main', 'scale_all', 'setup']" "$(regions nolink.prof)"
# With it, in each of GCC's ways of splitting the link (max: a partition
# a function, the descriptors marked in other partitions than their uses).
for part in balanced one none max; do
	rm -f link.yaml
	gcc -O2 -flto -flto-partition=$part $SI_CFLAGS lib.o mid.o main.o $SI_LIBS -o link-$part \
		-fplugin-arg-selinst-decisions=link.yaml -fplugin-arg-selinst-verbose 2> err.txt \
		|| { cat err.txt; fail "link ($part) with the plugin"; }
	expect_eq "$part: said once each" 2 "$(grep -c 'link: .* dropped: the call sites of all units put it at depth 2' err.txt)"
	SELINST_OUTPUT=$part.prof ./link-$part > out.txt && cmp -s out.txt plain.txt \
		|| fail "$part: output"
	expect_eq "$part: regions" "['main', 'setup']" "$(regions $part.prof)"
	expect_eq "$part: lto_link document" \
		"[('leaf_work', 2, 0), ('scale_all', 2, 0)] 3 link-$part" \
		"$(python3 -c '
import sys, yaml
for d in yaml.safe_load_all(open("link.yaml")):
    if d and "lto_link" in d:
        print(sorted((x["name"], x["called_at_depth"], x["qualifies_down_to"]) for x in d["dropped"]), d["lto_link"]["regions_considered"], d["lto_link"]["output"])')"
done
# A region the link keeps: its calls run below it.  twice runs at depth
# 1 (main's loop) and qualifies there (its two chosen callees, called on
# every path, pull it in); step_a and step_b, called from it outside
# loops, stay regions.
cat > lib2.c <<'C'
int step_a(int *v, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (v[i] % 3 == 0) s += v[i];
		else if (v[i] % 3 == 1) s -= v[i];
		else if (v[i] & 4) s ^= v[i];
		else s += 2 * v[i];
		v[i] = (v[i] * 5 + 1) % 17;
	}
	return s;
}
int step_b(int *v, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (v[i] % 5 == 0) s += v[i];
		else if (v[i] % 5 == 1) s -= v[i];
		else if (v[i] & 2) s ^= v[i];
		else s += 3 * v[i];
		v[i] = (v[i] * 3 + 2) % 19;
	}
	return s;
}
int twice(int *v, int n)
{
	return step_a(v, n) + step_b(v, n);
}
C
cat > main2.c <<'C'
#include <stdio.h>
int twice(int *v, int n);
int main(void)
{
	int v[16] = { 0 }, t = 0;
	for (int r = 0; r < 50; r++)
		t += twice(v, 16);
	printf("%d\n", t);
	return 0;
}
C
gcc -O2 lib2.c main2.c -o plain2 && ./plain2 > plain2.txt || fail "plain build 2"
for u in lib2 main2; do
	gcc -O2 -flto $SI_CFLAGS -c $u.c -o $u.o || fail "compile $u.c"
done
gcc -O2 -flto $SI_CFLAGS lib2.o main2.o $SI_LIBS -o kept -fplugin-arg-selinst-decisions=kept.yaml \
	|| fail "link kept"
SELINST_OUTPUT=kept.prof ./kept > out.txt && cmp -s out.txt plain2.txt || fail "kept: output"
expect_eq "kept: regions" "['main', 'step_a', 'step_b', 'twice']" "$(regions kept.prof)"
expect_eq "kept: nothing dropped" "[] 3" "$(python3 -c '
import yaml
for d in yaml.safe_load_all(open("kept.yaml")):
    if d and "lto_link" in d:
        print(d["dropped"], d["lto_link"]["regions_considered"])')"

# Recursion: walk calls itself in a loop and, at the bottom, leaf (four
# loops deep, chosen at walk's depth by its unit).  A cycle runs at the
# deepest call into it plus the deepest call inside it plus one, as the
# unit's model has it, not deeper each time round (leaf was dropped at
# depth 100 when the link added the cycle's depth up).
cat > walk.c <<'C'
int leaf(const int *v, int n, int k)
{
	int s = 0;
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++)
			for (int c = 0; c < n; c++)
				for (int i = 0; i < n; i++) {
					int x = v[i] * k + a - b + c;
					if (x < 0) s -= -x;
					else if (x > 1000) s += x;
					else if (x % 2) s += x;
					else if (x % 3) s += x;
					else if (x % 5) s += x;
					else s += x;
				}
	return s;
}
int walk(const int *v, int n)
{
	if (n <= 0)
		return leaf(v, 4, n);
	int s = 0;
	for (int i = 0; i < 2; i++)
		s += walk(v, n - 1);
	return s;
}
C
cat > main3.c <<'C'
#include <stdio.h>
int walk(const int *v, int n);
int main(void)
{
	int v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	printf("%d\n", walk(v, 3));
	return 0;
}
C
gcc -O2 walk.c main3.c -o plain3 && ./plain3 > plain3.txt || fail "plain build 3"
for u in walk main3; do
	gcc -O2 -flto $SI_CFLAGS -c $u.c -o $u.o || fail "compile $u.c"
done
for v in no yes; do
	link=; [ $v = yes ] && link="$SI_CFLAGS -fplugin-arg-selinst-verbose"
	gcc -O2 -flto $link walk.o main3.o $SI_LIBS -o rec-$v 2> err.txt || fail "link rec-$v"
	grep -q 'dropped' err.txt && fail "recursion: $(cat err.txt)"
	SELINST_OUTPUT=rec-$v.prof ./rec-$v > out.txt && cmp -s out.txt plain3.txt || fail "rec-$v: output"
done
expect_eq "recursion: the link keeps the unit's regions" "$(regions rec-no.prof)" "$(regions rec-yes.prof)"
regions rec-yes.prof | grep -q "'leaf'" || fail "recursion: leaf no region: $(regions rec-yes.prof)"

# An incremental link (-r) puts two units in one object: each unit's
# first region descriptor has the same name there.  fa and fb are
# scale_all renamed; main calls fa in two loops (dropped) and fb once.
sed 's/scale_all/fa/' $T/programs/scale_all.c > fa.c
sed 's/scale_all/fb/' $T/programs/scale_all.c > fb.c
cat > main4.c <<'C'
#include <stdio.h>
int fa(const int *v, int n, int k);
int fb(const int *v, int n, int k);
int main(void)
{
	int v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, t = fb(v, 8, 3);
	for (int r = 0; r < 20; r++)
		for (int k = 0; k < 10; k++)
			t += fa(v, 8, k);
	printf("%d\n", t);
	return 0;
}
C
gcc -O2 fa.c fb.c main4.c -o plain4 && ./plain4 > plain4.txt || fail "plain build 4"
for u in fa fb main4; do
	gcc -O2 -flto $SI_CFLAGS -c $u.c -o $u.o || fail "compile $u.c"
done
for order in "fa.o fb.o" "fb.o fa.o"; do
	gcc -O2 -flto $SI_CFLAGS -r $order -o ab.o || fail "-r $order"
	rm -f d-*.yaml
	gcc -O2 -flto $SI_CFLAGS ab.o main4.o $SI_LIBS -o inc -fplugin-arg-selinst-decisions=d-%u.yaml \
		|| fail "link after -r $order"
	SELINST_OUTPUT=inc.prof ./inc > out.txt && cmp -s out.txt plain4.txt || fail "-r $order: output"
	expect_eq "-r $order: regions" "['fb', 'main']" "$(regions inc.prof)"
	# decisions=%u at the link: its document alone, named after the output
	expect_eq "-r $order: decision files of the link" "d-lto-link-inc.yaml" "$(ls d-*.yaml | xargs)"
	expect_eq "-r $order: output named" inc "$(yget d-lto-link-inc.yaml "d['lto_link']['output']")"
done

# Loop regions: outer and its two loops, chosen at depth 0 by their unit,
# run at depth 2 (main's two loops): all three dropped at the link; the
# dispatch then runs the hook-free copy.
cp $T/programs/lto_loops.c lib6.c
cat > main6.c <<'C'
#include <stdio.h>
int outer(const int *v, int n);
int ext_step(int x) { return x * 7 % 13; }
int main(void)
{
	int v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, t = 0;
	for (int r = 0; r < 20; r++)
		for (int k = 0; k < 10; k++) {
			v[k % 8] += k;
			t += outer(v, 8);
		}
	printf("%d\n", t);
	return 0;
}
C
gcc -O2 lib6.c main6.c -o plain6 && ./plain6 > plain6.txt || fail "plain build 6"
for u in lib6 main6; do
	gcc -O2 -flto $SI_CFLAGS -c $u.c -o $u.o || fail "compile $u.c"
done
allregions() { yget "$1" "sorted(r['name'] for r in d['regions'])"; }
for v in no yes; do
	link=; [ $v = yes ] && link="$SI_CFLAGS -fplugin-arg-selinst-decisions=loops.yaml"
	gcc -O2 -flto $link lib6.o main6.o $SI_LIBS -o loops-$v || fail "link loops-$v"
	SELINST_OUTPUT=loops-$v.prof ./loops-$v > out.txt && cmp -s out.txt plain6.txt \
		|| fail "loops-$v: output"
done
expect_eq "loops: the units' regions" "['lib6.c:16', 'lib6.c:9', 'main', 'main6.c:7', 'outer']" \
	"$(allregions loops-no.prof)"
expect_eq "loops: after the link" "['main', 'main6.c:7']" "$(allregions loops-yes.prof)"
expect_eq "loops: lto_link document" \
	"[('lib6.c:16', 'loop', 2, 0), ('lib6.c:9', 'loop', 2, 0), ('outer', 'function', 2, 0)]" \
	"$(python3 -c '
import yaml
for d in yaml.safe_load_all(open("loops.yaml")):
    if d and "lto_link" in d:
        print(sorted((x["name"], x["kind"], x["called_at_depth"], x["qualifies_down_to"]) for x in d["dropped"]))')"

# Not dropped at the link: a function forced by the attribute, and one
# whose hooks test the flag themselves (it calls setjmp): both called in
# two loops from another unit, like fa.
sed 's/^int scale_all/__attribute__((selinst_instrument)) int forced/' $T/programs/scale_all.c > forced.c
cat > jumper.c <<'C'
#include <setjmp.h>
int jumper(const int *v, int n, int k)
{
	jmp_buf env;
	volatile int s = 0;
	if (setjmp(env))
		return s;
	for (int i = 0; i < n; i++) {
		int x = v[i] * k;
		if (x > 1000)
			longjmp(env, 1);
		else if (x % 2)
			s += x;
		else if (x % 3)
			s -= x;
		else if (x % 5)
			s ^= x;
		else if (x % 7)
			s += 2 * x;
		else
			s += x / 2;
	}
	return s;
}
C
cat > main5.c <<'C'
#include <stdio.h>
int forced(const int *v, int n, int k);
int jumper(const int *v, int n, int k);
int main(void)
{
	int v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, t = 0;
	for (int r = 0; r < 20; r++)
		for (int k = 0; k < 10; k++)
			t += forced(v, 8, k) + jumper(v, 8, k);
	printf("%d\n", t);
	return 0;
}
C
gcc -O2 forced.c jumper.c main5.c -o plain5 && ./plain5 > plain5.txt || fail "plain build 5"
for u in forced jumper main5; do
	gcc -O2 -flto $SI_CFLAGS -c $u.c -o $u.o -fplugin-arg-selinst-decisions=$u.yaml || fail "compile $u.c"
done
expect_eq "jumper chosen by its unit" True "$(yget jumper.yaml "[f['instrument'] for f in d['functions'] if f['name'] == 'jumper'][0]")"
gcc -O2 -flto $SI_CFLAGS forced.o jumper.o main5.o $SI_LIBS -o excl || fail "link excl"
SELINST_OUTPUT=excl.prof ./excl > out.txt && cmp -s out.txt plain5.txt || fail "excl: output"
expect_eq "forced and setjmp regions kept" "['forced', 'jumper', 'main']" "$(regions excl.prof)"

# A setjmp caller in another unit, and longjmp out of an exported region
# (kept out of line under -flto: the caller is out of its unit's view):
# every call counted, the profile consistent.
sed 's/^int scale_all(const int \*v, int n, int k)/extern void bail(int); int scale_all(const int *v, int n, int k)/; s/^\tint s = 0;/\tint s = 0; bail(k);/' \
	$T/programs/scale_all.c > jw.c
grep -q 'bail(k)' jw.c || fail "jw.c: $(head -5 jw.c)"
cat > jmain.c <<'C'
#include <setjmp.h>
#include <stdio.h>
int scale_all(const int *v, int n, int k);
static jmp_buf env;
void bail(int k)
{
	if (k == 7)
		longjmp(env, 1);
}
int main(void)
{
	int v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	volatile int t = 0, jumps = 0;
	for (volatile int r = 0; r < 30; r++) {
		if (setjmp(env)) {
			jumps++;
			continue;
		}
		for (int k = 0; k < 10; k++)
			t += scale_all(v, 8, k);
	}
	printf("%d %d\n", t, jumps);
	return 0;
}
C
gcc -O2 jw.c jmain.c -o jplain && ./jplain > jplain.txt || fail "plain build (setjmp)"
gcc -O2 -flto $SI_CFLAGS -c jw.c -o jw.o -fplugin-arg-selinst-decisions=jw.yaml || fail "compile jw.c"
expect_eq "scale_all: hooks in a copy, out of line" "copy -flto: another unit's setjmp caller could inline it" \
	"$(yget jw.yaml "' '.join(str(f.get(k)) for f in d['functions'] if f['name'] == 'scale_all' for k in ('off_copy', 'out_of_line'))")"
gcc -O2 -flto $SI_CFLAGS -c jmain.c -o jmain.o || fail "compile jmain.c"
gcc -O2 -flto jw.o jmain.o $SI_LIBS -o jumps || fail "link (setjmp)"
SELINST_OUTPUT=jumps.prof ./jumps > out.txt && cmp -s out.txt jplain.txt || fail "setjmp: output"
. "$T/rt/rt.sh"
pcheck jumps.prof "consistent(); assert calls('scale_all') == 30 * 8, calls('scale_all')"

# The paper's formula stays strict: nothing noted, nothing dropped.
for u in lib mid main; do
	gcc -O2 -flto $SI_CFLAGS -fplugin-arg-selinst-model=paper -c $u.c -o p-$u.o || fail "paper: $u.c"
done
gcc -O2 -flto $SI_CFLAGS -fplugin-arg-selinst-model=paper p-lib.o p-mid.o p-main.o $SI_LIBS \
	-o paper || fail "paper: link"
SELINST_OUTPUT=paper.prof ./paper > out.txt && cmp -s out.txt plain.txt || fail "paper: output"
regions paper.prof | grep -q "'scale_all'" || fail "paper: scale_all dropped: $(regions paper.prof)"

# C++: a function in a namespace, called in two loops from another unit.
cat > w.cc <<'C'
namespace calc {
int weigh(const int *v, int n, int k)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		int x = v[i] * k + i;
		if (x % 7 == 0) s += 3 * x;
		else if (x % 5 == 0) s -= x;
		else if (x % 3 == 0) s ^= x;
		else if (x & 1) s += x / 2;
		else s += x;
	}
	return s;
}
}
C
cat > m.cc <<'C'
#include <cstdio>
namespace calc { int weigh(const int *v, int n, int k); }
int main()
{
	int v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, t = 0;
	for (int r = 0; r < 50; r++)
		for (int k = 0; k < 10; k++)
			t += calc::weigh(v, 8, k);
	std::printf("%d\n", t);
	return 0;
}
C
g++ -O2 w.cc m.cc -o cplain && ./cplain > cplain.txt || fail "C++ plain"
g++ -O2 -flto $SI_CFLAGS -c w.cc -o w.o && g++ -O2 -flto $SI_CFLAGS -c m.cc -o m.o || fail "C++ compile"
g++ -O2 -flto w.o m.o $SI_LIBS -o cno || fail "C++ link without the plugin"
g++ -O2 -flto $SI_CFLAGS w.o m.o $SI_LIBS -o cyes || fail "C++ link with the plugin"
for b in cno cyes; do
	SELINST_OUTPUT=$b.prof ./$b > out.txt && cmp -s out.txt cplain.txt || fail "$b: output"
done
expect_eq "C++ without the plugin at the link" "['calc::weigh(int const*, int, int)', 'main']" "$(regions cno.prof)"
expect_eq "C++ with it" "['main']" "$(regions cyes.prof)"
echo ok
