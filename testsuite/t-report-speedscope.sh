#!/bin/bash
# SPDX-License-Identifier: MIT
# --format=folded and --format=chrome, read by speedscope (npm package
# speedscope 1.25.0): first by its own importer code run in node (which
# format it detects, the stacks and weights it builds), then by the real
# app in headless Chromium (page title and the sandwich view's table).
# Needs node and the package in $SELINST_BUILD/npm, which
# scripts/install-deps.sh fetches (or, with npm, SELINST_NPM_INSTALL=1:
#   npm install --prefix build/npm speedscope@1.25.0).
. "$(dirname "$0")/lib.sh"
D=$T/report-data
[ -x "$REPORT" ] || fail "no $REPORT"
need node
SS_VERSION=1.25.0
NPM_DIR=${SELINST_NPM:-$SELINST_BUILD/npm}
SS=$NPM_DIR/node_modules/speedscope
if [ ! -f "$SS/package.json" ] && [ "${SELINST_NPM_INSTALL:-0}" = 1 ]; then
	need npm
	npm_config_cache=$NPM_DIR/.cache npm install --prefix "$NPM_DIR" --no-audit --no-fund \
		"speedscope@$SS_VERSION" > npm.log 2>&1 || { cat npm.log; fail "npm install speedscope failed"; }
fi
[ -f "$SS/package.json" ] || skip "speedscope not installed in $NPM_DIR (bash scripts/install-deps.sh fetches it)"
version=$(node -p 'require(process.argv[1]).version' "$SS/package.json")
bundle=$(ls "$SS"/dist/release/speedscope-*.js 2>/dev/null | head -1)
[ -n "$bundle" ] || fail "no app bundle in $SS/dist/release"

