#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the function lines of mpi/functions.list from an MPI implementation's
# mpi.h, preprocessed (`mpicc -E -x c /dev/null -include mpi.h`): every
# int-returning MPI_* function, less the tool interface (MPI_T_*) and the
# variadic MPI_Pcontrol.  Used once to make the list; the bytes column is
# then written by hand (see functions.list).  Usage: list-from-header.py < pre.i
import re, sys

text = sys.stdin.read()
text = re.sub(r'^#.*$', '', text, flags=re.M)
out = []
for m in re.finditer(r'\bint\s+(MPI_[A-Z][A-Za-z0-9_]*)\s*\(([^;{]*?)\)\s*;', text, flags=re.S):
    name, params = m.group(1), ' '.join(m.group(2).split())
    if name.startswith('MPI_T_') or name == 'MPI_Pcontrol' or '...' in params:
        continue
    params = re.sub(r'\s*__attribute__\s*\(\(.*?\)\)', '', params)
    out.append((name, params))
seen = set()
for name, params in sorted(out):
    if name not in seen:
        seen.add(name)
        print(f'{name} | {params} |')
