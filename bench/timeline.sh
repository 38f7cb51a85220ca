#!/bin/bash
# SPDX-License-Identifier: MIT
# A timeline picture of a trace (issue 17): bench/timeline-demo.c (three
# worker threads, main) built with the plugin, run with SELINST_MODE=trace,
# turned into Chrome trace-event JSON by selinst-report --format=perfetto,
# drawn by bench/timeline.html in headless Chromium (offline: no
# chrome://tracing or Perfetto UI needed) and saved as a PNG.
#   bash bench/timeline.sh [OUT.png]   (default build/bench/trace-timeline.png)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=$root/build
out=$(realpath -m "${1:-$B/bench/trace-timeline.png}")
mkdir -p "$(dirname "$out")"
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$chrome" ] || { echo "timeline.sh: no chromium (apt-get install chromium)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
gcc -O1 -fplugin="$B/selinst.so" -I"$root/include" -pthread "$root/bench/timeline-demo.c" -o demo \
	-L"$B" -lselinst -Wl,-rpath,"$B"
SELINST_MODE=trace SELINST_OUTPUT=$tmp/demo.prof ./demo >/dev/null
"$B/selinst-report" --format=perfetto demo.prof -o demo.json
python3 - "$root/bench/timeline.html" demo.json page.html <<'PY'
import sys
page = open(sys.argv[1]).read().replace("/*TRACE_JSON*/null", open(sys.argv[2]).read())
open(sys.argv[3], "w").write(page)
PY
# --no-sandbox: Chromium refuses to run as root otherwise.
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,420)
title=$("$chrome" "${flags[@]}" --dump-dom "file://$tmp/page.html" 2>/dev/null | sed -n 's:.*<title>\(.*\)</title>.*:\1:p')
"$chrome" "${flags[@]}" --screenshot="$out" "file://$tmp/page.html" >/dev/null 2>&1
echo "timeline: $out (checks: ${title:-none read})"
[ "$title" = ok ]
