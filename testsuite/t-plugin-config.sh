#!/bin/bash
# SPDX-License-Identifier: MIT
# Selection file (issue 13): -fplugin-arg-selinst-config=FILE.  Every kind
# of rule (exclude by file glob and by function glob, include overriding
# an exclude, always, never by mangled and by demangled name), values
# (threshold, loops), the command line winning over the file, the reason
# naming the rule, and bad files as compile errors naming FILE:LINE.
. "$(dirname "$0")/lib.sh"
P=$T/programs/config
cat >sel.yaml <<'Y'
threshold: 999999999999
loops: "off"
exclude:
  - file: "*/gtest/*"
  - function: "helper_*"
include:
  - function: helper_main
always: [big, helper_main, main]
never:
  - _Z4tinyi
  - "ns::g(int)"
Y
build() { # extra flags...
	rm -f dec.yaml
	si_cxx -O2 -fplugin-arg-selinst-config=sel.yaml -fplugin-arg-selinst-decisions=dec.yaml "$@" \
		"$P/sel_main.cc" "$P/gtest/sel_gtest.cc" -o sel || fail "compile with sel.yaml $*"
}
# decision NAME: "instrument reason" of the function whose name contains NAME
decision() {
	python3 -c 'import sys,yaml
for doc in yaml.safe_load_all(open("dec.yaml")):
    for f in doc["functions"]:
        if sys.argv[1] in f["name"]: print((f["instrument"], f["reason"])); sys.exit()' "$1"
}
build
expect_eq "tiny (never, mangled)" "(False, 'config sel.yaml:10 never')" "$(decision 'tiny(')"
expect_eq "ns::g (never, demangled)" "(False, 'config sel.yaml:11 never')" "$(decision 'ns::g(')"
expect_eq "helper_a (exclude by function)" "(False, 'config sel.yaml:5 exclude')" "$(decision 'helper_a(')"
expect_eq "helper_main (include, then always)" "(True, 'config sel.yaml:8 always')" "$(decision 'helper_main(')"
expect_eq "big (always)" "(True, 'config sel.yaml:8 always')" "$(decision 'big(')"
expect_eq "from_gtest (exclude by file)" "(False, 'config sel.yaml:4 exclude')" "$(decision 'from_gtest(')"
grep -q "reason: \"loops=off\"" dec.yaml || fail "loops: off from the file not applied"
./sel; SELINST_OUTPUT=sel.prof ./sel
names=$(yget sel.prof "sorted(r['name'] for r in d['regions'])")
expect_eq "regions in the profile" "['big', 'helper_main', 'main']" "$(echo "$names" | sed 's/int //g; s/(int)//g; s/(int, char\*\*)//g')"

# The command line wins over the file's values; include alone leaves the
# model to decide (threshold 0: everything not ruled out).
sed -i 's/^always: .*/always: [big]/' sel.yaml
build -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-loops=on
expect_eq "helper_main (include: the model)" "(True, 'score >= threshold')" "$(decision 'helper_main(')"
expect_eq "main (the model, threshold 0 from the command line)" "(True, 'score >= threshold')" "$(decision 'main(int')"
grep -q "reason: \"loops=off\"" dec.yaml && fail "loops=on on the command line did not win"
# Last matching exclude/include wins.
printf 'threshold: 0\ninclude:\n  - function: "helper_*"\nexclude:\n  - function: "helper_a"\n' >sel.yaml
build
expect_eq "helper_a (exclude after include)" "(False, 'config sel.yaml:5 exclude')" "$(decision 'helper_a(')"
expect_eq "helper_main (include only)" "(True, 'score >= threshold')" "$(decision 'helper_main(')"

# Bad files: a compile error naming FILE:LINE.
bad() { # CONTENT EXPECTED-MESSAGE
	printf '%b' "$1" >bad.yaml
	if si_cc -fplugin-arg-selinst-config=bad.yaml -c -x c - -o x.o <<<'int f(void) { return 1; }' 2>err.txt; then
		fail "bad file accepted: $1"
	fi
	grep -qF -- "$2" err.txt || { cat err.txt; fail "expected '$2' for: $1"; }
}
bad 'threshold: 5\nbogus: 1\n' "bad.yaml:2: unknown key: 'bogus'"
bad 'never:\n  - "foo[ab"\n' "bad.yaml:2: bad glob: '[' without a closing ']'"
bad 'exclude:\n  - file: "a\\\\"\n' "bad.yaml:2: bad glob: ends in a lone backslash"
bad 'exclude:\n  - file: ""\n' "bad.yaml:2: bad glob: empty pattern"
bad 'never: [a\n  b: c\n' "bad.yaml:2: bad YAML"
bad 'never: "unclosed\n' "bad.yaml:2: bad YAML"
bad '\n\nthreshold: -5\n' "bad.yaml:3: bad value for 'threshold'"
bad 'model: fancy\n' "bad.yaml:1: bad value for 'model'"
bad 'always:\n  - symbol: x\n' "bad.yaml:2: unknown rule key (accepted: function, file): symbol"
bad 'never: 5x\n' "bad.yaml:1: expected a list of rules under: never"
bad 'never:\n  - {function: [1]}\n' "bad.yaml:2: a pattern must be a string"
bad '- a\n- b\n' "bad.yaml:1: the selection file must be a mapping"
bad 'threshold: 1\nthreshold: 2\n' "bad.yaml:2: key given twice: threshold"
si_cc -fplugin-arg-selinst-config=missing.yaml -c -x c - -o x.o <<<'int f;' 2>err.txt && fail "missing file accepted"
grep -q "cannot read selection file 'missing.yaml'" err.txt || { cat err.txt; fail "missing file message"; }
# An empty file is no rule at all.
: >empty.yaml
si_cc -fplugin-arg-selinst-config=empty.yaml -c -x c - -o x.o <<<'int f(void) { return 1; }' || fail "empty file"
exit 0
