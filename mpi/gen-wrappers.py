#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Generates libselinst-mpi's PMPI wrappers from mpi/functions.list (its
# header says the line format): for each function a region descriptor of
# kind mpi and a wrapper that enters it, calls PMPI_NAME, adds the bytes
# the BYTES column names when the call succeeded, and exits it.
#
# --fortran: the wrappers of libselinst-mpif.  Open MPI's Fortran bindings
# (mpif.h, `use mpi`) call the C PMPI_* functions, past the C wrappers, so
# each function whose Fortran binding has the C parameters by reference
# plus ierr (no strings, no callbacks) gets a wrapper of gfortran's symbol
# (mpi_send_) around the MPI Fortran library's pmpi_send_, and one of
# `use mpi_f08`'s (mpi_send_f08_, which calls Open MPI's internal
# ompi_send_f, past both) around pmpi_send_f08_.  Its descriptor
# has the C one's name: the runtime merges the two into one region (one
# per MPI function whichever language called it).  A library of its own,
# so that C programs do not load the MPI Fortran library.
#   gen-wrappers.py [--fortran] functions.list > wrappers.c
import re, sys

# Fortran bindings whose parameters are not the C ones: MPI_Init has none
# (ierr only), MPI_Init_thread no argc/argv.
FORTRAN_PARAMS = {'MPI_Init': [], 'MPI_Init_thread': ['required', 'provided']}

def param_name(p, i):
    """The name of parameter text P ('const int counts[]' -> counts), or
    aI when it has none (a bare type)."""
    m = re.match(r'^(.*?)([A-Za-z_][A-Za-z0-9_]*)\s*(\[[^\]]*\])*$', p)
    words = re.findall(r'[A-Za-z_][A-Za-z0-9_]*', p)
    if m and len(words) >= 2 and not p.rstrip().endswith('*'):
        return m.group(2), p
    return f'a{i}', f'{p} a{i}'

def arg(name, ctype, fortran):
    """C for the value of parameter NAME of type CTYPE: itself in C; in
    Fortran, converted from the MPI_Fint it points to."""
    if not fortran:
        return name
    fint = f'*(const MPI_Fint *){name}'
    conv = {'int': f'(int){fint}', 'MPI_Datatype': f'PMPI_Type_f2c({fint})',
            'MPI_Comm': f'PMPI_Comm_f2c({fint})'}
    return conv[ctype]

# The peers of a collective: COMM's ranks, or in(COMM) / out(COMM), the
# in- or out-neighbours of its topology (layer.h's si_mpi_peers).
PEERS = {'size': 'SI_MPI_RANKS', 'in': 'SI_MPI_IN', 'out': 'SI_MPI_OUT'}

def peers(p, fortran):
    """(COMM's C value, which peers) of peers text P: COMM, in(COMM) or out(COMM)."""
    m = re.fullmatch(r'(?:(in|out)\((\w+)\)|(\w+))', p)
    who = PEERS[m.group(1)] if m.group(1) else 'SI_MPI_RANKS'
    return arg(m.group(2) or m.group(3), 'MPI_Comm', fortran), who

def array(name, elem, types, fn, where, fortran):
    """C for array parameter NAME of ELEM ('int' or 'MPI_Datatype') as a
    si_mpi_counts member: C's, or Fortran's MPI_Fint one."""
    if re.sub(r'\s', '', types.get(name, '')) != elem + '[]':
        sys.exit(f'{where}: {fn}() names {name!r}, no {elem} array parameter')
    return f'(const MPI_Fint *){name}' if fortran else name

def term(t, types, where, fortran):
    """C for one factor of a bytes product."""
    m = re.fullmatch(r'(size|in|out)\((\w+)\)', t)
    if m:
        return f'si_mpi_peers({arg(m.group(2), "MPI_Comm", fortran)}, {PEERS[m.group(1)]})'
    m = re.fullmatch(r'at\((\w+),(\w+)\)', t)
    if m:
        a = array(m.group(1), 'int', types, 'at', where, fortran)
        c = arg(m.group(2), 'MPI_Comm', fortran)
        return f'si_mpi_at_counts(NULL, {a}, {c})' if fortran else f'si_mpi_at_counts({a}, NULL, {c})'
    m = re.fullmatch(r'(sum|wsum)\((\w+),(?:(\w+),)?((?:in|out)\(\w+\)|\w+)\)', t)
    if m and (m.group(1) == 'wsum') == (m.group(3) is not None):
        fn, cnt, typ, p = m.groups()
        c = array(cnt, 'int', types, fn, where, fortran)
        ty = array(typ, 'MPI_Datatype', types, fn, where, fortran) if typ else 'NULL'
        init = f'NULL, {c}, NULL, {ty}' if fortran else f'{c}, NULL, {ty}, NULL'
        return ('si_mpi_sum_counts(&(const struct si_mpi_counts){{ {} }}, {}, {})'
                .format(init, *peers(p, fortran)))
    if types.get(t) == 'MPI_Datatype':
        return f'si_mpi_type_size({arg(t, "MPI_Datatype", fortran)})'
    if types.get(t) == 'int':
        v = arg(t, 'int', fortran)
        return f'(uint64_t)({v} > 0 ? {v} : 0)'
    sys.exit(f'{where}: bytes term {t!r} is no int or MPI_Datatype parameter')

