#!/bin/bash
# SPDX-License-Identifier: MIT
# make deb: a package for the GCC the plugin is built for, with the plugin
# in that GCC's plugin folder, the spec file beside it, the runtime in the
# loader's path, wrappers naming those paths, man pages and the example.
# (Installing it on a fresh Debian 12 and running the example: README.)
. "$(dirname "$0")/lib.sh"
need dpkg-deb
gcc_cmd=${SELINST_GCC:-gcc}
deb=$(make -s -C "$SELINST_ROOT" deb PLUGIN_GCC="$gcc_cmd" 2>make.err | tail -1) || fail "make deb: $(cat make.err)"
[ -f "$deb" ] || fail "no package: '$deb' $(cat make.err)"
major=$($gcc_cmd -dumpversion | cut -d. -f1)
full=$($gcc_cmd -dumpfullversion)
dpkg-deb -f "$deb" Depends >depends.txt || fail "no control file"
grep -q "gcc-$major (>= $full), gcc-$major (<< " depends.txt || fail "Depends: $(cat depends.txt)"
grep -q "libopen-trace-format2-10" depends.txt || fail "Depends lacks libotf2: $(cat depends.txt)"
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' >files.txt
plugdir=$($gcc_cmd -print-file-name=plugin)
for f in "$plugdir/selinst.so" "$(dirname "$plugdir")/selinst.specs" /usr/lib/libselinst.so /usr/lib/libselinst-otf2.so \
	/usr/bin/selinst-gcc /usr/bin/selinst-g++ /usr/bin/selinst-gfortran /usr/bin/selinst-mpicc \
	/usr/bin/selinst-report /usr/include/selinst.h /usr/lib/pkgconfig/selinst.pc \
	/usr/share/man/man1/selinst-report.1.gz /usr/share/man/man1/selinst-gcc.1.gz \
	/usr/share/man/man7/selinst.7.gz /usr/share/doc/selinst/examples/bt_shape.c; do
	grep -qx "$f" files.txt || fail "not in the package: $f"
done
dpkg-deb -x "$deb" root || fail "extract"
grep -q "exec \${SELINST_COMPILER:-gcc-$major} -specs=$(dirname "$plugdir")/selinst.specs" root/usr/bin/selinst-gcc \
	|| fail "selinst-gcc: $(cat root/usr/bin/selinst-gcc)"
grep -q -- "-fplugin=$plugdir/selinst.so" "root$(dirname "$plugdir")/selinst.specs" || fail "spec file"
grep -q -- "-rpath" "root$(dirname "$plugdir")/selinst.specs" && fail "run path to /usr/lib in the spec file"
zcat root/usr/share/man/man7/selinst.7.gz | grep -q SELINST_OUTPUT || fail "selinst(7) lacks the environment"
exit 0
