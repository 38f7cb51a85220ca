#!/bin/bash
# SPDX-License-Identifier: MIT
# A function with copies (off-copy, issue 10) is compiled once per body,
# and a warning of the late passes came once per body: three times for a
# function with loop regions (its dispatcher's copies), twice for one
# without (review finding X7).  Only the hook-free body warns now: the
# plugin's build prints each warning as often as the plain build, -w
# still silences them, and -Werror still fails the build.
. "$(dirname "$0")/lib.sh"
F=-fplugin-arg-selinst-threshold=0

cat > warn.c <<'C'
#include <string.h>
char small[4];
char other[4];
__attribute__((noinline)) void looped(int n)
{
	for (int i = 0; i < n; i++)
		small[i % 4] += (char)i;
	memcpy(small, "looped writes too much", 23);
}
__attribute__((noinline)) void straight(const char *s)
{
	other[0] = s[0];
	memcpy(other, "straight writes too much", 25);
}
int main(int argc, char **argv)
{
	looped(argc * 100);
	straight(argv[0]);
	return small[1] + other[1];
}
C
count() { grep -c "warning: .*Wstringop-overflow" "$1"; }
gcc -O2 -c warn.c -o plain.o 2> plain.log || fail "plain compile"
plain=$(count plain.log)
[ "$plain" -eq 2 ] || fail "the plain build gives $plain overflow warnings, not 2: no test"
si_cc -O2 $F -c warn.c -o si.o -fplugin-arg-selinst-decisions=warn.yaml 2> si.log \
	|| fail "compile with the plugin"
off() { awk -v n="name: \"$1\"" '$0 ~ n {f=1} f && /off_copy:/{print; exit}' warn.yaml; }
case "$(off looped)" in *"three copies"*) ;; *) fail "looped has no dispatcher: $(off looped)";; esac
case "$(off straight)" in *'"copy"'*) ;; *) fail "straight has no copy: $(off straight)";; esac
expect_eq "overflow warnings with the plugin (plain: $plain)" "$plain" "$(count si.log)"
expect_eq "warnings naming looped's line" 1 "$(grep -c 'warn.c:8:.*warning' si.log)"
expect_eq "warnings naming straight's line" 1 "$(grep -c 'warn.c:13:.*warning' si.log)"

si_cc -O2 $F -w -c warn.c -o si.o 2> w.log || fail "compile with -w"
expect_eq "warnings under -w" 0 "$(grep -c 'warning:' w.log)"
if si_cc -O2 $F -Werror -c warn.c -o si.o 2> werror.log; then
	fail "-Werror compiled: the warnings were lost, not deduplicated"
fi
expect_eq "errors under -Werror" 2 "$(grep -c 'error: .*stringop-overflow' werror.log)"
echo "ok: $plain warnings plain, $(count si.log) with three bodies for looped, two for straight"
