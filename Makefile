# SPDX-License-Identifier: MIT
# selinst - top-level build.  `make`, `make check`, `make install PREFIX=DIR`,
# `make deb`, `make bench`.  Everything is built into build/ (build-gcc-11/
# and the like for `make PLUGIN_GCC=gcc-11`).
VERSION   := $(shell cat VERSION)
PREFIX    ?= /usr/local
CC        ?= gcc
# The plugin must be built by the C++ compiler matching the GCC it will be
# loaded into; GCC names the plugin headers' folder itself.
PLUGIN_GCC ?= gcc
PLUGIN_CXX ?= $(subst gcc,g++,$(PLUGIN_GCC))
PLUGIN_INC := $(shell $(PLUGIN_GCC) -print-file-name=plugin)/include
B         := build$(if $(filter-out gcc,$(PLUGIN_GCC)),-$(notdir $(PLUGIN_GCC)))

WARN      := -Wall -Wextra -Wshadow -Wformat=2 -Wundef
CFLAGS    ?= -O2 -g
CXXFLAGS  ?= -O2 -g
PLUGIN_CXXFLAGS := $(CXXFLAGS) $(WARN) -std=gnu++14 -fPIC -fno-rtti -fno-exceptions \
	-Wno-unused-parameter -isystem $(PLUGIN_INC)
RT_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -fPIC -Iinclude -pthread \
	-fvisibility=hidden -fno-omit-frame-pointer
REPORT_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -Iinclude

