#!/bin/bash
# SPDX-License-Identifier: MIT
# exec: the profile is written before the process image is replaced, by
# every member of the exec family; a failed exec loses nothing; a forked
# child that only execs writes no file of its own.
. "$(dirname "$0")/lib.sh"
cp $T/programs/exec_paths.c .
si_cc -O2 -fplugin-arg-selinst-threshold=0 exec_paths.c -o exec_paths || fail "compile"
for how in execv execvp execve execl execlp execle; do
	rm -f *.prof
	SELINST_OUTPUT=p.prof ./exec_paths $how || fail "$how: exit status $?"
	[ -f p.prof ] || fail "$how: no profile"
	expect_eq "$how: work calls" 10 "$($REPORT --format=json p.prof | python3 -c 'import json,sys; d=json.load(sys.stdin); print([r["calls"] for r in d["regions"] if r["name"]=="work"][0])')"
	expect_eq "$how: complete" True "$(yget p.prof 'd["complete"]')"
done
rm -f *.prof
SELINST_OUTPUT=p.prof ./exec_paths fail > out.txt || fail "fail: exit status"
expect_eq "failed exec: work calls" 15 "$($REPORT --format=json p.prof | python3 -c 'import json,sys; d=json.load(sys.stdin); print([r["calls"] for r in d["regions"] if r["name"]=="work"][0])')"
rm -f *.prof
SELINST_OUTPUT=p.prof ./exec_paths forkexec || fail "forkexec: exit status"
expect_eq "fork then exec: files" "p.prof" "$(ls *.prof* | tr '\n' ' ' | sed 's/ $//')"
exit 0
