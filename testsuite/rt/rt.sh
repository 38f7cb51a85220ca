# rt.sh - sourced by the runtime tests (t-rt-*.sh) after lib.sh: compile a
# test program of testsuite/rt/ against the runtime, check its profile.
RT=$T/rt
[ -f "$SELINST_BUILD/libselinst.so" ] || fail "runtime not built (make build/libselinst.so)"
command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null || skip "python3-yaml missing"
# rtcc OUT SRC... [flags]: build a test program linked with libselinst.so
rtcc() { out=$1; shift; gcc -O2 -g -std=gnu11 -Wall -Wextra -I"$SELINST_ROOT/include" -I"$RT" "$@" \
	-L"$SELINST_BUILD" -lselinst -Wl,-rpath,"$SELINST_BUILD" -pthread -o "$out" || fail "compile $out"; }
# pcheck PROFILE PYTHON: run PYTHON with p = the checked profile (see check.py)
pcheck() { prof=$1; shift; python3 "$RT/check.py" "$prof" "$@" || fail "profile check on $prof"; }