# The public headers (hook ABI, profile format) are read by all three.
PUBLIC_HDR := $(wildcard include/*.h)
PLUGIN_SRC := $(wildcard plugin/*.cc)
PLUGIN_HDR := $(wildcard plugin/*.h) $(PUBLIC_HDR)
RT_SRC     := $(wildcard runtime/*.c)
RT_HDR     := $(wildcard runtime/*.h) $(PUBLIC_HDR)
REPORT_SRC := $(wildcard report/*.c)
REPORT_HDR := $(wildcard report/*.h) $(PUBLIC_HDR)

# libselinst-mpi, the PMPI layer, when an MPI compiler is there (MPICC=
# leaves it out): its wrappers are generated from mpi/functions.list.
# libselinst-mpif, the Fortran bindings' layer, when MPIFC is there too.
MPICC     ?= mpicc
MPIFC     ?= mpif90
HAVE_MPI  := $(if $(MPICC),$(shell command -v $(MPICC) 2>/dev/null))
HAVE_MPIF := $(if $(HAVE_MPI),$(if $(MPIFC),$(shell command -v $(MPIFC) 2>/dev/null)))
MPI_LIBS  := $(if $(HAVE_MPI),$(B)/libselinst-mpi.so $(B)/libselinst-mpi.a) \
	$(if $(HAVE_MPIF),$(B)/libselinst-mpif.so $(B)/libselinst-mpif.a)

all: $(B)/selinst.so $(B)/libselinst.so $(B)/libselinst-otf2.so $(B)/libselinst.a \
	$(B)/selinst-report $(MPI_LIBS)

# One rule per folder: build/ may already exist (install-deps.sh puts
# build/npm there) without its subfolders.
$(B) $(B)/rt-pic $(B)/rt-static:
	mkdir -p $@

$(B)/selinst.so: $(PLUGIN_SRC) $(PLUGIN_HDR) VERSION | $(B)
	$(PLUGIN_CXX) $(PLUGIN_CXXFLAGS) -DSELINST_VERSION='"$(VERSION)"' -shared -o $@ $(PLUGIN_SRC) -lgmp -lyaml

$(B)/rt-pic/%.o: runtime/%.c $(RT_HDR) | $(B)/rt-pic
	$(CC) $(RT_CFLAGS) -c -o $@ $<
$(B)/rt-static/%.o: runtime/%.c $(RT_HDR) | $(B)/rt-static
	$(CC) $(RT_CFLAGS) -ftls-model=initial-exec -DSI_STATIC -c -o $@ $<

# No libyaml: the profile's text is written by runtime/emit.c, so the
# runtime never binds to a program's own (perhaps instrumented, perhaps
# other-version) libyaml.
# No libdw: SELINST_SAMPLE's samples are written as module and file
# address, and selinst-report names them (runtime/sample.c).  zlib is
# dlopen'ed at start-up where SELINST_ITERATE is set (runtime/output_pack.c);
# libm for its logarithms.
$(B)/libselinst.so: $(patsubst runtime/%.c,$(B)/rt-pic/%.o,$(RT_SRC))
	$(CC) -shared -pthread -o $@ $^ -ldl -lm
# The OTF2 trace writer: a library of its own, dlopen'ed by the runtime
# only when a trace is written (runtime/trace.c), so that libotf2 is never
# mapped into programs that do not trace.
$(B)/libselinst-otf2.so: runtime/otf2/writer.c runtime/trace.h $(PUBLIC_HDR) | $(B)
	$(CC) $(RT_CFLAGS) -shared -o $@ $< -lotf2
# exec.c, dlclose.c and omp.c interpose libc and libgomp functions: shared library only
# (runtime/exec.c, runtime/dlclose.c, runtime/omp.c).
RT_STATIC_SRC := $(filter-out runtime/exec.c runtime/dlclose.c runtime/omp.c,$(RT_SRC))
$(B)/libselinst.a: $(patsubst runtime/%.c,$(B)/rt-static/%.o,$(RT_STATIC_SRC))
	rm -f $@; ar rcs $@ $^

# The layer's wrappers call the runtime's hooks: the shared library needs
# libselinst.so (found by the program's run path), the static one leaves
# them to the program's -lselinst.  OMPI_CC/MPICH_CC: this GCC.
MPI_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -fPIC -Iinclude -Impi -fvisibility=hidden
MPI_ENV    := OMPI_CC=$(CC) MPICH_CC=$(CC) OMPI_FC=$(subst gcc,gfortran,$(PLUGIN_GCC)) \
	MPICH_FC=$(subst gcc,gfortran,$(PLUGIN_GCC))
$(B)/mpi:
	mkdir -p $@
$(B)/mpi/wrappers.c: mpi/functions.list mpi/gen-wrappers.py | $(B)/mpi
	python3 mpi/gen-wrappers.py mpi/functions.list > $@.tmp && mv $@.tmp $@
$(B)/mpi/fwrappers.c: mpi/functions.list mpi/gen-wrappers.py | $(B)/mpi
	python3 mpi/gen-wrappers.py --fortran mpi/functions.list > $@.tmp && mv $@.tmp $@
$(B)/mpi/%.o: $(B)/mpi/%.c mpi/layer.h $(PUBLIC_HDR)
	$(MPI_ENV) $(MPICC) $(MPI_CFLAGS) -c -o $@ $<
$(B)/mpi/%.o: mpi/%.c mpi/layer.h $(PUBLIC_HDR) | $(B)/mpi
	$(MPI_ENV) $(MPICC) $(MPI_CFLAGS) -c -o $@ $<
$(B)/libselinst-mpi.so: $(B)/mpi/wrappers.o $(B)/mpi/layer.o $(B)/libselinst.so
	$(MPI_ENV) $(MPICC) -shared -o $@ $(B)/mpi/wrappers.o $(B)/mpi/layer.o -L$(B) -lselinst
$(B)/libselinst-mpi.a: $(B)/mpi/wrappers.o $(B)/mpi/layer.o
	rm -f $@; ar rcs $@ $^
# Linked by the MPI Fortran compiler: it needs the MPI Fortran library.
$(B)/libselinst-mpif.so: $(B)/mpi/fwrappers.o $(B)/mpi/layer.o $(B)/libselinst.so
	$(MPI_ENV) $(MPIFC) -shared -o $@ $(B)/mpi/fwrappers.o $(B)/mpi/layer.o -L$(B) -lselinst
$(B)/libselinst-mpif.a: $(B)/mpi/fwrappers.o $(B)/mpi/layer.o
	rm -f $@; ar rcs $@ $^

# libdw and libelf: selinst-report names sampled functions and loops from
# the sampled modules' files (report/sample_loops.c, report/sample_names.c).
$(B)/selinst-report: $(REPORT_SRC) $(REPORT_HDR) VERSION | $(B)
	$(CC) $(REPORT_CFLAGS) -DSELINST_VERSION='"$(VERSION)"' -o $@ $(REPORT_SRC) -lyaml -lotf2 -ldw -lelf -lz -lm

# The example the README's first command runs.
demo: all
	bash examples/run-demo.sh

# The tests use the build of this PLUGIN_GCC, and `gcc`, `g++`, `gfortran`
# stand for that GCC's drivers (testsuite/run.sh).  TESTS="testsuite/t-x.sh
# ..." runs only those.  check-full adds the corpus's other variants.
TEST_ENV = SELINST_BUILD=$(abspath $(B)) SELINST_GCC=$(PLUGIN_GCC)
check: all
	$(TEST_ENV) bash testsuite/run.sh $(TESTS)
check-full: all
	$(TEST_ENV) SELINST_FULL=1 bash testsuite/run.sh $(TESTS)

bench: all
	bash bench/run.sh

# Instruction-count overhead table (valgrind, small sizes; bench/README.md).
bench-instructions: all
	bash bench/instructions.sh
.PHONY: bench-instructions

# Install.  With a system PREFIX (/usr, /usr/local) the plugin goes where
# GCC looks for plugins, so that -fplugin=selinst works; with any other
# PREFIX (an install without root) under PREFIX/lib/selinst; PLUGINDIR=DIR
# chooses.  The spec file and the wrappers name the installed paths
# (scripts/gen-install.sh); DESTDIR only prefixes where files are copied.
BINDIR    ?= $(PREFIX)/bin
LIBDIR    ?= $(PREFIX)/lib
INCDIR    ?= $(PREFIX)/include
MANDIR    ?= $(PREFIX)/share/man
GCC_PLUGINDIR = $(shell $(PLUGIN_GCC) -print-file-name=plugin)
PLUGINDIR ?= $(if $(filter /usr /usr/local,$(PREFIX)),$(GCC_PLUGINDIR),$(PREFIX)/lib/selinst)
# GCC finds -specs=selinst.specs by name in its own library folder.
SPECSDIR  ?= $(patsubst %/plugin,%,$(PLUGINDIR))
WRAPPERS  := selinst-gcc selinst-g++ selinst-gfortran selinst-mpicc selinst-mpif90
GEN_ENV    = VERSION=$(VERSION) BINDIR=$(BINDIR) LIBDIR=$(LIBDIR) INCDIR=$(INCDIR) \
	PLUGINDIR=$(PLUGINDIR) SPECSDIR=$(SPECSDIR) PREFIX=$(PREFIX) PLUGIN_GCC=$(PLUGIN_GCC) \
	MPI_LAYER=$(if $(HAVE_MPI),yes,no) MPIF_LAYER=$(if $(HAVE_MPIF),yes,no)

GEN       ?= $(B)/gen
install: all
	rm -rf $(GEN) && mkdir -p $(GEN)
	$(GEN_ENV) bash scripts/gen-install.sh $(GEN)
	install -d $(DESTDIR)$(PLUGINDIR) $(DESTDIR)$(SPECSDIR) $(DESTDIR)$(LIBDIR)/selinst \
		$(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCDIR) $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	install -m 644 $(B)/selinst.so $(DESTDIR)$(PLUGINDIR)/selinst.so
	install -m 644 $(B)/selinst.so $(DESTDIR)$(LIBDIR)/selinst/selinst.so
	install -m 644 $(GEN)/selinst.specs $(GEN)/selinst-mpi.specs $(GEN)/selinst-mpif.specs \
		$(DESTDIR)$(SPECSDIR)/
	install -m 644 $(B)/libselinst.so $(DESTDIR)$(LIBDIR)/libselinst.so
	install -m 644 $(B)/libselinst-otf2.so $(DESTDIR)$(LIBDIR)/libselinst-otf2.so
	install -m 644 $(B)/libselinst.a $(DESTDIR)$(LIBDIR)/libselinst.a
	for f in $(MPI_LIBS); do install -m 644 $$f $(DESTDIR)$(LIBDIR)/; done
	install -m 644 $(GEN)/selinst.pc $(DESTDIR)$(LIBDIR)/pkgconfig/selinst.pc
	install -m 644 include/selinst.h include/selinst-profile.h include/selinst.fi $(DESTDIR)$(INCDIR)/
	install -m 755 $(B)/selinst-report $(DESTDIR)$(BINDIR)/selinst-report
	for w in $(WRAPPERS); do install -m 755 $(GEN)/$$w $(DESTDIR)$(BINDIR)/$$w; done
	install -m 644 doc/man/selinst-report.1 doc/man/selinst-gcc.1 $(DESTDIR)$(MANDIR)/man1/
	for w in $(filter-out selinst-gcc,$(WRAPPERS)); do \
		echo '.so man1/selinst-gcc.1' > $(DESTDIR)$(MANDIR)/man1/$$w.1; done
	install -m 644 doc/man/selinst.7 $(DESTDIR)$(MANDIR)/man7/selinst.7

# A Debian package for the GCC the plugin is built for (scripts/make-deb.sh).
deb: all
	PLUGIN_GCC=$(PLUGIN_GCC) B=$(B) VERSION=$(VERSION) bash scripts/make-deb.sh

clean:
	rm -rf $(B)

# Fuzz selinst-report's reader with libFuzzer (clang-14); seeds in testsuite/fuzz/.
FUZZ_SECONDS ?= 600
fuzz-report: | $(B)
	clang-14 -g -O1 -std=gnu11 -Ireport -fsanitize=fuzzer,address,undefined \
		-o $(B)/fuzz-report testsuite/fuzz/fuzz_profile.c \
		$(filter-out report/main.c,$(REPORT_SRC)) -lyaml -lotf2 -ldw -lelf -lz -lm
	mkdir -p $(B)/fuzz-corpus
	$(B)/fuzz-report -max_total_time=$(FUZZ_SECONDS) -max_len=16384 \
		-dict=testsuite/fuzz/profile.dict $(B)/fuzz-corpus testsuite/fuzz/corpus

.PHONY: all demo check check-full bench install deb clean fuzz-report
