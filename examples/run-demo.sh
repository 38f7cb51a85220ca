#!/bin/bash
# `make demo`: compile examples/bt_shape.c (NAS BT/FT call structure) with
# the plugin at the default threshold, run it, print the flat profile.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
b=$root/build
out=$b/demo
mkdir -p "$out"
cd "$out"
rm -f bt_shape.decisions.yaml
set -x
gcc -O2 -fplugin="$b/selinst.so" -fplugin-arg-selinst-threshold=204800 \
	-fplugin-arg-selinst-decisions=bt_shape.decisions.yaml -fplugin-arg-selinst-verbose \
	"$root/examples/bt_shape.c" -L"$b" -lselinst -Wl,-rpath,"$b" -o bt_shape

./bt_shape 2000
"$b/selinst-report" bt_shape.prof
