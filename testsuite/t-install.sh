#!/bin/bash
# SPDX-License-Identifier: MIT
# One word with any build system: `make install` into a scratch prefix,
# then a CMake project, an autoconf project and a plain Makefile building a
# shared library and a program, each set up only with CC=selinst-gcc; the
# programs run from the build tree write profiles holding both the
# program's and the library's regions.  Also: pkg-config, the spec file,
# g++/gfortran wrappers, plugin arguments on the command line and in
# SELINST_PLUGIN_ARGS, compile-only and preprocess-only calls.
. "$(dirname "$0")/lib.sh"
P=$WORK/inst
make -s -C "$SELINST_ROOT" install PREFIX="$P" GEN="$WORK/gen" \
	PLUGIN_GCC="${SELINST_GCC:-gcc}" >install.log 2>&1 || fail "make install: $(tail -5 install.log)"
export PATH=$P/bin:$PATH
for f in bin/selinst-gcc bin/selinst-g++ bin/selinst-gfortran bin/selinst-mpicc bin/selinst-report \
	lib/libselinst.so lib/libselinst-otf2.so lib/pkgconfig/selinst.pc lib/selinst/selinst.so lib/selinst/selinst.specs \
	include/selinst.h include/selinst-profile.h share/man/man1/selinst-gcc.1 share/man/man7/selinst.7 \
	lib/selinst/selinst-mpi.specs bin/selinst-mpif90; do
	[ -e "$P/$f" ] || fail "not installed: $f"
done

# The sources: a library with a loop-heavy function (its loop's branches
# weigh it over 64: refinements small-body and unseen-small take a smaller
# exported function with no caller in view for an accessor), a program
# calling it.
mkdir src
cat >src/lib.c <<'EOF'
double lib_work(int n)
{
	double s = 0;
	for (int i = 0; i < n; i++) {
		switch (i % 5) {
		case 0: s += i * 0.5; break;
		case 1: s += i / 2.0; break;
		case 2: s += i * 0.25 + i * 0.25; break;
		case 3: s += (i - 1) * 0.5 + 0.5; break;
		case 4: s += i > 500 ? i * 0.5 : i * 0.25 + i * 0.25; break;
		default: s += i * 0.5; break;
		}
	}
	return s;
}
EOF
cat >src/main.c <<'EOF'
#include <stdio.h>
double lib_work(int n);
int main(void) { printf("%.1f\n", lib_work(1000)); return 0; }
EOF
# has_regions PROFILE NAME...: the profile exists and names each region.
has_regions() {
	local prof=$1; shift
	[ -f "$prof" ] || fail "no profile $prof in $(pwd): $(ls)"
	for r in "$@"; do grep -q "name: \"$r\"" "$prof" || fail "$prof lacks region $r"; done
}
needed_runtime() { readelf -d "$1" | grep -q 'NEEDED.*libselinst' || fail "$1 does not need libselinst.so"; }

# CMake: the compiler check, a shared library, a program.
if command -v cmake >/dev/null; then
	cat >src/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(demo C)
add_library(work SHARED lib.c)
add_executable(app main.c)
target_link_libraries(app work)
EOF
	mkdir cm && cd cm
	CC=selinst-gcc cmake ../src >cmake.log 2>&1 || fail "cmake: $(tail -20 cmake.log)"
	make >build.log 2>&1 || fail "cmake build: $(tail -20 build.log)"
	./app >out.txt || fail "cmake app"
	has_regions app.prof main lib_work
	needed_runtime libwork.so
	cd ..
else
	echo "cmake not installed: CMake part skipped"
fi

