#!/bin/bash
# SPDX-License-Identifier: MIT
# --format=callgrind names source files by full path, so that
# callgrind_annotate --auto=yes (and KCachegrind) find them although the
# compiler was given a relative path and the report runs elsewhere.
. "$(dirname "$0")/lib.sh"
mkdir src out
cat >src/cg.c <<'EOF2'
#include <stdio.h>
__attribute__((noinline)) long work(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += i * 3;
	return s;
}
int main(void) { printf("%ld\n", work(100000)); return 0; }
EOF2
si_cc -O1 -fplugin-arg-selinst-threshold=0 src/cg.c -o cgprog || fail "compile"
(cd out && ../cgprog >/dev/null) || fail "run"
cd out
"$REPORT" --format=callgrind cgprog.prof >callgrind.out.1 || fail "callgrind exit $?"
grep -qx "fl=$WORK/src/cg.c" callgrind.out.1 || fail "no full source path: $(grep '^c\?fl=' callgrind.out.1 | sort -u)"
if command -v callgrind_annotate >/dev/null 2>&1; then
	cd / && callgrind_annotate --auto=yes "$WORK/out/callgrind.out.1" >"$WORK/ann.txt" 2>&1 \
		|| fail "callgrind_annotate: $(cat "$WORK/ann.txt")"
	grep -q "Auto-annotated source: $WORK/src/cg.c" "$WORK/ann.txt" \
		|| fail "callgrind_annotate did not find the source: $(head -40 "$WORK/ann.txt")"
fi
exit 0
