#!/bin/bash
# SPDX-License-Identifier: MIT
# no_instrument_function keeps a function out at threshold 0; the
# selinst_instrument attribute (SELINST_ALWAYS in selinst.h) forces one in
# above every score; constructs that cannot be hooked safely are left
# alone with the reason in the decision file.
. "$(dirname "$0")/lib.sh"
cat > a.c <<'C'
#include <selinst.h>
#if defined(EXPECT_PLUGIN) && !__has_attribute(selinst_instrument)
#error "plugin attribute not visible"
#endif
__attribute__((no_instrument_function)) int never(int x) { return x + 1; }
SELINST_ALWAYS int always(int x) { return x * 3; }
static inline __attribute__((always_inline)) int forced_inline(int x) { return x - 1; }
int plain(int x) { return never(x) + always(x) + forced_inline(x); }
int main(void) { return plain(1) == 6 ? 0 : 1; }
C
gcc -O2 -fchecking -fplugin=$PLUGIN -I$SELINST_ROOT/include -DEXPECT_PLUGIN -fplugin-arg-selinst-threshold=0 \
	-fplugin-arg-selinst-decisions=zero.yaml -c a.c -o zero.o || fail "compile at 0"
dec() { yget "$1" "[(f['instrument'], f['reason']) for f in d['functions'] if f['name']=='$2'][0]"; }
expect_eq "never at 0" "(False, 'no_instrument_function attribute')" "$(dec zero.yaml never)"
expect_eq "always_inline at 0" "(False, 'always_inline: its body is copied into every caller')" "$(dec zero.yaml forced_inline)"
expect_eq "plain at 0" "(True, 'score >= threshold')" "$(dec zero.yaml plain)"
gcc -O2 -fchecking -fplugin=$PLUGIN -I$SELINST_ROOT/include -fplugin-arg-selinst-threshold=1000000000000 \
	-fplugin-arg-selinst-decisions=high.yaml -c a.c -o high.o || fail "compile high"
expect_eq "always when high" "(True, 'selinst_instrument attribute')" "$(dec high.yaml always)"
expect_eq "plain when high" "(False, 'score < threshold')" "$(dec high.yaml plain)"
# Without the plugin the header still compiles (SELINST_ALWAYS is empty).
gcc -O2 -Wall -Werror -I$SELINST_ROOT/include -c a.c -o noplugin.o || fail "header without plugin"
# The attribute on a variable is a warning, not a crash.
echo 'int v __attribute__((selinst_instrument));' > v.c
gcc -fplugin=$PLUGIN -c v.c -o v.o 2>warn.txt || fail "variable attribute"
grep -q "applies to functions only" warn.txt || fail "no warning: $(cat warn.txt)"
# Nested function left by a non-local goto: left alone, reason given.
cat > n.c <<'C'
int outer(int n) {
	__label__ out;
	int inner(int k) { if (k > 2) goto out; return k; }
	int s = 0;
	for (int i = 0; i < n; i++) s += inner(i);
	return s;
out:
	return -1;
}
int main(void) { return outer(5) == -1 ? 0 : 1; }
C
gcc -O2 -fchecking -fplugin=$PLUGIN -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=n.yaml -c n.c -o n.o || fail "nested"
yget n.yaml "[f['reason'] for f in d['functions']]" | grep -q "non-local goto" || fail "nonlocal reason: $(yget n.yaml "[f['reason'] for f in d['functions']]")"
exit 0
