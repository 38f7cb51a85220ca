#!/bin/bash
# SPDX-License-Identifier: MIT
# Cost of libselinst-mpi (issue 16): bench/mpi-calls.c, small MPI calls
# in a loop, built three ways: plain mpicc -O2; the default selinst build
# (plugin, default threshold, -lselinst, no layer); the same with the
# layer (-lselinst-mpi).  Time: ns per MPI call on 1 rank (the layer's
# cost against the library's alone) and on 2 (Open MPI on this host,
# shared memory), median of ROUNDS (default 5) runs of ITERS (default
# 20000) rounds; NPS="1 2" chooses.  Instructions: callgrind's count inside the
# timed loop per MPI call, one rank alone (MPI singleton: the layer's
# work, not the network's), ITERS_VG (default 2000) rounds.
# Last, instructions per MPI_Neighbor_alltoall (bench/mpi-neighbor.c).
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
run_ns() {	# run_ns PROGRAM: ns per call, one run on $np ranks
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
variants="plain default layer"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "== MPI layer cost (bench/mpi.sh): instructions and ns per MPI call =="
for v in $variants; do instr "$v" >"$tmp/instr.$v"; done
header="variant instr/call x_plain"
for np in ${NPS:-1 2}; do
	header="$header ns/call@${np} x_plain"
	# Rounds interleave the variants, so that a change in the machine's
	# load falls on all three.
	for _ in $(seq "${ROUNDS:-5}"); do
		for v in $variants; do run_ns "$v" >>"$tmp/ns$np.$v"; done
	done
done
echo "$header" | awk '{ printf "%-10s", $1; for (i = 2; i <= NF; i++) printf " %11s", $i; print "" }'
for v in $variants; do
	row="$v $(cat "$tmp/instr.$v") $(ratio "$(cat "$tmp/instr.$v")" "$(cat "$tmp/instr.plain")")"
	for np in ${NPS:-1 2}; do
		t=$(median <"$tmp/ns$np.$v")
		row="$row $t $(ratio "$t" "$(median <"$tmp/ns$np.plain")")"
	done
	echo "$row" | awk '{ printf "%-10s", $1; for (i = 2; i <= NF; i++) printf " %11s", $i; print "" }'
done
echo "(plain: mpicc -O2; default: the plugin at its default threshold and -lselinst;"
echo " layer: default and -lselinst-mpi, every MPI call a region with bytes)"
# The neighborhood collectives' byte count (the topology's neighbours,
# PMPI_Cart_shift per dimension): instructions per MPI_Neighbor_alltoall
# on a 2-D Cartesian communicator, one rank, plain and with the layer.
nb=$root/bench/mpi-neighbor.c
mpicc -O2 "$nb" -o nb.plain
mpicc -O2 "$nb" -o nb.layer -L"$B" -lselinst-mpi $rt
for v in plain layer; do
	n=${ITERS_VG:-2000}
	LD_LIBRARY_PATH=$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} SELINST_OUTPUT=$tmp/nb.prof \
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.nb.$v" --collect-atstart=no \
		--toggle-collect=run_loop "./nb.$v" "$n" >/dev/null 2>"$tmp/vg.nb.$v.log"
	awk -v v="$v" -v n="$n" '/^summary:/ { printf "MPI_Neighbor_alltoall (2-D cart) %-6s %6.0f instr/call\n", v, $2 / n }' \
		"$tmp/cg.nb.$v"
done
