#!/usr/bin/env bash
# site_check_defects.sh OUT_DIR: the site check (harness/site/check.sh) on tests/site/defects/, a
# small site whose pages each show one defect the course site had or could get. The check must
# fail, name every defect with its page, and leave clean.html (which has none) alone.
# Exit 77 (skipped) without Chromium.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:?usage: site_check_defects.sh OUT_DIR}
report=$("$here/../harness/site/check.sh" "$here/site/defects/html" "$here/site/defects/docs" "$out" 2>&1)
status=$?
[ $status = 77 ] && { echo "$report"; exit 77; }
printf '%s\n' "$report"
failed=0
[ $status = 1 ] || { echo "FAILED: the check exited $status, not 1"; failed=1; }
while IFS='|' read -r page words; do
  [ -z "$page" ] && continue
  if ! grep -F -- "$page: " <<<"$report" | grep -q -F -- "$words"; then
    echo "FAILED: the check did not report on $page: $words"
    failed=1
  fi
done <<'DEFECTS'
bold_code.html|raw markup ('**')
heading_code.html|raw markup (an HTML tag) shows as text: "Seeing memory behaviour on any device: <tt>--trace</tt>"
broken_list.html|raw markup (an HTML tag)
quoted_table.html|'\ilinebr' shows as text
quoted_table.html|renders as 4 cells; its Markdown has 8
en_dash.html|an option shows an en dash
stray_backtick.html|raw markup (a backtick)
underscores.html|raw markup ('__')
entity.html|raw markup (an HTML entity)
missing_image.html|the image 'no-such-picture.png' does not load
shrunk_picture.html|does not open at full size
dead_link.html|(no_such_page.html) leads to a page that does not exist
dead_link.html|(clean.html#no_such_section) leads to an anchor that does not exist
dead_link.html|(../../../README.md) leads outside the site
script_error.html|the console shows "Uncaught ReferenceError: no_such_function is not defined"
wide_code.html|is wider than its box
DEFECTS
if grep -q -e '^  clean\.html' -e '^  index\.html' <<<"$report"; then
  echo "FAILED: the check reported a defect on a page that has none"
  failed=1
fi
[ -s "$out/clean.png" ] || { echo "FAILED: no screenshot of the page made from docs/clean.md ($out/clean.png)"; failed=1; }
exit $failed
