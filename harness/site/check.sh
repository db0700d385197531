#!/usr/bin/env bash
# check.sh HTML_DIR DOCS_DIR OUT_DIR: opens every page of the course site in headless Chromium, as
# a student would, and fails naming page and text on what a reader would see wrong (checker.js
# says what it looks for), or on a JavaScript error in the console. A screenshot of each page made
# from DOCS_DIR's Markdown goes to OUT_DIR. Exit 0: no defect; 1: defects (listed); 2: the check
# could not run; 77: no Chromium here (the test suite reports the check as skipped).
set -uo pipefail

[ $# -eq 3 ] || { echo "usage: $0 HTML_DIR DOCS_DIR OUT_DIR" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
html=$(cd "$1" 2>/dev/null && pwd) || { echo "check.sh: no site in $1 (build it first: ./course docs)" >&2; exit 2; }
docs=$(cd "$2" && pwd) || exit 2
mkdir -p "$3" && out=$(cd "$3" && pwd) || exit 2
[ -f "$html/index.html" ] || { echo "check.sh: no site in $html (build it first: ./course docs)" >&2; exit 2; }

chromium=""
for candidate in ${COURSE_CHROMIUM:-} chromium chromium-browser; do
  if command -v "$candidate" >/dev/null 2>&1; then chromium=$candidate; break; fi
done
if [ -z "$chromium" ]; then
  echo "skipped: Chromium is not installed (Debian: apt-get install chromium; ./course docs --check installs it)"
  exit 77
fi

json() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }

# The page Doxygen makes from a Markdown file: its first heading's {#label}, index.md the main
# page, else a name from its path (md_docs_NAME before Doxygen 1.9.7, md_docs_2NAME since).
page_of() {
  local md=$1 stem label candidate
  stem=$(basename "$md" .md)
  [ "$stem" = index ] && { echo index.html; return; }
  label=$(head -n 1 "$md" | sed -n 's/^#.*{#\([A-Za-z0-9_]*\)} *$/\1/p')
  for candidate in ${label:+$label.html} "md_docs_$stem.html" "md_docs_2$stem.html" "md_$stem.html"; do
    [ -f "$html/$candidate" ] && { echo "$candidate"; return; }
  done
}

# config.js: the site, the pages (every page of the site's top folder) and their Markdown.
work=$out/check
rm -rf "$work" && mkdir -p "$work"
cp "$here/checker.html" "$here/checker.js" "$work/"
declare -A markdown_of=()
missing=()
for md in "$docs"/*.md; do
  [ -f "$md" ] || continue
  page=$(page_of "$md")
  if [ -z "$page" ]; then missing+=("$(basename "$md")"); continue; fi
  markdown_of[$page]=$md
done
{
  printf 'window.COURSE_SITE = {\n  site: %s,\n  widths: [1280, 900],\n  pages: [\n' "$(json "file://$html/")"
  for file in "$html"/*.html; do
    page=$(basename "$file")
    md=${markdown_of[$page]:-}
    if [ -n "$md" ]; then
      printf '    { html: %s, markdown: %s, markdownName: %s },\n' "$(json "$page")" "$(json "file://$md")" "$(json "docs/$(basename "$md")")"
    else
      printf '    { html: %s },\n' "$(json "$page")"
    fi
  done
  printf '  ],\n};\n'
} >"$work/config.js"

# One browser opens every page; --dump-dom prints the checker's page once every page is done.
timeout 600 "$chromium" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
  --enable-logging=stderr --v=0 --virtual-time-budget=600000 --window-size=1400,1000 \
  --dump-dom "file://$work/checker.html" >"$work/dom.html" 2>"$work/chromium.log"
status=$(sed -n 's:.*<pre id="status">\([^<]*\)</pre>.*:\1:p' "$work/dom.html")
if [[ $status != checked* ]]; then
  echo "check.sh: the check did not finish (${status:-no page from Chromium}); Chromium's log: $work/chromium.log" >&2
  grep -F ':CONSOLE' "$work/chromium.log" | tail -n 5 >&2
  exit 2
fi

# The findings, then each console message a page wrote (charged to the page being checked).
report=$work/defects.txt
awk '/<pre id="findings">/ { on = 1; sub(/.*<pre id="findings">/, "") } on && /<\/pre>/ { sub(/<\/pre>.*/, ""); print; exit } on { print }' \
  "$work/dom.html" | sed -n 's/^DEFECT //p' |
  sed -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e 's/&amp;/\&/g' >"$report"
awk '
  /:CONSOLE/ {
    message = $0; sub(/^[^]]*\] "/, "", message); source = message
    sub(/", source: .*$/, "", message); sub(/^.*", source: /, "", source)
    if (message ~ /^course-site-check: page /) { page = substr(message, 25); next }
    if (source ~ /\/check\/checker\.(js|html)/) next
    print page ": the console shows \"" message "\" (" source ")"
  }' "$work/chromium.log" >>"$report"
awk '!seen[$0]++' "$report" >"$report.new" && mv "$report.new" "$report"
for md in "${missing[@]}"; do echo "docs/$md: the site has no page made from it" >>"$report"; done

# A screenshot of the top of each page made from Markdown, as a student's window shows it, a
# browser per core at a time (most of a browser's time is its start).
screenshot() {
  rm -f "$out/${1%.html}.png"
  timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --allow-file-access-from-files --hide-scrollbars \
    --virtual-time-budget=3000 --window-size=1280,1000 --screenshot="$out/${1%.html}.png" "file://$html/$1" >/dev/null 2>&1
  [ -s "$out/${1%.html}.png" ] || echo "$1: no screenshot (Chromium failed)" >>"$report"
}
running=0
for page in "${!markdown_of[@]}"; do
  screenshot "$page" &
  running=$((running + 1))
  if [ $running -ge "$(nproc 2>/dev/null || echo 2)" ]; then wait -n; running=$((running - 1)); fi
done
wait

pages=$(grep -c 'html:' "$work/config.js")
if [ -s "$report" ]; then
  echo "The course site has $(wc -l <"$report") defects (pages in $html):"
  sed 's/^/  /' "$report"
  echo "Screenshots: $out/"
  exit 1
fi
echo "The course site reads as written: $pages pages opened in Chromium, no defect. Screenshots: $out/"
