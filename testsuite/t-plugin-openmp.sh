#!/bin/bash
# SPDX-License-Identifier: MIT
# OpenMP outlined bodies are named after the source function and the
# construct's line, however deeply constructs nest ("main [omp task at
# f.c:15]", never "main._omp_fn.1"), in the decision file and in the
# profile; task copy functions get a name of their own; every region name
# is unique.
. "$(dirname "$0")/lib.sh"
cp $T/programs/omp_nested.c .
si_cc -O2 -fopenmp -fplugin-arg-selinst-threshold=0 \
	-fplugin-arg-selinst-decisions=d.yaml omp_nested.c -o omp_nested || fail "compile"
names=$(yget d.yaml "sorted(f['name'] for f in d['functions'])")
expect_eq "decision names" \
	"['main', 'main [omp parallel at omp_nested.c:9]', 'main [omp task at omp_nested.c:14]', 'work']" "$names"
OMP_NUM_THREADS=2 SELINST_OUTPUT=p.prof ./omp_nested > out.txt || fail "run"
$REPORT --format=json p.prof > p.json || fail "report"
expect_eq "task calls" 10 "$(jget p.json "[r['calls'] for r in d['regions'] if r['name']=='main [omp task at omp_nested.c:14]'][0]")"
expect_eq "parallel bodies" 2 "$(jget p.json "[r['calls'] for r in d['regions'] if r['name']=='main [omp parallel at omp_nested.c:9]'][0]")"

# C++: a task with a firstprivate object gets a copy function, named as
# such; nothing in the unit keeps a GCC-made name.
g++ -O2 -fopenmp $SI_CFLAGS -fplugin-arg-selinst-threshold=0 \
	-fplugin-arg-selinst-decisions=cc.yaml -c $T/corpus/cc_omp.cc -o cc.o || fail "compile C++"
expect_eq "GCC-made names" "[]" "$(yget cc.yaml "[f['name'] for f in d['functions'] if '_omp_' in f['name']]")"
expect_eq "unique names" "True" "$(yget cc.yaml "len(set(f['name'] for f in d['functions'])) == len(d['functions'])")"
yget cc.yaml "[f['name'] for f in d['functions']]" | grep -q "omp task copy at cc_omp.cc:" || fail "no task copy name"
exit 0
