#!/bin/bash
# SPDX-License-Identifier: MIT
# libselinst-mpi on 4 Open MPI ranks, the last one slow (programs/
# mpi_imbalance.c): the others' wait shows in MPI_Barrier under sync_step
# and in MPI_Allreduce under reduce_step, the slow rank being the one with
# the least time there; MPI calls are counted exactly, MPI_Send/MPI_Recv's
# bytes too; MPI_Initialized before MPI_Init and MPI_Finalized after
# MPI_Finalize are recorded; the same program linked without the layer
# runs as before, with no MPI regions.  The Fortran twins (mpif.h and
# use mpi_f08, linked with libselinst-mpif) give the same figures.  MPI_THREAD_MULTIPLE
# (programs/mpi_threads.c, one process): each thread's calls and bytes in
# its own profile, exactly.  The vector, *w and neighborhood collectives'
# bytes (programs/mpi_vcoll.c: a Cartesian and a distributed graph
# communicator) exactly, rank by rank.  With MPICH installed beside Open
# MPI (mpicc.mpich), the C layer built against it gives the same bytes
# and figures.
. "$(dirname "$0")/lib.sh"
need mpicc
need mpirun
[ -f "$PLUGIN" ] || skip "plugin not built"
[ -f "$SELINST_BUILD/libselinst-mpi.so" ] || skip "libselinst-mpi not built"
P=$T/programs/mpi_imbalance.c
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
# Waiting ranks yield the CPU: with 4 ranks on fewer cores their polling
# would slow the slow rank down and make it wait too.
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1 \
	OMPI_MCA_mpi_yield_when_idle=1
# run4 PROGRAM PREFIX OUTPUT: 4 ranks, profiles PREFIX.RANK.prof
run4() {
	SELINST_OUTPUT="$WORK/$2.%r.prof" timeout 300 mpirun "${root[@]}" -np 4 --oversubscribe \
		"./$1" > "$2.txt" 2>&1 || { cat "$2.txt"; fail "mpirun $1 failed"; }
	expect_eq "$1 output" "$3" "$(cat "$2.txt")"
}

# Vector collectives: rank r's bytes (ints of 4 bytes; gc = [1, 2, 3, 4]).
OMPI_CC=gcc mpicc -O2 $SI_CFLAGS "$T/programs/mpi_vcoll.c" -o vcoll \
	-L"$SELINST_BUILD" -lselinst-mpi $SI_LIBS || fail "mpicc vcoll"
run4 vcoll vc "ok 4"
# check_vcoll PROFILE...: each rank's bytes
check_vcoll() {
python3 - "$@" <<'PY' || fail "vector collectives' bytes ($1)"
import sys, yaml
want = {  # MPI function: (sent, received) of rank r
    "MPI_Alltoallv": lambda r: (40, 16 * (r + 1)),
    "MPI_Gatherv": lambda r: (4 * (r + 1), 40 if r == 0 else 0),
    "MPI_Scatterv": lambda r: (40 if r == 0 else 0, 4 * (r + 1)),
    "MPI_Allgatherv": lambda r: (16 * (r + 1), 40),
    "MPI_Reduce_scatter": lambda r: (40, 4 * (r + 1)),
    # to rank j j+1 elements, 4 bytes for even j, 8 for odd
    "MPI_Alltoallw": lambda r: (64, 4 * (r + 1) * (8 if r % 2 else 4)),
    # a line of 4: the edge ranks have one neighbour
    "MPI_Neighbor_allgather": lambda r: ((12, 12) if r in (0, 3) else (24, 24)),
    "MPI_Neighbor_alltoallv": lambda r: ((8, 4), (12, 12), (12, 12), (4, 8))[r],
    # rank r sends to the 3-r ranks above it, receives from the r below
    "MPI_Neighbor_alltoall": lambda r: (8 * (3 - r), 8 * r),
    "MPI_Ineighbor_allgather": lambda r: (8 * (3 - r), 8 * r),
    "MPI_Neighbor_alltoallw": lambda r: ((60, 0), (44, 16), (32, 24), (0, 96))[r],
}
for f in sys.argv[1:]:
    p = yaml.safe_load(open(f))
    r = int(p["rank"])
    for name, exp in want.items():
        ids = {g["id"] for g in p["regions"] if g["name"] == name}
        ns = [n for t in p["threads"] for n in t["nodes"] if n["region"] in ids]
        got = (sum(n.get("bytes_sent", 0) for n in ns), sum(n.get("bytes_received", 0) for n in ns))
        assert got == exp(r), (f, name, got, exp(r))
PY
}
check_vcoll vc.*.prof

# threshold=0: sync_step, reduce_step and ring_step are regions.
OMPI_CC=gcc mpicc -O2 $SI_CFLAGS -fplugin-arg-selinst-threshold=0 "$P" -o layer \
	-L"$SELINST_BUILD" -lselinst-mpi $SI_LIBS || fail "mpicc with the layer failed"
