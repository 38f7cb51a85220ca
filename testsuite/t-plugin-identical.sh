#!/bin/bash
# SPDX-License-Identifier: MIT
# With a threshold above every score the plugin adds no code at all: the
# object's .text (and data) are byte-identical to the build without it.
. "$(dirname "$0")/lib.sh"
huge=1000000000000000000000000000000
sections() { for s in .text .rodata .data .bss; do objcopy -O binary --only-section=$s "$1" "$1$s" 2>/dev/null; done; }
for src in "$SELINST_ROOT/examples/bt_shape.c" "$T/programs/cxx_mix.cc"; do
	case $src in *.cc) cc=g++ ;; *) cc=gcc ;; esac
	for O in -O0 -O2 -O3; do
		b=$(basename "$src")$O
		$cc $O -c "$src" -o $b.plain.o || fail "plain $b"
		$cc $O -fchecking -fplugin=$PLUGIN -fplugin-arg-selinst-threshold=$huge -c "$src" -o $b.si.o || fail "plugin $b"
		sections $b.plain.o; sections $b.si.o
		for s in .text .rodata .data; do
			[ -f $b.plain.o$s ] || continue
			cmp -s $b.plain.o$s $b.si.o$s || fail "$b: $s differs"
		done
		[ -s $b.plain.o.text ] || fail "$b: empty .text?"
		# And the plugin did run: at threshold 0 the code changes.
		$cc $O -fplugin=$PLUGIN -fplugin-arg-selinst-threshold=0 -c "$src" -o $b.zero.o || fail "zero $b"
		sections $b.zero.o
		cmp -s $b.plain.o.text $b.zero.o.text && fail "$b: threshold 0 changed nothing"
	done
done
exit 0