# Autoconf: configure's compiler and link checks, then make.
if command -v autoconf >/dev/null; then
	mkdir ac && cp src/*.c ac/ && cd ac
	cat >configure.ac <<'EOF'
AC_INIT([demo], [1])
AC_PROG_CC
AC_CHECK_LIB([m], [cos])
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
EOF
	cat >Makefile.in <<'EOF'
CC = @CC@
CFLAGS = @CFLAGS@
LDFLAGS = @LDFLAGS@
LIBS = @LIBS@
app: main.o libwork.so
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ main.o -L. -Wl,-rpath,'$$ORIGIN' -lwork $(LIBS)
libwork.so: lib.c
	$(CC) $(CFLAGS) -fPIC -shared -o $@ lib.c
EOF
	autoconf >autoconf.log 2>&1 || fail "autoconf: $(cat autoconf.log)"
	./configure CC=selinst-gcc >configure.log 2>&1 || fail "configure: $(tail -20 config.log)"
	make >build.log 2>&1 || fail "autoconf build: $(tail -20 build.log)"
	./app >out.txt || fail "autoconf app"
	has_regions app.prof main lib_work
	needed_runtime libwork.so
	cd ..
else
	echo "autoconf not installed: configure part skipped"
fi

# A plain Makefile with the flags a build system puts first (LDFLAGS
# before the objects, --as-needed), and `make CC=selinst-gcc`.
mkdir mk && cp src/*.c mk/ && cd mk
cat >Makefile <<'EOF'
LDFLAGS = -Wl,--as-needed
app: main.c libwork.so
	$(CC) -O2 $(LDFLAGS) -o $@ main.c -L. -Wl,-rpath,'$$ORIGIN' -lwork
libwork.so: lib.c
	$(CC) -O2 -fPIC -shared $(LDFLAGS) -o $@ lib.c
EOF
make CC=selinst-gcc >build.log 2>&1 || fail "make CC=selinst-gcc: $(tail -20 build.log)"
nm -D --undefined-only libwork.so | grep -q __selinst_enter || fail "library not instrumented"
needed_runtime libwork.so
./app >out.txt || fail "make app"
has_regions app.prof main lib_work
cd ..

# Plugin arguments: the environment and the command line; compile only and
# preprocess only add no runtime.
SELINST_PLUGIN_ARGS="threshold=0 decisions=env.yaml" selinst-gcc -c src/lib.c -o lib.o || fail "compile with env args"
grep -q 'threshold: 0' env.yaml || fail "SELINST_PLUGIN_ARGS not passed: $(head -3 env.yaml)"
selinst-gcc -fplugin-arg-selinst-threshold=999999999999 -fplugin-arg-selinst-decisions=cl.yaml -c src/lib.c -o lib2.o \
	|| fail "compile with command-line args"
grep -q 'instrument: false' cl.yaml || fail "command-line threshold not passed"
selinst-gcc -E src/main.c >pre.c || fail "preprocess only"
grep -q 'int main' pre.c || fail "preprocessed output"
# Preprocess only with plugin arguments (configure's "$CC -E" under
# SELINST_PLUGIN_ARGS, gnulib's "$CC $CFLAGS -E"): cc1 got them without the
# plugin and refused ("plugin selinst should be specified before"); no
# decision file comes of it.  The same through -save-temps' two steps.
SELINST_PLUGIN_ARGS="threshold=0 decisions=pre.yaml" selinst-gcc -E src/main.c >pre2.c 2>err.txt \
	|| fail "-E with SELINST_PLUGIN_ARGS: $(cat err.txt)"
cmp -s pre.c pre2.c || fail "-E output changed by plugin arguments"
selinst-gcc -fplugin-arg-selinst-threshold=0 -M src/main.c >dep.txt 2>err.txt || fail "-M with plugin arguments: $(cat err.txt)"
grep -q 'main.o:' dep.txt || fail "-M output: $(cat dep.txt)"
printf '#define N 3\nprogram p\nprint *, N\nend\n' >pre.F90
SELINST_PLUGIN_ARGS="threshold=0" selinst-gfortran -E pre.F90 >pref.txt 2>err.txt || fail "gfortran -E with plugin arguments: $(cat err.txt)"
grep -q 'print \*, 3' pref.txt || fail "gfortran -E output: $(cat pref.txt)"
[ -e pre.yaml ] && fail "a decision file from preprocessing only"
selinst-gcc -fplugin-arg-selinst-threshold=0 -fplugin-arg-selinst-decisions=st.yaml -save-temps -c src/lib.c -o st.o \
	2>err.txt || fail "-save-temps with plugin arguments: $(cat err.txt)"
grep -q 'threshold: 0' st.yaml || fail "-save-temps: decisions not written"
nm st.o | grep -q "U __selinst_enter" || fail "-save-temps: no hooks"
selinst-gcc -fplugin-arg-selinst-bogus=1 -c src/lib.c -o x.o 2>err.txt && fail "bad plugin argument accepted"
grep -q bogus err.txt || fail "bad plugin argument: $(cat err.txt)"

# pkg-config, and the spec file with the plain driver.
pc=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs selinst) || fail "pkg-config"
mkdir pc && cd pc
gcc -O2 -Wl,--as-needed ../src/main.c ../src/lib.c $pc -o app || fail "pkg-config build: $pc"
./app >/dev/null && has_regions app.prof main lib_work
cd .. && mkdir sp && cd sp
gcc -specs="$P/lib/selinst/selinst.specs" -O2 ../src/main.c ../src/lib.c -o app || fail "specs build"
./app >/dev/null && has_regions app.prof main lib_work
cd ..

# C++ and Fortran wrappers, and selinst.h found without -I.
mkdir lang && cd lang
cat >a.cc <<'EOF'
#include <selinst.h>
#include <cstdio>
int main() { selinst_region_begin("phase"); std::puts("hi"); selinst_region_end("phase"); return 0; }
EOF
selinst-g++ -O2 a.cc -o cxx || fail "selinst-g++"
./cxx >/dev/null && has_regions cxx.prof "int main()" phase
if command -v "$(sed -n 's/.*SELINST_COMPILER:-\([^}]*\)}.*/\1/p' "$P/bin/selinst-gfortran")" >/dev/null; then
	printf 'program f\n  call s(3)\ncontains\n  subroutine s(n)\n    integer :: n\n    print *, n\n  end subroutine\nend program\n' >f.f90
	selinst-gfortran -O2 f.f90 -o fort || fail "selinst-gfortran"
	./fort >/dev/null && [ -f fort.prof ] || fail "no Fortran profile"
