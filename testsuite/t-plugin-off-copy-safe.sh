#!/bin/bash
# SPDX-License-Identifier: MIT
# off-copy's limits (issue 10; README "Switched-off copies"): where the
# dispatcher in front of a function's copies would show, the function
# keeps its hooks in its body, as with off-copy=off.  Each case failed
# with the first version (review of 2026-11-26): a self-recursive
# function fit half the depth in the stack (the switched-off recursion
# became a loop around the call of the copy); __builtin_return_address
# named the dispatcher where calls are not sibling calls (-O1,
# -fno-optimize-sibling-calls); a defined function with the error
# attribute failed to compile (the dispatcher calls its copies) and one
# with the warning attribute warned; asm defining a global label was
# assembled twice.  Prototyped char/short/bool parameters (promoted by
# the ABI, not K&R) still get copies, and a heavy body (weight over 512)
# none.  -pg and -finstrument-functions: no copies (each would be
# counted).  x86 interrupt handlers are not instrumented (a copy broke the
# build) and no_caller_saved_registers functions keep their hooks.
. "$(dirname "$0")/lib.sh"
F=-fplugin-arg-selinst-threshold=0
copies() { nm "$1" | grep -c " t $2\.selinst"; }

cat > rec.c <<'C'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) long rec(int n, volatile char *p)
{
	volatile char pad[200];
	pad[0] = (char)n;
	if (n == 0)
		return p[0];
	return rec(n - 1, pad) + pad[0];
}
__attribute__((noinline)) long leaf(int n) { long s = 0; for (int i = 0; i < n; i++) s += i ^ n; return s; }
int main(int argc, char **argv)
{
	char c = 1;
	int n = argc > 1 ? atoi(argv[1]) : 100;
	printf("%ld %ld\n", rec(n, &c), leaf(n));
	return 0;
}
C
si_cc -O2 $F rec.c -o rec -fplugin-arg-selinst-decisions=rec.yaml || fail "compile rec.c"
expect_eq "rec's copies (self-recursive)" 0 "$(copies rec rec)"
expect_eq "rec's off_copy in the decision file" '"recursive"' \
	"$(awk '/name: "rec"/{f=1} f && /off_copy:/{print $2; exit}' rec.yaml)"
[ "$(copies rec leaf)" -ge 1 ] || fail "leaf has no copy: the check is not a test of anything"
SELINST_THROTTLE=off ./rec 1000 > out.txt || fail "rec 1000"
gcc -O2 rec.c -o rec.plain && ./rec.plain 1000 | cmp -s - out.txt || fail "rec's output differs from plain"

cat > ra.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
__attribute__((noinline)) void use(char *b) { memset(b, 1, 64); __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) void *who(void) { char b[64]; use(b); return __builtin_return_address(0); }
int main(void)
{
	Dl_info di;
	void *r = who();
	int bad = !dladdr(r, &di) || !di.dli_sname || strcmp(di.dli_sname, "main") != 0;
	printf("return address in %s\n", di.dli_sname ? di.dli_sname : "?");
	return bad;
}
C
for o in -O1 -O2 "-O2 -fno-optimize-sibling-calls" -Og; do
	si_cc $o $F -rdynamic ra.c -o ra -ldl || fail "compile ra.c $o"
	SELINST_THROTTLE=off ./ra > out.txt || fail "$o: __builtin_return_address(0): $(cat out.txt)"
	expect_eq "who's copies at $o" 0 "$(copies ra who)"
done
expect_eq "use's copies at -Og (no sibling calls)" 0 "$(copies ra use)"
si_cc -O2 $F -rdynamic ra.c -o ra -ldl
[ "$(copies ra use)" -ge 1 ] || fail "use has no copy at -O2: the checks above test nothing"

