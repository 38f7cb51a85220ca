#!/bin/bash
# SPDX-License-Identifier: MIT
# Writes the files `make install` generates with the install paths in them:
# selinst.specs (GCC spec file), selinst-mpi.specs (the same and the MPI
# layer), selinst-mpif.specs (and the Fortran one), selinst.pc (pkg-config)
# and the compiler wrappers selinst-gcc, selinst-g++, selinst-gfortran,
# selinst-mpicc, selinst-mpif90.
#   VERSION BINDIR LIBDIR INCDIR PLUGINDIR SPECSDIR PREFIX PLUGIN_GCC=... [MPI_LAYER=yes] [MPIF_LAYER=yes]
#   gen-install.sh OUTDIR
set -eu
out=$1
: "$VERSION" "$LIBDIR" "$INCDIR" "$PLUGINDIR" "$SPECSDIR" "$PREFIX" "$PLUGIN_GCC"

# The drivers of the GCC the plugin is built for: gcc-12, g++-12 and
# gfortran-12 where they exist under that name, so that the wrappers keep
# working when the system's default gcc moves on to another version.
major=$("$PLUGIN_GCC" -dumpversion | cut -d. -f1)
driver() {	# driver g++ -> g++-12 (or the name PLUGIN_GCC implies)
	local name
	name=$(basename "$PLUGIN_GCC")
	name=${name/gcc/$1}
	case $name in *-"$major") ;; *) command -v "$name-$major" >/dev/null && name=$name-$major ;; esac
	echo "$name"
}

# The run path is left out for the folders the dynamic loader searches
# anyway (a Debian package installs there).
rpath=" -rpath $LIBDIR"
case $LIBDIR in /usr/lib | /lib | /usr/lib/*-linux-gnu) rpath="" ;; esac
incl=""
[ "$INCDIR" = /usr/include ] || incl=$INCDIR

# The plugin goes to every compiler proper (cc1, cc1plus, f951) through
# cc1_options, before the user's options (a plugin's arguments must follow
# the plugin), and to a preprocessing run (-E, -M, -save-temps' first
# step) through cpp_options, for gfortran -E through cpp_debug_options:
# the driver passes the -fplugin-arg-selinst-* options there too, which
# cc1 refused without the plugin; the plugin does nothing there.  The
# runtime goes into the `lib` spec, which the driver uses
# only when it links, after the objects and with --no-as-needed so that a
# build system's own --as-needed cannot drop it.
specs() {
	echo "# selinst $VERSION: gcc -specs=selinst.specs adds the plugin and the runtime."
	echo "%rename cc1_options selinst_cc1_options"
	echo
	echo "*cc1_options:"
	echo "-fplugin=$PLUGINDIR/selinst.so %(selinst_cc1_options)"
	echo
	echo "%rename cpp_options selinst_cpp_options"
	echo
	echo "*cpp_options:"
	echo "-fplugin=$PLUGINDIR/selinst.so %(selinst_cpp_options)"
	echo
	# gfortran -E: f951 gets cpp_debug_options before the -f options.
	echo "%rename cpp_debug_options selinst_cpp_debug_options"
	echo
	echo "*cpp_debug_options:"
	echo "-fplugin=$PLUGINDIR/selinst.so %(selinst_cpp_debug_options)"
	echo
	if [ -n "$incl" ]; then
		echo "*cpp_unique_options:"
		echo "+ -I$incl"
		echo
	fi
	echo "*lib:"
	echo "+ --push-state --no-as-needed -L$LIBDIR -lselinst --pop-state$rpath"
	echo
}
specs >"$out/selinst.specs"
# The MPI layer goes into the `link` spec, which comes before the objects
# and the MPI compiler's -lmpi: the program then needs libselinst-mpi.so
# before libmpi.so, so that its MPI_* calls bind to the layer's wrappers.
# selinst-mpif.specs: the Fortran bindings' layer too (mpif90), kept out
# of C programs (it needs the MPI Fortran library).
mpi_specs() {	# mpi_specs LIBS...
	specs
	echo "*link:"
	echo "+ --push-state --no-as-needed -L$LIBDIR $* --pop-state"
	echo
}
mpi_specs -lselinst-mpi >"$out/selinst-mpi.specs"
mpi_specs -lselinst-mpif -lselinst-mpi >"$out/selinst-mpif.specs"

{
	echo "prefix=$PREFIX"
	echo "libdir=$LIBDIR"
	echo "includedir=$INCDIR"
	echo "plugindir=$PLUGINDIR"
	echo
	echo "Name: selinst"
	echo "Description: selective instrumentation for GCC: plugin flag and runtime library"
	echo "Version: $VERSION"
	echo "Cflags: -fplugin=\${plugindir}/selinst.so -I\${includedir}"
	libs="-L\${libdir}"
	[ -z "$rpath" ] || libs="$libs -Wl,-rpath,\${libdir}"
	echo "Libs: $libs -Wl,--push-state,--no-as-needed -lselinst -Wl,--pop-state"
} >"$out/selinst.pc"

# wrapper NAME COMPILER [ENV-ASSIGNMENTS [SPECS]]
wrapper() {
	cat >"$out/$1" <<EOF
#!/bin/sh
# $1 (selinst $VERSION): $2 with the selinst plugin and runtime
# (man selinst-gcc).  SELINST_PLUGIN_ARGS="threshold=N loops=off ..." adds
# -fplugin-arg-selinst-threshold=N ...; SELINST_COMPILER names another
# driver of the same GCC version.
set -f
for a in \${SELINST_PLUGIN_ARGS-}; do
	set -- "-fplugin-arg-selinst-\$a" "\$@"
done
${3:+$3 }exec \${SELINST_COMPILER:-$2} -specs=$SPECSDIR/${4:-selinst}.specs "\$@"
EOF
	chmod 755 "$out/$1"
}
cc=$(driver gcc)
wrapper selinst-gcc "$cc"
wrapper selinst-g++ "$(driver g++)"
wrapper selinst-gfortran "$(driver gfortran)"
# Open MPI's and MPICH's mpicc and mpif90 run the compilers these
# variables name; the MPI layer comes with them when it was built
# (MPI_LAYER=yes, MPIF_LAYER=yes; at run time SELINST_MPI_LAYER=no leaves
# it out).
layer_specs() {	# layer_specs BUILT NAME: the spec file's name, or a choice at run time
	if [ "$1" = yes ]; then
		echo '$([ "${SELINST_MPI_LAYER-yes}" = no ] && echo selinst || echo '"$2"')'
	else
		echo selinst
	fi
}
wrapper selinst-mpicc mpicc "OMPI_CC=\${OMPI_CC:-$cc} MPICH_CC=\${MPICH_CC:-$cc}" \
	"$(layer_specs "${MPI_LAYER:-no}" selinst-mpi)"
fc=$(driver gfortran)
wrapper selinst-mpif90 mpif90 "OMPI_FC=\${OMPI_FC:-$fc} MPICH_FC=\${MPICH_FC:-$fc} MPICH_F90=\${MPICH_F90:-$fc}" \
	"$(layer_specs "${MPIF_LAYER:-no}" selinst-mpif)"
