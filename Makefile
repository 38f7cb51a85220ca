# selinst - top-level build.  `make`, `make check`, `make install PREFIX=DIR`,
# `make bench`.  Everything is built into build/.
PREFIX    ?= /usr/local
CC        ?= gcc
CXX       ?= g++
# The plugin must be built by the C++ compiler matching the GCC it will be
# loaded into; GCC names the plugin headers' folder itself.
PLUGIN_GCC ?= gcc
PLUGIN_INC := $(shell $(PLUGIN_GCC) -print-file-name=plugin)/include
B         := build

WARN      := -Wall -Wextra
CFLAGS    ?= -O2 -g
CXXFLAGS  ?= -O2 -g
PLUGIN_CXXFLAGS := $(CXXFLAGS) $(WARN) -std=gnu++14 -fPIC -fno-rtti -fno-exceptions \
	-Wno-unused-parameter -I$(PLUGIN_INC)
RT_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -fPIC -Iinclude -pthread \
	-fvisibility=hidden -fno-omit-frame-pointer
REPORT_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -Iinclude

PLUGIN_SRC := $(wildcard plugin/*.cc)
PLUGIN_HDR := $(wildcard plugin/*.h)
RT_SRC     := $(wildcard runtime/*.c)
RT_HDR     := $(wildcard runtime/*.h) include/selinst.h
REPORT_SRC := $(wildcard report/*.c)
REPORT_HDR := $(wildcard report/*.h)

all: $(B)/selinst.so $(B)/libselinst.so $(B)/libselinst.a $(B)/selinst-report

# One rule per folder: build/ may already exist (install-deps.sh puts
# build/npm there) without its subfolders.
$(B) $(B)/rt-pic $(B)/rt-static:
	mkdir -p $@

$(B)/selinst.so: $(PLUGIN_SRC) $(PLUGIN_HDR) | $(B)
	$(CXX) $(PLUGIN_CXXFLAGS) -shared -o $@ $(PLUGIN_SRC) -lgmp -lyaml

$(B)/rt-pic/%.o: runtime/%.c $(RT_HDR) | $(B)/rt-pic
	$(CC) $(RT_CFLAGS) -c -o $@ $<
$(B)/rt-static/%.o: runtime/%.c $(RT_HDR) | $(B)/rt-static
	$(CC) $(RT_CFLAGS) -ftls-model=initial-exec -DSI_STATIC -c -o $@ $<

# libyaml goes inside, its symbols hidden: the runtime must not bind to a
# program's own (perhaps instrumented, perhaps other-version) libyaml.
$(B)/libselinst.so: $(patsubst runtime/%.c,$(B)/rt-pic/%.o,$(RT_SRC))
	$(CC) -shared -pthread -o $@ $^ -Wl,-Bstatic -lyaml -Wl,-Bdynamic \
		-Wl,--exclude-libs,libyaml.a
# exec.c and dlclose.c interpose libc functions: shared library only
# (runtime/exec.c, runtime/dlclose.c).
RT_STATIC_SRC := $(filter-out runtime/exec.c runtime/dlclose.c,$(RT_SRC))
$(B)/libselinst.a: $(patsubst runtime/%.c,$(B)/rt-static/%.o,$(RT_STATIC_SRC))
	rm -f $@; ar rcs $@ $^

$(B)/selinst-report: $(REPORT_SRC) $(REPORT_HDR) | $(B)
	$(CC) $(REPORT_CFLAGS) -o $@ $(REPORT_SRC) -lyaml -lm

# The example the README's first command runs.
demo: all
	bash examples/run-demo.sh

check: all
	bash testsuite/run.sh

bench: all
	bash bench/run.sh

# Instruction-count overhead table (valgrind, small sizes; bench/README.md).
bench-instructions: all
	bash bench/instructions.sh
.PHONY: bench-instructions

install: all
	install -d $(DESTDIR)$(PREFIX)/lib/selinst $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(B)/selinst.so $(DESTDIR)$(PREFIX)/lib/selinst/selinst.so
	install -m 755 $(B)/libselinst.so $(DESTDIR)$(PREFIX)/lib/libselinst.so
	install -m 644 $(B)/libselinst.a $(DESTDIR)$(PREFIX)/lib/libselinst.a
	install -m 644 include/selinst.h $(DESTDIR)$(PREFIX)/include/selinst.h
	install -m 755 $(B)/selinst-report $(DESTDIR)$(PREFIX)/bin/selinst-report

clean:
	rm -rf $(B)

# Fuzz selinst-report's reader with libFuzzer (clang-14); seeds in testsuite/fuzz/.
FUZZ_SECONDS ?= 600
fuzz-report: | $(B)
	clang-14 -g -O1 -std=gnu11 -Ireport -fsanitize=fuzzer,address,undefined \
		-o $(B)/fuzz-report testsuite/fuzz/fuzz_profile.c \
		$(filter-out report/main.c,$(REPORT_SRC)) -lyaml -lm
	mkdir -p $(B)/fuzz-corpus
	$(B)/fuzz-report -max_total_time=$(FUZZ_SECONDS) -max_len=16384 \
		-dict=testsuite/fuzz/profile.dict $(B)/fuzz-corpus testsuite/fuzz/corpus

.PHONY: all demo check bench install clean fuzz-report