def bytes_expr(name, spec, types, where, is_sent, fortran):
    """C statement adding SPEC's bytes to `sent` or `received` ('' when
    the Fortran wrapper cannot count them)."""
    var = 'sent' if is_sent else 'received'
    cond = []
    m = re.fullmatch(r'(.*?)@(root|nonroot)', spec)
    if m:
        spec = m.group(1)
        op = '==' if m.group(2) == 'root' else '!='
        cond.append(f'si_mpi_comm_rank({arg("comm", "MPI_Comm", fortran)}) {op} '
                    f'{arg("root", "int", fortran)}')
    if is_sent and 'sendbuf' in types:
        # MPI_IN_PLACE leaves sendcount and sendtype undefined; Fortran's
        # MPI_IN_PLACE is no C value to compare with: no bytes there,
        # but for the neighborhood collectives, which do not allow it.
        if not fortran:
            cond.insert(0, 'sendbuf != MPI_IN_PLACE')
        elif 'sendtype' in spec and 'eighbor_' not in name:
            return ''
    m = re.fullmatch(r'status\((\w+),(\w+),(\w+)\)', spec)
    if m:
        st, dt, cnt = m.groups()
        for a in (st, dt, cnt):
            if a not in types:
                sys.exit(f'{where}: status() names {a!r}, no parameter')
        fn = 'si_mpi_fstatus_bytes' if fortran else 'si_mpi_status_bytes'
        val = f'{fn}({st}, {arg(dt, "MPI_Datatype", fortran)}, {arg(cnt, "int", fortran)})'
    else:
        val = ' * '.join(term(t, types, where, fortran) for t in spec.split('*'))
    if cond:
        return f'\t\tif ({" && ".join(cond)})\n\t\t\t{var} += {val};\n'
    return f'\t\t{var} += {val};\n'

def body(name, call, ok, fields, types, where, fortran):
    """The wrapper's body: enter, CALL, bytes when OK, exit."""
    out = [f'\t__selinst_enter(&d_{name});\n', call]
    counts = ''.join(bytes_expr(name, fields[k], types, where, k == 'sent', fortran)
                     for k in ('sent', 'received') if k in fields)
    if counts:
        out.append(f'\tif ({ok}) {{\n\t\tuint64_t sent = 0, received = 0;\n{counts}'
                   f'\t\t__selinst_mpi_bytes(&d_{name}, sent, received);\n\t}}\n')
    out.append(f'\t__selinst_exit(&d_{name});\n')
    return ''.join(out)

def fortran_wrapper(name, names, decls, fields, types, where):
    """gfortran's bindings of NAME around the MPI library's: mpif.h's and
    `use mpi`'s mpi_name_ around pmpi_name_, and `use mpi_f08`'s
    mpi_name_f08_ around pmpi_name_f08_ (whose optional ierror is NULL
    when left out); '' when its parameters are not the C ones by
    reference."""
    if name in FORTRAN_PARAMS:
        names = FORTRAN_PARAMS[name]
    elif re.search(r'\bchar\b|_function\b|c2f|f2c', ' '.join(decls) + name):
        return ''
    params = ''.join(f'void *{n}, ' for n in names) + 'MPI_Fint *ierr'
    args = ''.join(f'{n}, ' for n in names)
    out = [f'static const struct selinst_region d_{name} = SI_MPI_REGION("{name}");\n']
    for sym, call, ok in (
            (name.lower() + '_', f'({args}ierr);\n', '*ierr == MPI_SUCCESS'),
            (name.lower() + '_f08_', f'({args}&e);\n\tif (ierr)\n\t\t*ierr = e;\n',
             'e == MPI_SUCCESS')):
        pre = '\tMPI_Fint e = MPI_SUCCESS;\n' if ok.startswith('e ') else ''
        out.append(f'extern void p{sym}({params});\n'
                   f'SI_MPI_EXPORT void {sym}({params});\nvoid {sym}({params})\n{{\n{pre}' +
                   body(name, f'\tp{sym}{call}', ok, fields, types, where, True) + '}\n\n')
    return ''.join(out)

def wrapper(line, where, fortran):
    name, params, spec = [f.strip() for f in line.split('|')]
    plist = [p.strip() for p in params.split(',')] if params and params != 'void' else []
    names, decls, types = [], [], {}
    for i, p in enumerate(plist):
        n, d = param_name(p, i)
        names.append(n)
        decls.append(d)
        types[n] = re.sub(r'\b(const)\b|\b' + re.escape(n) + r'\b', '', d).strip()
    fields = dict(f.split('=', 1) for f in spec.split()) if spec else {}
    if set(fields) - {'sent', 'received'}:
        sys.exit(f'{where}: unknown bytes field in {spec!r}')
    if fortran:
        return fortran_wrapper(name, names, decls, fields, types, where)
    # An MPI whose header makes NAME a macro (MPICH's handle conversions,
    # MPI_Comm_c2f and the like) has no such function to wrap.  Exported
    # by hand: MPICH's mpi.h, unlike Open MPI's, gives its declarations
    # no visibility, and the layer is built with -fvisibility=hidden.
    return (f'#ifndef {name}\n'
         f'static const struct selinst_region d_{name} = SI_MPI_REGION("{name}");\n'
         f'SI_MPI_EXPORT int {name}({", ".join(decls) or "void"})\n{{\n' +
         body(name, f'\tint rc = P{name}({", ".join(names)});\n', 'rc == MPI_SUCCESS',
              fields, types, where, False) + '\treturn rc;\n}\n#endif\n\n')

def main():
    fortran = sys.argv[1] == '--fortran'
    src = sys.argv[-1]
    out = ['/* SPDX-License-Identifier: MIT */\n',
           f'/* Generated by mpi/gen-wrappers.py from {src}: do not edit. */\n',
           '#include "layer.h"\n\n']
    with open(src) as f:
        for no, line in enumerate(f, 1):
            if line.strip() and not line.startswith('#'):
                out.append(wrapper(line.rstrip('\n'), f'{src}:{no}', fortran))
    sys.stdout.write(''.join(out))

main()
