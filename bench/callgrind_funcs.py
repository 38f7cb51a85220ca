#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# callgrind_funcs.py - what the feedback benches read from a callgrind
# output: a function's inclusive instructions, each function's own, and a
# feedback build's instructions over plain split into the runtime, the
# loader and C library, the program's functions that grew and those that
# shrank (code generation: a hook only adds instructions, so a function
# that runs fewer than in plain was compiled differently).
#
# callgrind_annotate runs in "/": it shortens file names under its
# working directory, and run in the tree that built libselinst it lists
# the write at exit under two names, "runtime/output.c:si_write_profile
# [libselinst.so]" with only part of it (zstd: 0.12 of 0.38 million
# instructions) and "/.../runtime/output.c:si_write_profile" with all of
# it; bench/real-projects.sh took the first and recorded zstd's write at
# 0.3 million for 1.15.
#   callgrind_funcs.py incl CG FUNCTION     inclusive instructions
#   callgrind_funcs.py split PLAIN.cg... -- BUILD.cg...
#       (the same commands in the same order) one line: total over plain,
#       runtime, loader and libc, program grown, program shrunk
#   callgrind_funcs.py diff PLAIN.cg BUILD.cg [N]   the N largest changes
import collections, os, re, subprocess, sys

LINE = re.compile(r"\s*([\d,]+) \([^)]*\)\s+(\S+?):(\S+)(?: \[(.*)\])?$")


def _annotate(path, inclusive):
    out = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100",
                          "--inclusive=" + ("yes" if inclusive else "no"), os.path.abspath(path)],
                         capture_output=True, text=True, cwd="/", check=True).stdout
    for line in out.splitlines():
        m = LINE.match(line)
        if m and m.group(2) != "PROGRAM":
            yield int(m.group(1).replace(",", "")), m.group(3), m.group(4) or ""


def inclusive(path, function):
    """FUNCTION's inclusive instructions (its largest entry), 0 if absent."""
    return max([n for n, fn, _ in _annotate(path, True) if fn == function] or [0])


def total(path):
    for line in open(path, errors="replace"):
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    return 0


def _kind(fn, obj):
    base = obj.rsplit("/", 1)[-1]
    if "libselinst" in base:
        return "runtime"
    return "system" if ".so" in base else "program"


def own(path):
    """{(kind, function): own instructions}; kind: runtime (libselinst),
    system (ld.so, libc, other shared libraries), program.  Lines without
    an object (parts inlined from another file, listed by it) take the
    kind of the function's line with one; else they count with the
    program unless the function is the runtime's (si_, selinst_, em_).
    Code without a symbol is listed by its address, which moves from
    build to build: it is one entry, "(no symbol)"."""
    rows = [(n, "(no symbol)" if fn.startswith("0x") else fn, obj)
            for n, fn, obj in _annotate(path, False)]
    kinds = {fn: _kind(fn, obj) for _, fn, obj in rows if obj}
    d = collections.Counter()
    for n, fn, obj in rows:
        if obj:
            kind = _kind(fn, obj)
        elif fn in kinds:
            kind = kinds[fn]
        else:
            kind = "runtime" if re.match(r"(si_|selinst_|__selinst_|em_)", fn) else "program"
        d[(kind, fn)] += n
    return d


def split(plains, builds):
    """(over plain, runtime, system, program grown, program shrunk),
    summed over the commands' PLAINS and BUILDS."""
    over = run = sysl = grown = shrunk = 0
    for p, b in zip(plains, builds):
        a, c = own(p), own(b)
        over += total(b) - total(p)
        for k in set(a) | set(c):
            delta = c[k] - a[k]
            if k[0] == "runtime":
                run += delta
            elif k[0] == "system":
                sysl += delta
            elif delta > 0:
                grown += delta
            else:
                shrunk += delta
    return over, run, sysl, grown, shrunk


def main(argv):
    if len(argv) == 3 and argv[0] == "incl":
        print(inclusive(argv[1], argv[2]))
    elif argv and argv[0] == "split" and "--" in argv:
        i = argv.index("--")
        print("\t".join(str(x) for x in split(argv[1:i], argv[i + 1:])))
    elif len(argv) in (3, 4) and argv[0] == "diff":
        a, c = own(argv[1]), own(argv[2])
        keys = sorted(set(a) | set(c), key=lambda k: -abs(c[k] - a[k]))
        for k in keys[:int(argv[3]) if len(argv) > 3 else 30]:
            print("%12d %12d %+11d %-8s %s" % (a[k], c[k], c[k] - a[k], k[0], k[1]))
    else:
        sys.exit("usage: callgrind_funcs.py incl CG FUNCTION | split PLAIN... -- BUILD... "
                 "| diff PLAIN BUILD [N]")


if __name__ == "__main__":
    main(sys.argv[1:])