fi
# selinst-mpicc links the MPI layer (before -lmpi) when it was built;
# SELINST_MPI_LAYER=no leaves it out.
if [ -f "$P/lib/libselinst-mpi.so" ] && command -v mpicc >/dev/null; then
	printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' >m.c
	selinst-mpicc -O2 m.c -o mpi || fail "selinst-mpicc"
	readelf -d mpi | grep NEEDED | head -1 | grep -q libselinst-mpi || fail "layer not first: $(readelf -d mpi | grep NEEDED)"
	SELINST_MPI_LAYER=no selinst-mpicc -O2 m.c -o mpi0 || fail "selinst-mpicc without the layer"
	readelf -d mpi0 | grep -q 'NEEDED.*libselinst-mpi' && fail "SELINST_MPI_LAYER=no linked the layer"
	./mpi >/dev/null && has_regions mpi.prof main MPI_Init MPI_Finalize
fi
if [ -f "$P/lib/libselinst-mpif.so" ] && command -v mpif90 >/dev/null; then
	printf 'program m\n  include "mpif.h"\n  integer :: ierr\n  call MPI_Init(ierr)\n  call MPI_Finalize(ierr)\nend program\n' >m.f90
	selinst-mpif90 -O2 m.f90 -o mpif || fail "selinst-mpif90"
	readelf -d mpif | grep NEEDED | head -1 | grep -q libselinst-mpif || fail "Fortran layer not first: $(readelf -d mpif | grep NEEDED)"
	./mpif >/dev/null && has_regions mpif.prof MPI_Init MPI_Finalize
fi
exit 0
