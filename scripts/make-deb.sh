#!/bin/bash
# SPDX-License-Identifier: MIT
# `make deb`: a Debian package of selinst for the GCC the plugin was built
# for, with dpkg-deb.  Plugin in that GCC's plugin folder (-fplugin=selinst),
# spec file beside it, runtime in /usr/lib (the loader's path: no run path
# needed), wrappers and selinst-report in /usr/bin, man pages, the bundled
# example in /usr/share/doc/selinst/examples.
#   PLUGIN_GCC=gcc B=build VERSION=0.2.0 make-deb.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
: "${PLUGIN_GCC:=gcc}" "${B:=build}" "${VERSION:=$(cat VERSION)}"
command -v dpkg-deb >/dev/null || { echo "make deb: dpkg-deb not found (package dpkg)" >&2; exit 2; }

arch=$(dpkg --print-architecture)
major=$("$PLUGIN_GCC" -dumpversion | cut -d. -f1)
full=$("$PLUGIN_GCC" -dumpfullversion)
# The plugin loads only into the GCC it was built with (same upstream
# version: the plugin checks it too); any Debian revision of it will do.
gccpkg=gcc-$major
dpkg-query -W "$gccpkg" >/dev/null 2>&1 || { echo "make deb: $PLUGIN_GCC is not Debian's $gccpkg" >&2; exit 2; }
next=${full%.*}.$((${full##*.} + 1))
depends="$gccpkg (>= $full), $gccpkg (<< $next), libc6, libgmp10, libyaml-0-2, libdw1, zlib1g, libopen-trace-format2-10"

stage=$root/$B/deb
rm -rf "$stage"
mkdir -p "$stage/root/DEBIAN"
make -s install DESTDIR="$stage/root" PREFIX=/usr PLUGIN_GCC="$PLUGIN_GCC" GEN="$stage/gen" >/dev/null
pkgroot=$stage/root
rm -f "$pkgroot/usr/lib/libselinst.a"	# the static runtime needs -lyaml: not for one-word use
# Debian keeps man pages compressed; the wrappers' pages are links.
for f in "$pkgroot"/usr/share/man/man*/*; do
	if grep -q '^\.so ' "$f"; then
		rm "$f"
		ln -s selinst-gcc.1.gz "$f.gz"
	else
		gzip -9n "$f"
	fi
done
doc=$pkgroot/usr/share/doc/selinst
mkdir -p "$doc/examples"
cp examples/bt_shape.c "$doc/examples/"
cp doc/profile-format.md doc/report.md doc/runtime.md "$doc/"
# Debian's copyright file: the licence summary, then the MIT text (the
# GPL's is in /usr/share/common-licenses/GPL-3 on every Debian system).
{ printf 'selinst %s\n\n' "$VERSION"; cat LICENSE; printf '\n'; cat LICENSES/MIT.txt
  printf '\nGPL-3.0-or-later: /usr/share/common-licenses/GPL-3\n'; } >"$doc/copyright"

size=$(du -sk "$pkgroot" | cut -f1)
cat >"$pkgroot/DEBIAN/control" <<EOF
Package: selinst
Version: $VERSION-1
Architecture: $arch
Maintainer: selinst developers <selinst@localhost>
Installed-Size: $size
Depends: $depends
Suggests: gfortran-$major, g++-$major, mpi-default-dev, libopenmpi-dev
Section: devel
Priority: optional
Description: selective instrumentation profiler for GCC $major
 A GCC plugin instruments only the functions and loops that an
 inlining-style cost model selects; libselinst keeps per-thread profiles
 and selinst-report prints and exports them.  selinst-gcc, selinst-g++,
 selinst-gfortran, selinst-mpicc and selinst-mpif90 compile and link with
 both; the MPI ones add libselinst-mpi, the PMPI layer (built against
 Open MPI: libopenmpi-dev).
EOF
(cd "$pkgroot" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z |
	xargs -0 md5sum) >"$pkgroot/DEBIAN/md5sums"
out=$root/$B/selinst_${VERSION}-1_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$pkgroot" "$out" >/dev/null
echo "$out"
