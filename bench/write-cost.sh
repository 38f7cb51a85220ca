#!/bin/bash
# SPDX-License-Identifier: MIT
# write-cost.sh - what the runtime costs a process, in instructions
# (callgrind), for the feedback prediction's constants
# (include/selinst-predict.h): generated programs of NF leaf functions
# called from NG callers (NF x NG calling contexts; LOOPS=1: each leaf
# with a loop region), built at threshold 0 and plain.  Prints per
# program the profile's nodes, regions and bytes, the instructions of the
# write at exit (si_write_profile, inclusive), of the start-up
# (selinst_ctor) and the whole run over plain, and the write as the
# header's rule predicts it.
#   bash bench/write-cost.sh            (about a minute)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=$ROOT/build
W=${WORK:-$(mktemp -d /tmp/selinst-write-cost.XXXXXX)}
command -v valgrind >/dev/null || { echo "write-cost.sh: needs valgrind" >&2; exit 2; }
mkdir -p "$W" && cd "$W" || exit 1
gen() { # NF NG LOOPS
	python3 - "$@" <<'PY'
import sys
nf, ng, loops = map(int, sys.argv[1:])
print("#include <stdio.h>\nvolatile long sink;")
body = "for (long j = 0; j < x; j++) sink += j;" if loops else "sink += x;"
for i in range(nf):
    print("__attribute__((noinline)) void f%d(long x) { %s }" % (i, body))
for i in range(ng):
    print("__attribute__((noinline)) void g%d(long x) { %s }"
          % (i, " ".join("f%d(x);" % ((i * 7 + k) % nf) for k in range(nf))))
print("int main(void) {\n%s\n  printf(\"%%ld\\n\", sink); return 0; }"
      % "\n".join("  g%d(3);" % i for i in range(ng)))
PY
}
ir() { SELINST_OUTPUT=/dev/null valgrind --tool=callgrind --callgrind-out-file="$1.cg" "./$1" \
	>/dev/null 2>&1 && awk '/^(summary|totals):/ {print $2; exit}' "$1.cg"; }
incl() { callgrind_annotate --inclusive=yes --threshold=100 "$1.cg" 2>/dev/null |
	awk -v f="$2 \\\\[" '$0 ~ f {gsub(",", "", $1); print $1; exit}'; }
printf 'program\tnodes\tregions\tbytes\twrite\tpredicted write\tctor\tover plain\n'
for cfg in "1 1 0" "4 4 0" "16 16 0" "64 16 0" "16 64 0" "64 64 0" "256 1 0" "16 16 1" "256 1 1" "64 64 1"; do
	set -- $cfg
	n=p_$1_$2_$3
	gen "$@" > $n.c
	gcc -O2 $n.c -o $n.plain || exit 1
	gcc -O2 -fplugin="$B/selinst.so" -I"$ROOT/include" -fplugin-arg-selinst-threshold=0 \
		-fplugin-arg-selinst-loop-threshold=0 $n.c -o $n -L"$B" -lselinst -Wl,-rpath,"$B" || exit 1
	SELINST_OUTPUT=$PWD/$n.prof ./$n >/dev/null
	plain=$(ir $n.plain) all=$(ir $n)
	pred=$(python3 - "$ROOT/include/selinst-predict.h" $n.prof <<'PY'
import re, sys, yaml
c = {m.group(1): float(m.group(2)) for m in
     re.finditer(r"#define SELINST_PREDICT_(\w+)\s+([0-9.]+)", open(sys.argv[1]).read())}
d = yaml.safe_load(open(sys.argv[2]))
kind = {r["id"]: r["kind"] for r in d["regions"]}
w = sum(c["LOOP_NODE_INSNS"] if kind[n["region"]] == "loop" else c["NODE_INSNS"]
        for t in d["threads"] for n in t["nodes"])
w += sum(c["ENTRY_INSNS"] + c["ENTRY_BYTE_INSNS"] * (len(r["name"]) + len(r["file"])
         + len(r.get("function", ""))) for r in d["regions"])
print(int(w))
PY
)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' $n "$(grep -c '^  - {id:' $n.prof)" \
		"$(grep -c '^- id:' $n.prof)" "$(stat -c %s $n.prof)" "$(incl $n si_write_profile)" \
		"$pred" "$(incl $n selinst_ctor)" "$((all - plain))"
done
