#!/bin/bash
# SPDX-License-Identifier: MIT
# `make bench`: runs each benchmark section in turn and prints its figures;
# a failing section is reported and does not stop the others.
# Add a section as one more run_section line.
here=$(cd "$(dirname "$0")" && pwd)
rc=0
run_section() { echo; bash "$here/$1" || { echo "bench section $1 failed"; rc=1; }; }
run_section report-merge.sh
run_section rt-pair.sh
run_section trace.sh
run_section overhead.sh
run_section compile-time.sh
run_section phases.sh
run_section mpi.sh
run_section omp.sh
run_section sample.sh
# Real projects from Debian's sources (network once, about half an hour):
# part of `make bench`, never of CI; SELINST_BENCH_REAL=0 leaves it out.
[ "${SELINST_BENCH_REAL:-1}" = 0 ] || run_section real-projects.sh
exit $rc