# ss.js BUNDLE FILE...: evaluates speedscope's app bundle in node (no DOM:
# the app is not mounted), takes the importer module the app uses for
# dropped files and profile URLs, imports each FILE with it and prints
#   importer FILE MESSAGE          (the "Importing as ..." log line)
#   profile  FILE I NAME UNIT TOTAL
#   stack    FILE I a;b;c SELF     (every call-tree node with self weight)
# tab-separated, frame names as speedscope shows them.
cat > ss.js <<'EOF'
const fs = require('fs'), path = require('path'), vm = require('vm');
const [bundle, ...files] = process.argv.slice(2);
const src = fs.readFileSync(bundle, 'utf8');
// The app reaches its importer module as `(await X).importProfilesFrom...`;
// expose the promise X where it is declared.
const m = /\(await ([\w$]+)\)\.importProfilesFromArrayBuffer\(/.exec(src);
const at = m ? src.indexOf('var ' + m[1] + '=') : -1;
if (at < 0) { console.error('importer not found in ' + bundle); process.exit(3); }
const end = src.indexOf(';', at) + 1;
const patched = src.slice(0, end) + 'globalThis.__importer=' + m[1] + ';' + src.slice(end);
const log = [];
const NODOM = 'no DOM: app not mounted';
const ctx = {
  console: {...console, log: (...a) => log.push(a.join(' ')), time() {}, timeEnd() {}},
  setTimeout, clearTimeout, TextDecoder, TextEncoder, URL, atob, btoa,
  location: {hash: '', search: '', href: 'file:///speedscope/index.html', protocol: 'file:'},
  addEventListener() {}, removeEventListener() {},
  document: {get body() { throw new Error(NODOM); }},
};
ctx.globalThis = ctx.window = ctx.self = ctx;
vm.createContext(ctx);
try { vm.runInContext(patched, ctx, {filename: path.basename(bundle)}); }
catch (e) { if (e.message !== NODOM) throw e; }  // only the final mount may fail
if (!ctx.__importer) { console.error('importer hook not reached'); process.exit(3); }
const out = (...a) => console.log(a.join('\t'));
(async () => {
  const imp = await ctx.__importer;
  for (const f of files) {
    const name = path.basename(f), buf = fs.readFileSync(f);
    log.length = 0;
    const g = await imp.importProfilesFromArrayBuffer(name,
      buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
    out('importer', name, log.filter(l => l.startsWith('Importing as')).join(', ') || 'none');
    if (!g) continue;
    g.profiles.forEach((p, i) => {
      out('profile', name, i, p.getName(), p.getWeightUnit(), p.getTotalWeight());
      const walk = (n, stack) => {
        for (const c of n.children) {
          const s = [...stack, c.frame.name];
          if (c.getSelfWeight() > 0) out('stack', name, i, s.join(';'), c.getSelfWeight());
          walk(c, s);
        }
      };
      walk(p.getGroupedCalltreeRoot(), []);
    });
  }
})().catch(e => { console.error(e); process.exit(1); });
EOF

# Speedscope names a trace event's frame `name {args as JSON}` (here
# {"file":...,"line":...}): bare() keeps the name.
bare() { sed -E 's/ \{"[^}]*\}//g'; }
# stacks FILE: "a;b;c self" for every profile speedscope made of FILE.
stacks() { awk -F'\t' -v f="$1" '$1 == "stack" && $2 == f {print $4 " " $5}' ss.out | bare; }

"$REPORT" --format=folded "$D/loops.yaml" > loops.folded || fail "folded exit $?"
"$REPORT" --format=chrome "$D/loops.yaml" > loops.json || fail "chrome exit $?"
"$REPORT" --format=folded "$D/simple.yaml" "$D/simple-r1.yaml" > m.folded || fail "folded exit $?"
"$REPORT" --format=chrome "$D/simple.yaml" "$D/simple-r1.yaml" > m.json || fail "chrome exit $?"
node ss.js "$bundle" loops.folded loops.json m.folded m.json > ss.out 2> ss.err
rc=$?
if [ $rc = 3 ] && [ "$version" != "$SS_VERSION" ]; then
	skip "speedscope $version: importer not found (test written for $SS_VERSION)"
fi
[ $rc = 0 ] || { cat ss.err; fail "speedscope's importer failed (exit $rc)"; }

# Which importer speedscope picks for each file.
for f in loops.folded m.folded; do
	expect_eq "$f importer" "Importing as collapsed stack format" "$(awk -F'\t' -v f=$f '$1 == "importer" && $2 == f {print $3}' ss.out)"
done
for f in loops.json m.json; do
	expect_eq "$f importer" "Importing as Trace Event Format profile" "$(awk -F'\t' -v f=$f '$1 == "importer" && $2 == f {print $3}' ss.out)"
done

# loops.yaml: one profile; stacks and self weights as exported (ns in the
# folded file, us in the trace).
expect_eq "folded profile" "loops.folded|none|1000000" "$(awk -F'\t' '$1 == "profile" && $2 == "loops.folded" {print $4 "|" $5 "|" $6}' ss.out)"
expect_eq "folded stacks" "main 100000|main;loops.c:16 100000|main;loops.c:16;loops.c:18 300000|main;loops.c:16;loops.c:18;leaf 500000" \
	"$(stacks loops.folded | sort | paste -sd'|')"
expect_eq "chrome profile" "microseconds|1000" "$(awk -F'\t' '$1 == "profile" && $2 == "loops.json" {print $5 "|" $6}' ss.out)"
expect_eq "chrome stacks" "main 100|main;loops.c:16 100|main;loops.c:16;loops.c:18 300|main;loops.c:16;loops.c:18;leaf 500" \
	"$(stacks loops.json | sort | paste -sd'|')"
# The trace's args name the region only (file, line), so a region is one
# frame in speedscope however many call paths reach it.
grep -q 'leaf {"file":"loops.c","line":3}' ss.out || fail "trace event args not in leaf's frame name"
expect_eq "one frame per region" 1 "$(awk -F'\t' '$1 == "stack" && $2 == "m.json" {n = split($4, f, ";"); for (i = 1; i <= n; i++) if (f[i] ~ /^rec /) print f[i]}' ss.out | sort -u | wc -l)"

# Two ranks, rank 0 with two threads: one merged folded profile; one
# profile per thread from the trace, named after the process and thread.
expect_eq "merged folded total" "1|22000000000" "$(awk -F'\t' '$1 == "profile" && $2 == "m.folded" {n++; t = $6} END {print n "|" t}' ss.out)"
expect_eq "trace profiles" "rank 0 pid 4242 /work/app (pid 0), thread 0 (tid 4242) (tid 0)=10000000|rank 0 pid 4242 /work/app (pid 0), thread 1 (tid 4243) (tid 1)=4000000|rank 1 pid 4250 /work/app (pid 1), thread 0 (tid 4250) (tid 0)=8000000" \
	"$(awk -F'\t' '$1 == "profile" && $2 == "m.json" {print $4 "=" $6}' ss.out | paste -sd'|')"
# Both views agree with the exporter's folded text: speedscope's folded
# import line for line, and its trace import summed over threads (us -> ns).
stacks m.folded | sort > ss-m.folded
sort m.folded | diff - ss-m.folded > d1.txt || { cat d1.txt; fail "speedscope's folded import differs from the file"; }
stacks m.json | awk '{w = $NF; $NF = ""; s[$0] += w} END {for (k in s) printf "%s%.0f\n", k, s[k] * 1000}' | sort > ss-m.trace
sort m.folded | diff - ss-m.trace > d2.txt || { cat d2.txt; fail "speedscope's trace import differs from the folded export"; }

# The app itself, headless: it loads a profile given as #localProfilePath
# (a script calling speedscope.loadFileFromBase64, as its CLI does), sets
# the title and lists frames with total and self weight in the sandwich view.
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$chrome" ] || skip "chromium not installed: speedscope app not run (importer checked)"
# app FILE: loads FILE in the app; FILE.rows gets "name|total|self" for
# each row of the sandwich table.
app() {
	printf 'speedscope.loadFileFromBase64("%s", "%s")\n' "$1" "$(base64 -w0 "$1")" > "$1.load.js"
	timeout 60 "$chrome" --headless --no-sandbox --disable-gpu --enable-unsafe-swiftshader \
		--user-data-dir="$WORK/prof" --allow-file-access-from-files --window-size=1200,800 \
		--virtual-time-budget=10000 --dump-dom \
		"file://$SS/dist/release/index.html#localProfilePath=$WORK/$1.load.js&view=sandwich" > "$1.dom" 2>/dev/null
	grep -q "<title>$1 - speedscope</title>" "$1.dom" || { head -c 1500 "$1.dom"; fail "speedscope app did not load $1"; }
	python3 - "$1.dom" > "$1.rows" <<'EOF'
import sys, html.parser
class P(html.parser.HTMLParser):
    rows, row, cell = [], None, None
    def handle_starttag(self, tag, a):
        if tag == 'tr': self.row = []
        elif tag == 'td' and self.row is not None: self.cell = ''
    def handle_endtag(self, tag):
        if tag == 'td' and self.cell is not None: self.row.append(self.cell.strip()); self.cell = None
        elif tag == 'tr':
            if self.row and len(self.row) == 3: self.rows.append(self.row)
            self.row = None
    def handle_data(self, d):
        if self.cell is not None: self.cell += d
sys.stdout.reconfigure(encoding='utf-8')
p = P(); p.feed(open(sys.argv[1], encoding='utf-8').read())
for total, self_, name in p.rows: print(f'{name}|{total}|{self_}')
EOF
}
app loops.folded
expect_eq "app: folded" "leaf|500,000 (50%)|500,000 (50%) loops.c:16|900,000 (90%)|100,000 (10%) loops.c:18|800,000 (80%)|300,000 (30%) main|1,000,000 (100%)|100,000 (10%)" \
	"$(sort loops.folded.rows | paste -sd' ')"
app loops.json
expect_eq "app: trace" "leaf|500.00µs (50%)|500.00µs (50%) loops.c:16|900.00µs (90%)|100.00µs (10%) loops.c:18|800.00µs (80%)|300.00µs (30%) main|1.00ms (100%)|100.00µs (10%)" \
	"$(bare < loops.json.rows | sort | paste -sd' ')"
echo ok
