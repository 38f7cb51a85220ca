#!/bin/bash
# SPDX-License-Identifier: MIT
# The reader's fast YAML path (report/ydom_fast.c) and libyaml give the
# same results: every test profile, a real runtime profile if the runtime
# is built, generated profiles in block and flow style, and YAML variants
# that the fast path must hand over to libyaml.
. "$(dirname "$0")/lib.sh"
D=$T/report-data
[ -x "$REPORT" ] || fail "no $REPORT"

python3 "$D/gen-profile.py" --paths 2000 --threads 3 --rank 1 --size 2 -o block.prof
python3 "$D/gen-profile.py" --paths 2000 --threads 3 --flow -o flow.prof
files=("$D"/*.yaml "$T"/fuzz/corpus/*.yaml block.prof flow.prof)
# Variants: same data written with YAML features outside the fast subset.
sed 's/^  - id: \([0-9]*\)$/  - id: \1  # comment/' "$D/simple.yaml" > comments.prof
sed "s/name: main/name: 'main'/" "$D/simple.yaml" > single.prof
sed 's/name: compute/name: "comp\\x75te"/' "$D/simple.yaml" > escape.prof
sed 's/^program: .*/program: \/work\/long\n  path/' "$D/simple.yaml" > multiline.prof
printf -- '---\n' | cat - "$D/simple.yaml" > docstart.prof
sed 's/trip_counts: {"10": 4}/trip_counts: {"10": 4, }/' "$D/simple.yaml" > comma.prof
files+=(comments.prof single.prof escape.prof multiline.prof docstart.prof comma.prof)
for f in "${files[@]}"; do
	for args in "--format=json" "--tree --prune 0" "--format=folded"; do
		"$REPORT" $args "$f" > fast.out 2> fast.err; a=$?
		SELINST_REPORT_LIBYAML=1 "$REPORT" $args "$f" > slow.out 2> slow.err; b=$?
		expect_eq "$f $args: exit" "$b" "$a"
		cmp -s fast.out slow.out || fail "$f $args: fast path and libyaml differ"
		cmp -s fast.err slow.err || fail "$f $args: messages differ: $(cat fast.err) / $(cat slow.err)"
	done
done
# The variants still read as the original profile.
"$REPORT" --format=json "$D/simple.yaml" > ref.json
for f in comments.prof single.prof escape.prof docstart.prof; do
	"$REPORT" --format=json "$f" | sed "s|\"path\": \"[^\"]*\"|\"path\": \"$D/simple.yaml\"|" > v.json
	cmp -s ref.json v.json || fail "$f reads differently from simple.yaml"
done
echo ok
