#!/bin/bash
# SPDX-License-Identifier: MIT
# A program with its own libyaml (here: an instrumented yaml_emitter_emit
# that would abort) does not capture the runtime's: libselinst.so carries
# a private, hidden libyaml, and the profile is written.
. "$(dirname "$0")/lib.sh"
cat > own.c <<'C'
#include <stdio.h>
#include <stdlib.h>
/* A program's own copy of a libyaml function, exported as libyaml's
 * would be; the runtime must never call it. */
__attribute__((visibility("default"))) int yaml_emitter_emit(void *emitter, void *event)
{
	(void)emitter; (void)event;
	fprintf(stderr, "program's yaml_emitter_emit called\n");
	abort();
}
__attribute__((noinline)) int work(int i) { return i * 3; }
int main(void)
{
	int s = 0;
	for (int i = 0; i < 10; i++)
		s += work(i);
	printf("%d\n", s);
	return 0;
}
C
si_cc -O2 -fplugin-arg-selinst-threshold=0 -rdynamic own.c -o own || fail "compile"
SELINST_OUTPUT=own.prof ./own > out.txt 2> err.txt || fail "run: $(cat err.txt)"
[ -s err.txt ] && fail "stderr: $(cat err.txt)"
expect_eq "work calls" 10 "$($REPORT --format=json own.prof | python3 -c 'import json,sys; print([r["calls"] for r in json.load(sys.stdin)["regions"] if r["name"]=="work"][0])')"
# Nothing of libyaml is exported, and it is not a dependency.
nm -D --defined-only "$SELINST_BUILD/libselinst.so" | grep -q ' yaml_' && fail "libselinst.so exports yaml_ symbols"
ldd "$SELINST_BUILD/libselinst.so" | grep -q libyaml && fail "libselinst.so depends on libyaml.so"
exit 0
