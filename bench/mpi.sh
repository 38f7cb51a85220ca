#!/bin/bash
# SPDX-License-Identifier: MIT
# Cost of libselinst-mpi (issue 16): bench/mpi-calls.c, small MPI calls
# in a loop, built three ways: plain mpicc -O2; the default selinst build
# (plugin, default threshold, -lselinst, no layer); the same with the
# layer (-lselinst-mpi).  Time: ns per MPI call on NP ranks (default 2,
# Open MPI on this host), median of ROUNDS (default 5) runs of ITERS
# (default 20000) rounds.  Instructions: callgrind's count inside the
# timed loop per MPI call, one rank alone (MPI singleton: the layer's
# work, not the network's), ITERS_VG (default 2000) rounds.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=$root/build
command -v mpicc >/dev/null && command -v mpirun >/dev/null || { echo "mpi: no mpicc/mpirun, skipped"; exit 0; }
[ -f "$B/libselinst-mpi.so" ] || { echo "mpi: build/libselinst-mpi.so not built, skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
src=$root/bench/mpi-calls.c
plug="-fplugin=$B/selinst.so -I$root/include"
rt="-L$B -lselinst -Wl,-rpath,$B"
export OMPI_CC=gcc OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
mpicc -O2 "$src" -o plain
mpicc -O2 $plug "$src" -o default $rt
mpicc -O2 $plug "$src" -o layer -L"$B" -lselinst-mpi $rt
root_opt=()
[ "$(id -u)" -eq 0 ] && root_opt=(--allow-run-as-root)
np=${NP:-2}
run_ns() {	# run_ns PROGRAM: ns per call, one run
	SELINST_OUTPUT=$tmp/p.%r.prof mpirun "${root_opt[@]}" -np "$np" --oversubscribe \
		"./$1" "${ITERS:-20000}" | sed -n 's/ ns\/call.*//p'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
instr() {	# instr PROGRAM: callgrind instructions inside run_loop per call
	local n=${ITERS_VG:-2000}
	SELINST_OUTPUT=$tmp/vg.prof valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" \
		--collect-atstart=no --toggle-collect=run_loop "./$1" "$n" >/dev/null 2>"$tmp/vg.$1.log"
	# the timed loop and the warm-up: n + n/10 + 1 rounds of 3 calls
	awk -v calls=$(( (n + n / 10 + 1) * 3 )) '/^summary:/ { printf "%.0f", $2 / calls }' "$tmp/cg.$1"
}
echo "== MPI layer cost (bench/mpi.sh): $np ranks, ns and instructions per MPI call =="
variants="plain default layer"
# Rounds interleave the variants, so that a change in the machine's load
# falls on all three.
for _ in $(seq "${ROUNDS:-5}"); do
	for v in $variants; do run_ns "$v" >>"$tmp/ns.$v"; done
done
printf "%-10s %10s %8s %12s %8s\n" variant "ns/call" "x plain" "instr/call" "x plain"
t_plain=$(median <"$tmp/ns.plain")
i_plain=$(instr plain)
for v in $variants; do
	t=$(median <"$tmp/ns.$v")
	i=$i_plain
	[ "$v" = plain ] || i=$(instr "$v")
	printf "%-10s %10s %8s %12s %8s\n" "$v" "$t" "$(awk -v a="$t" -v b="$t_plain" 'BEGIN { printf "%.2f", a / b }')" \
		"$i" "$(awk -v a="$i" -v b="$i_plain" 'BEGIN { printf "%.2f", a / b }')"
done
echo "(plain: mpicc -O2; default: the plugin at its default threshold and -lselinst;"
echo " layer: default and -lselinst-mpi, every MPI call a region with bytes)"