run4 layer app "size 4 sum 50 finalized 1"
"$REPORT" --mpi app.*.prof | tee mpi.txt || fail "--mpi exit $?"
"$REPORT" --format=json app.*.prof > all.json || fail "json exit $?"
# check_mpi JSON MAIN [c]: the figures, MAIN the main program's region;
# c: the C program's MPI_Initialized and MPI_Finalized too.
check_mpi() {
python3 - "$@" <<'PY' || fail "mpi figures in $1"
import json, sys
d = json.load(open(sys.argv[1]))["mpi"]
main = sys.argv[2]
sites = {(s["caller"], s["name"]): s for s in d["call_paths"]}
def per(site, key):
    return [r[key] for r in sorted(site["per_rank"], key=lambda r: r["rank"])]
want = {("sync_step", "MPI_Barrier"): (5, 0, 0), ("reduce_step", "MPI_Allreduce"): (5, 8, 8),
        ("ring_step", "MPI_Send"): (5, 8000, 0), ("ring_step", "MPI_Recv"): (5, 0, 8000),
        (main, "MPI_Init"): (1, 0, 0), (main, "MPI_Finalize"): (1, 0, 0)}
if sys.argv[3:] == ["c"]:
    want[(main, "MPI_Initialized")] = want[(main, "MPI_Finalized")] = (1, 0, 0)
for key, (calls, sent, recv) in want.items():
    assert key in sites, (key, sorted(sites))
    s = sites[key]
    assert per(s, "calls") == [calls] * 4, (key, per(s, "calls"))
    assert per(s, "bytes_sent") == [sent * calls] * 4, (key, per(s, "bytes_sent"))
    assert per(s, "bytes_received") == [recv * calls] * 4, (key, per(s, "bytes_received"))
# Only these MPI calls were made: each rank's call count is their sum.
n = sum(c for c, _, _ in want.values()) + 2    # MPI_Comm_rank, MPI_Comm_size
assert [r["calls"] for r in d["ranks"]] == [n] * 4, d["ranks"]
assert sites[("sync_step", "MPI_Barrier")]["path"][-2:] == ["sync_step", "MPI_Barrier"]
# The slow rank 3 is the one the others wait for: it has the least time
# in the barrier and the allreduce, each other rank more than 1.25 times
# its (it waits too when the others are not scheduled: 4 ranks, 2 cores;
# 2 times and more on a quiet machine).
for key in (("sync_step", "MPI_Barrier"), ("reduce_step", "MPI_Allreduce")):
    s = sites[key]
    t = per(s, "seconds")
    assert s["min_rank"] == 3, (key, t)
    assert min(t[:3]) > 1.25 * t[3], (key, t)
    assert s["imbalance"] > 1.1, (key, s["imbalance"])   # 4/3 at most here
assert d["slowest_rank"] == 3, d["ranks"]
work = [r for r in d["regions"] if r["name"] == "work"][0]
assert work["slowest_rank"] == 3 and work["imbalance"] > 1.5, work
PY
}
check_mpi all.json main c
grep -q "sync_step > MPI_Barrier" mpi.txt || fail "--mpi lacks the barrier's call path"
grep -q "^slowest rank: 3 " mpi.txt || fail "--mpi: slowest rank is not 3"
for r in 0 1 2 3; do
	expect_eq "rank in app.$r.prof" "$r" "$(yget app.$r.prof 'd["rank"]')"
	# times nest; MPI calls are leaves; bytes only on them
	python3 "$T/rt/check.py" app.$r.prof 'consistent()
for t in p["threads"]:
    kids = {n["parent"] for n in t["nodes"]}
    assert not [n for n in t["nodes"] if regions[n["region"]]["kind"] == "mpi" and n["id"] in kids]' \
		|| fail "app.$r.prof inconsistent"
done

# Without the layer: same results, no mpi regions, --mpi says so.
OMPI_CC=gcc mpicc -O2 $SI_CFLAGS -fplugin-arg-selinst-threshold=0 "$P" -o plain $SI_LIBS \
	|| fail "mpicc without the layer failed"
readelf -d plain | grep -q 'NEEDED.*libselinst-mpi' && fail "plain links the layer"
run4 plain base "size 4 sum 50 finalized 1"
"$REPORT" --format=json base.*.prof > base.json || fail "json exit $?"
expect_eq "mpi regions without the layer" "[]" \
	"$(jget base.json '[r["name"] for r in d["regions"] if r["kind"] == "mpi"]')"
expect_eq "no mpi object" False "$(jget base.json '"mpi" in d')"
"$REPORT" --mpi base.*.prof | grep -q "no MPI calls recorded" || fail "--mpi without MPI regions"

# MPI_THREAD_MULTIPLE: two threads in MPI_Sendrecv at once, one process.
OMPI_CC=gcc mpicc -O2 -pthread $SI_CFLAGS -fplugin-arg-selinst-threshold=0 "$T/programs/mpi_threads.c" \
	-o threads -L"$SELINST_BUILD" -lselinst-mpi $SI_LIBS || fail "mpicc mpi_threads.c failed"
