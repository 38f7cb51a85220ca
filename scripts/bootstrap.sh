#!/bin/bash
# SPDX-License-Identifier: MIT
# The README's first command: install what this Debian 12 machine lacks,
# build selinst, instrument the bundled example, run it and print its
# report.
set -eu
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
make -j"$(nproc)"
make demo
