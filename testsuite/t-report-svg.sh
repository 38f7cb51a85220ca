#!/bin/bash
# SPDX-License-Identifier: MIT
# --format=svg: a self-contained flame graph that renders in headless
# Chromium, whose script runs (data-ready = number of frames) and which
# names the regions; hover text and zoom handlers are present.
. "$(dirname "$0")/lib.sh"
D=$T/report-data
[ -x "$REPORT" ] || fail "no $REPORT"

"$REPORT" --format=svg "$D/simple.yaml" "$D/simple-r1.yaml" > fg.svg || fail "svg exit $?"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' fg.svg || fail "not well-formed XML"
grep -q 'href=\|src=' fg.svg && fail "refers to an external file"
expect_eq "frames" 11 "$(grep -c '<g class="f"' fg.svg)"
grep -q 'data-info="leaf (function): 3.00s inclusive (13.64%), 3.000000 s exclusive, 40 calls"' fg.svg || fail "hover text"
grep -q "addEventListener('click'" fg.svg || fail "no click handler"

chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$chrome" ] || skip "chromium not installed"
run() { timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --user-data-dir="$WORK/prof" "$@" 2>/dev/null; }
run --dump-dom "file://$WORK/fg.svg" > dom.txt
grep -q 'data-ready="11"' dom.txt || { head -c 600 dom.txt; fail "script did not run in chromium"; }
for n in main compute leaf rec a.c:30; do
	grep -q "<text[^>]*>$n</text>" dom.txt || fail "region $n not drawn"
done
run --screenshot="$WORK/fg.png" --window-size=1200,160 "file://$WORK/fg.svg" > /dev/null
[ -s fg.png ] || fail "no screenshot"
# A big generated profile still renders.
python3 "$D/gen-profile.py" --paths 3000 --threads 2 -o big.prof
"$REPORT" --format=svg big.prof > big.svg || fail "big svg exit $?"
run --dump-dom "file://$WORK/big.svg" > bigdom.txt
grep -q 'data-ready="[1-9]' bigdom.txt || fail "big flame graph did not render"
echo ok
