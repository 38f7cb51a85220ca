#!/bin/bash
# SPDX-License-Identifier: MIT
# Runtime: profile names (default, SELINST_OUTPUT with %p %r %h %%, MPI
# ranks from the environment, invalid ones ignored with a warning), write errors on stderr with the path and
# the reason, exit status unchanged, no partial file left.
. "$(dirname "$0")/lib.sh"
. "$T/rt/rt.sh"
rtcc prog "$RT/misc.c"
host=$(hostname)

./prog plain || fail "run"
[ -f prog.prof ] || fail "default name: $(ls)"
pcheck prog.prof 'assert p["rank"] is None and p["size"] is None and p["program"].endswith("/prog"); assert p["command"] == "./prog plain", p["command"]'
rm -f prog.prof

SELINST_OUTPUT='out-%p-%r-%h-%%.prof' ./prog plain 0 > /dev/null || fail "run"
f=$(ls out-*.prof) || fail "no SELINST_OUTPUT file: $(ls)"
pid=$(python3 -c 'import yaml,sys; print(yaml.safe_load(open(sys.argv[1]))["pid"])' "$f")
expect_eq "expanded name" "out-$pid-0-$host-%.prof" "$f"
rm -f out-*.prof

mkdir -p sub
SELINST_OUTPUT=sub/x.prof ./prog || fail "run"
[ -f sub/x.prof ] || fail "SELINST_OUTPUT into a directory"

for v in OMPI_COMM_WORLD_RANK PMI_RANK PMIX_RANK SLURM_PROCID; do
	env $v=3 ./prog || fail "run ($v)"
	[ -f prog.3.prof ] || fail "$v: no prog.3.prof: $(ls)"
	pcheck prog.3.prof 'assert p["rank"] == 3, p["rank"]'
	rm -f prog.3.prof
done
OMPI_COMM_WORLD_RANK=2 OMPI_COMM_WORLD_SIZE=4 SELINST_OUTPUT='r%r.prof' ./prog || fail "run"
pcheck r2.prof 'assert p["rank"] == 2 and p["size"] == 4'

# A rank or size that is not a non-negative decimal integer (or is out of
# range) is ignored with one warning naming it; the next variable is tried.
for v in abc -1 '1 2' '' +3 0x1 99999999999; do
	PMI_RANK=$v ./prog 2> err.txt || fail "run (PMI_RANK='$v')"
	[ -f prog.prof ] || fail "PMI_RANK='$v': no prog.prof: $(ls)"
	pcheck prog.prof 'assert p["rank"] is None, p["rank"]'
	expect_eq "warnings for PMI_RANK='$v'" 1 "$(grep -c '^selinst: ' err.txt)"
	grep -qF "PMI_RANK='$v'" err.txt || grep -qF "PMI_RANK=$v:" err.txt || fail "warning does not name PMI_RANK='$v': $(cat err.txt)"
	rm -f prog*.prof
done
grep -q 'out of range (0\.\.2147483647)' err.txt || fail "out-of-range warning: $(cat err.txt)"
SLURM_PROCID=abc PMI_RANK=-1 PMIX_RANK=5 SLURM_NTASKS=8 PMI_SIZE=x ./prog 2> err.txt || fail "run (fallback)"
[ -f prog.5.prof ] || fail "fallback to PMIX_RANK: $(ls)"
pcheck prog.5.prof 'assert p["rank"] == 5 and p["size"] == 8, (p["rank"], p["size"])'
expect_eq "warnings (PMI_RANK, PMI_SIZE)" 2 "$(grep -c '^selinst: ' err.txt)"
grep -qF "PMI_RANK='-1'" err.txt && grep -qF "PMI_SIZE='x'" err.txt || fail "warnings: $(cat err.txt)"
rm -f prog*.prof
SLURM_PROCID=007 SLURM_NTASKS=0 ./prog 2> err.txt || fail "run (leading zeros, size 0)"
pcheck prog.7.prof 'assert p["rank"] == 7 and p["size"] is None, (p["rank"], p["size"])'
grep -q 'SLURM_NTASKS=0: out of range (1\.\.' err.txt || fail "size 0 warning: $(cat err.txt)"
rm -f prog*.prof

# Unwritable path: a message naming the path and the reason; status kept.
SELINST_OUTPUT=/nonexistent/dir/p.prof ./prog plain 7 2> err.txt; rc=$?
expect_eq "exit status with an unwritable profile" 7 $rc
grep -q '/nonexistent/dir/p.prof: No such file or directory' err.txt || fail "error message: $(cat err.txt)"
mkdir ro && chmod 555 ro
if [ "$(id -u)" != 0 ]; then
	SELINST_OUTPUT=ro/p.prof ./prog plain 0 2> err.txt; rc=$?
	expect_eq "exit status (read-only dir)" 0 $rc
	grep -q 'ro/p.prof: Permission denied' err.txt || fail "error message: $(cat err.txt)"
fi
[ -z "$(ls ro)" ] || fail "temporary file left behind: $(ls ro)"
touch plainfile
SELINST_OUTPUT=plainfile/p.prof ./prog plain 0 2> err.txt; rc=$?
expect_eq "exit status (path under a file)" 0 $rc
grep -q 'selinst: cannot write profile plainfile/p.prof: Not a directory (SELINST_OUTPUT=PATH sets where)' err.txt || fail "error message: $(cat err.txt)"

# A FIFO (like /dev/stdout) is written into, not renamed over.
mkfifo fifo
cat fifo > got.prof &
SELINST_OUTPUT=fifo ./prog || fail "run (fifo)"
wait
[ -p fifo ] || fail "the FIFO was replaced"
pcheck got.prof 'assert calls("f") == 1'
exit 0
