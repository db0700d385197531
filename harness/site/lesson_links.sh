#!/usr/bin/env bash
# lesson_links.sh PAGE.md: Doxygen's input filter for the site's Markdown (docs/Doxyfile.in). It
# prints the page as it is, with two additions: on a lesson's page, links to the previous and next
# lessons under its title and at its end, in the order of lessons/lessons.txt (the one list of
# lessons); on every page, the site's small script (harness/site/site.js: pictures open at full
# size when clicked).
set -uo pipefail
page=$1
docs=$(dirname "$page")
manifest=$(dirname "${BASH_SOURCE[0]}")/../../lessons/lessons.txt
name=$(basename "$page" .md)

# A page's reference: its title's {#label}, as Doxygen's @ref takes it.
label_of() { head -n 1 "$docs/$1.md" 2>/dev/null | sed -n 's/^#.*{#\([A-Za-z0-9_]*\)} *$/\1/p'; }

previous="" next="" found=0
for folder in $(awk -F'|' '/^[0-9][0-9] *\|/ { gsub(/^ +| +$/, "", $2); print $2 }' "$manifest"); do
  [ -f "$docs/$folder.md" ] || continue
  if [ "$folder" = "$name" ]; then found=1
  elif [ $found = 0 ]; then previous=$folder
  elif [ -z "$next" ]; then next=$folder
  fi
done

links=""
if [ $found = 1 ]; then
  [ -n "$previous" ] && [ -n "$(label_of "$previous")" ] && links="Previous: @ref $(label_of "$previous")"
  [ -n "$next" ] && [ -n "$(label_of "$next")" ] && links="${links:+$links &emsp; }Next: @ref $(label_of "$next")"
fi
awk -v links="$links" '
  NR == 1 { print; if (links != "") { print ""; print "<div class=\"lesson-links\">" links "</div>" }; next }
  { print }
  END {
    if (links != "") { print ""; print "<div class=\"lesson-links\">" links "</div>" }
    print ""
    print "\\htmlonly <script type=\"text/javascript\" src=\"site.js\"></script> \\endhtmlonly"
  }' "$page"
