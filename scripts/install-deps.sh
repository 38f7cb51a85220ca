#!/bin/bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages selinst needs to build and test, and only
# those that are missing.  Runs apt-get as root, or through sudo.  Then
# fetches the speedscope viewer (npm registry tarball, pinned by hash) into
# build/npm for t-report-speedscope; without it that test is skipped.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
packages=(
	make gcc g++ gfortran		# compilers the plugin and tests use
	gcc-12-plugin-dev		# GCC's plugin headers
	gcc-11 g++-11 gfortran-11 gcc-11-plugin-dev	# the other GCC: make PLUGIN_GCC=gcc-11 (CI)
	cmake autoconf pkg-config	# t-install builds CMake, autoconf and pkg-config projects
	libgmp-dev libyaml-dev		# exact scores; profile/decision files
	zlib1g-dev			# packed iteration rows (report; the runtime dlopens libz.so.1)
	libdw-dev			# SELINST_SAMPLE: selinst-report names sampled functions and loops (elfutils)
	libotf2-trace-dev otf2-tools	# SELINST_MODE=trace: OTF2 archives (writer, report), otf2-print in tests
	python3 python3-yaml		# test assertions on YAML and JSON
	libgtest-dev libbenchmark-dev unicode-data python3-six	# bench/more-projects-cxx.sh: snappy's and
					# leveldb's tests (GoogleTest), re2's Unicode tables
	graphviz valgrind chromium	# report exports checked by dot, callgrind_annotate, Chromium (~120 MB, ~10 s)
	libopenmpi-dev openmpi-bin	# the MPI layer (mpicc, mpif90) and its tests (mpirun)
	libmpich-dev mpich		# t-mpi-layer: the layer built against MPICH too (mpicc.mpich;
					# alternatives priority 40 < Open MPI's 50: mpicc stays Open MPI)
	clang-14			# make fuzz-report (libFuzzer)
	nodejs				# t-report-speedscope runs speedscope's importer
	libclang-rt-14-dev llvm-14	# make bench: XRay runtime, llvm-xray (columns skipped without)
	ninja-build tcl			# bench/real-projects.sh: yaml-cpp's Ninja build, SQLite's amalgamation (tclsh)
	libtool bison flex libonig-dev libgtest-dev libgmock-dev	# bench/more-projects.sh: jq, pcre2, expat (libtool), fmtlib's tests
	ca-certificates
)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "installing: ${missing[*]}"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -q
	$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# speedscope 1.25.0: the app bundle only (its one dependency serves its
# command-line launcher, which the test does not use).
ss=$root/build/npm/node_modules/speedscope
if [ ! -f "$ss/package.json" ]; then
	python3 - "$ss" <<'PY' || echo "speedscope not fetched: t-report-speedscope will be skipped"
import base64, hashlib, io, os, sys, tarfile, urllib.request
url = "https://registry.npmjs.org/speedscope/-/speedscope-1.25.0.tgz"
sha512 = "cpf9HWTZf1ijLXBJrk87Ve/54tnYx6rlf0gUThvn3ook6h63hLXVOQiMf44PT+XoV503cPfvfiT5gP5vojp6Ag=="
data = urllib.request.urlopen(url, timeout=60).read()
if base64.b64encode(hashlib.sha512(data).digest()).decode() != sha512:
    sys.exit("speedscope tarball: sha512 mismatch")
dest = sys.argv[1]
with tarfile.open(fileobj=io.BytesIO(data)) as t:
    for m in t.getmembers():
        name = m.name.split("/", 1)[1] if "/" in m.name else ""
        if not name or not m.isfile() or name.startswith("/") or ".." in name.split("/"):
            continue
        path = os.path.join(dest, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(t.extractfile(m).read())
print("fetched speedscope 1.25.0 into", dest)
PY
fi