SELINST_OUTPUT=$WORK/threads.prof timeout 120 ./threads > threads.txt 2>&1 || { cat threads.txt; fail "threads failed"; }
if [ "$(cat threads.txt)" = multiple ]; then
	python3 - threads.prof <<'PY' || fail "MPI_THREAD_MULTIPLE figures"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
names = {r["id"]: r["name"] for r in d["regions"]}
got = []
for t in d["threads"]:
    for n in t["nodes"]:
        if names[n["region"]] == "MPI_Sendrecv":
            got.append((n["calls"], n.get("bytes_sent", 0), n.get("bytes_received", 0)))
assert sorted(got) == [(100, 3200, 3200)] * 2, got
PY
else
	expect_eq "threads output" fewer "$(cat threads.txt)"
fi

# Fortran (mpif.h): Open MPI's bindings call PMPI_* past the C wrappers;
# libselinst-mpif wraps mpi_send_ and the like.
if command -v mpif90 >/dev/null && [ -f "$SELINST_BUILD/libselinst-mpif.so" ]; then
	OMPI_FC=gfortran mpif90 -O2 $SI_CFLAGS -fplugin-arg-selinst-threshold=0 "${P%.c}.f90" -o flayer \
		-L"$SELINST_BUILD" -lselinst-mpif $SI_LIBS || fail "mpif90 with the layer failed"
	run4 flayer fapp "size 4 sum 50"
	"$REPORT" --format=json fapp.*.prof > fall.json || fail "json exit $?"
	check_mpi fall.json mpi_imbalance
	# use mpi_f08: its bindings call the C library's ompi_*_f past both
	# the C and the mpif.h wrappers; libselinst-mpif wraps mpi_send_f08_.
	# The twin made from the mpif.h one: handles of derived types, a
	# type(MPI_Status), and MPI_Barrier's optional ierror left out.
	sed -e "/^module steps/a\\  use mpi_f08" -e "/include 'mpif.h'/d" \
		-e 's/, st(MPI_STATUS_SIZE)/\n    type(MPI_Status) :: st/' \
		-e 's/MPI_Barrier(MPI_COMM_WORLD, ierr)/MPI_Barrier(MPI_COMM_WORLD)/' \
		"${P%.c}.f90" > mpi_imbalance_f08.f90
	OMPI_FC=gfortran mpif90 -O2 $SI_CFLAGS -fplugin-arg-selinst-threshold=0 \
		mpi_imbalance_f08.f90 -o f08layer -L"$SELINST_BUILD" -lselinst-mpif $SI_LIBS \
		|| fail "mpif90 (mpi_f08) with the layer failed"
	run4 f08layer f08app "size 4 sum 50"
	"$REPORT" --format=json f08app.*.prof > f08all.json || fail "json exit $?"
	check_mpi f08all.json mpi_imbalance
fi
# MPICH (beside Open MPI: mpicc.mpich): the same generated wrappers and
# layer.c built against its mpi.h (its handle conversions are macros, not
# wrapped), the vector/w/neighborhood bytes and the imbalance figures.
if command -v mpicc.mpich >/dev/null && command -v mpirun.mpich >/dev/null; then
	export MPICH_CC=gcc
	python3 "$T/../mpi/gen-wrappers.py" "$T/../mpi/functions.list" > mpich-wrappers.c
	mpicc.mpich -O2 -Wall -Wextra -Werror -std=gnu11 -fPIC -fvisibility=hidden \
		-I"$T/../include" -I"$T/../mpi" -shared -o libselinst-mpi.so mpich-wrappers.c \
		"$T/../mpi/layer.c" -L"$SELINST_BUILD" -lselinst || fail "layer against MPICH"
	# run4m PROGRAM PREFIX OUTPUT: run4 with MPICH's mpirun
	run4m() {
		LD_LIBRARY_PATH=$WORK:$SELINST_BUILD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
			SELINST_OUTPUT="$WORK/$2.%r.prof" timeout 300 mpirun.mpich -np 4 "./$1" \
			> "$2.txt" 2>&1 || { cat "$2.txt"; fail "mpirun.mpich $1 failed"; }
		expect_eq "$1 output (MPICH)" "$3" "$(cat "$2.txt")"
	}
	mpicc.mpich -O2 $SI_CFLAGS "$T/programs/mpi_vcoll.c" -o mvcoll -L. -lselinst-mpi $SI_LIBS \
		|| fail "mpicc.mpich vcoll"
	run4m mvcoll mvc "ok 4"
	check_vcoll mvc.*.prof
	mpicc.mpich -O2 $SI_CFLAGS -fplugin-arg-selinst-threshold=0 "$P" -o mlayer -L. -lselinst-mpi \
		$SI_LIBS || fail "mpicc.mpich with the layer failed"
	run4m mlayer mapp "size 4 sum 50 finalized 1"
	"$REPORT" --format=json mapp.*.prof > mall.json || fail "json exit $?"
	check_mpi mall.json main c
fi
echo ok
