#!/bin/bash
# SPDX-License-Identifier: MIT
# The hook ABI is described once (plugin/hook-abi.h) and checked against
# include/selinst.h at compile time: a hook whose signature changes, or a
# descriptor field added, in the header alone does not build.
. "$(dirname "$0")/lib.sh"
mkdir -p include plugin
cp "$SELINST_ROOT/plugin/hook-abi.h" plugin/
echo '#include "plugin/hook-abi.h"' > t.cc
H=$SELINST_ROOT/include/selinst.h
check() {	# check WHAT SED-SCRIPT EXPECTED-MESSAGE
	sed "$2" "$H" > include/selinst.h
	cmp -s "$H" include/selinst.h && fail "$1: the edit did not apply"
	g++ -std=gnu++14 -fsyntax-only t.cc > out 2>&1 && fail "$1: built"
	grep -q "$3" out || { cat out; fail "$1: no message '$3'"; }
}
cp "$H" include/selinst.h
g++ -std=gnu++14 -fsyntax-only t.cc || fail "the header as it is does not pass"
check "loop exit gains a parameter" \
	's/void __selinst_loop_exit(const struct selinst_region \*region,/&int extra, /' \
	"__selinst_loop_exit in include/selinst.h differs"
check "enter returns a value" 's/^void __selinst_enter(/int __selinst_enter(/' \
	"__selinst_enter in include/selinst.h differs"
check "a field added" 's/uint32_t reserved;/& uint32_t more;/' \
	"has fields plugin/hook-abi.h does not list"
check "a field's type" 's/uint32_t line;/uint64_t line;/' \
	"selinst_region.line: type differs"