cat > attrs.c <<'C'
#include <stdio.h>
__attribute__((noinline, error("dead branch expected"))) void must_be_dead(int x)
{
	for (int i = 0; i < x; i++)
		printf("%d\n", i);
}
__attribute__((noinline, warning("deprecated"))) int legacy(int x)
{
	int s = 0;
	for (int i = 0; i < x; i++)
		s += i;
	return s;
}
extern const char here_marker[];
__attribute__((noinline)) int marked(int x)
{
	int s = 0;
	__asm__ volatile(".globl here_marker\nhere_marker:");
	for (int i = 0; i < x; i++)
		s += i * i;
	return s;
}
__attribute__((noinline)) int narrow(char c, short s, _Bool b)
{
	int r = 0;
	for (int i = 0; i < 3; i++)
		r += c * s + b + i;
	return r;
}
int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 100 && sizeof(int) == 2)
		must_be_dead(argc);
	printf("%d %d %p\n", marked(10), narrow((char)argc, -3, 1), (void *)here_marker);
	return 0;
}
C
si_cc -O2 $F -Werror attrs.c -o attrs 2> err.txt || fail "attrs.c: $(cat err.txt)"
SELINST_THROTTLE=off ./attrs > /dev/null || fail "attrs runs"
expect_eq "marked's copies (asm text)" 0 "$(copies attrs marked)"
[ "$(copies attrs narrow)" -ge 1 ] || fail "narrow (char, short, bool) has no copy"

# A heavy body: 120 statements of separate work.
{
	echo '#include <stdio.h>'
	echo '__attribute__((noinline)) long heavy(long *a, int n) { long s = 0;'
	for i in $(seq 120); do echo "  if (n > $i) s += a[$i % 8] * $i ^ (s >> 3);"; done
	echo '  return s; }'
	echo 'int main(void) { long a[8] = {1,2,3,4,5,6,7,8}; printf("%ld\n", heavy(a, 100)); return 0; }'
} > heavy.c
si_cc -O2 $F heavy.c -o heavy -fplugin-arg-selinst-decisions=heavy.yaml || fail "compile heavy.c"
w=$(awk '/name: "heavy"/{f=1} f && /weight:/{print $2; exit}' heavy.yaml)
[ "${w:-0}" -gt 512 ] || fail "heavy's weight $w is not over 512: the check tests nothing"
expect_eq "heavy's copies (weight $w)" 0 "$(copies heavy heavy)"

# -pg and -finstrument-functions put their call into every body: with
# copies one call was counted two or three times.
cat > prof.c <<'C'
volatile int v;
__attribute__((noinline)) void counted(int n) { for (int i = 0; i < n; i++) v += i; }
int main(void) { counted(3); return v == 3 ? 0 : 1; }
C
for flag in -pg -finstrument-functions; do
	si_cc -O2 $F $flag -c prof.c -o prof.o || fail "prof.c with $flag"
	expect_eq "counted's copies with $flag" 0 "$(copies prof.o counted)"
done
si_cc -O2 $F -c prof.c -o prof.o || fail "prof.c"
[ "$(copies prof.o counted)" -ge 1 ] || fail "counted has no copy without -pg: the check tests nothing"

# x86's interrupt handlers and no_caller_saved_registers functions
# (-mgeneral-regs-only): a copy of a handler cannot be called ("interrupt
# service routine cannot be called directly" broke the build), and a
# no_caller_saved_registers function's call of its copy keeps the frame.
if [ "$(uname -m)" = x86_64 ]; then
	cat > isr.c <<'C'
struct interrupt_frame;
volatile int ticks;
__attribute__((interrupt)) void isr(struct interrupt_frame *f) { (void)f; ticks++; }
__attribute__((no_caller_saved_registers, noinline)) void keeps(int n)
{
	for (int i = 0; i < n; i++)
		ticks += 2;
}
int main(void) { keeps(3); return ticks == 6 ? 0 : 1; }
C
	gcc -O2 -mgeneral-regs-only isr.c -o isr.plain || fail "isr.c does not build plain"
	si_cc -O2 -mgeneral-regs-only $F isr.c -o isr -fplugin-arg-selinst-decisions=isr.yaml \
		2> err.txt || fail "isr.c: $(cat err.txt)"
	SELINST_OUTPUT=isr.prof ./isr || fail "isr runs"
	expect_eq "isr's decision" '"interrupt handler: entered by the hardware, not by a call"' \
		"$(awk '/name: "isr"/{f=1} f && /reason:/{sub(/^  reason: /, ""); print; exit}' isr.yaml)"
	expect_eq "keeps's copies (no_caller_saved_registers)" 0 "$(copies isr keeps)"
	grep -q '"keeps"' isr.prof || fail "keeps is not in the profile: it should keep its hooks in its body"
fi
exit 0
