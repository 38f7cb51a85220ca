#!/bin/bash
# Installs the Debian 12 packages selinst needs to build and test, and only
# those that are missing.  Runs apt-get as root, or through sudo.
set -eu
packages=(
	make gcc g++ gfortran		# compilers the plugin and tests use
	gcc-12-plugin-dev		# GCC's plugin headers
	libgmp-dev libyaml-dev		# exact scores; profile/decision files
	python3 python3-yaml		# test assertions on YAML and JSON
	graphviz valgrind chromium	# report exports checked by dot, callgrind_annotate, Chromium (~120 MB, ~10 s)
	libopenmpi-dev openmpi-bin	# report's real MPI test
	clang-14			# make fuzz-report (libFuzzer)
	ca-certificates
)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
