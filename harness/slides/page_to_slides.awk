# page_to_slides.awk: a lesson's page (docs/NN_name.md) as the Markdown of its slides, for pandoc.
# The page is the one source: the first slide is its title, opening paragraph and first commands;
# then one slide per section (## heading) with the section's first paragraph (cut at a sentence
# when long) or first list items, and its first picture, else its first table (the first rows),
# else its first commands. Doxygen's own syntax (@ref, {#label}, \f$) becomes plain text.

function plain(s) {
  gsub(/ *\{#[A-Za-z0-9_]+\}/, "", s)
  while (match(s, /@ref [A-Za-z0-9_]+ "[^"]*"/)) {
    t = substr(s, RSTART, RLENGTH); sub(/^@ref [A-Za-z0-9_]+ "/, "", t); sub(/"$/, "", t)
    s = substr(s, 1, RSTART - 1) t substr(s, RSTART + RLENGTH)
  }
  gsub(/@ref lesson_/, "lesson ", s)
  gsub(/@ref /, "", s)
  gsub(/\\f\$/, "", s)
  return s
}

function shorten(s, limit,   cut, i) {
  if (length(s) <= limit) return s
  cut = 0
  for (i = limit; i > limit / 3; i--)
    if (substr(s, i, 2) == ". " || substr(s, i, 2) == ": ") { cut = i; break }
  if (cut) return substr(s, 1, cut)
  s = substr(s, 1, limit); sub(/ [^ ]*$/, "", s)
  return s " ..."
}

# Emits the slide gathered so far.
function flush(   k) {
  if (heading == "") return
  print "## " heading
  print ""
  if (para != "") { print shorten(para, (picture != "" || table_rows > 0) ? 330 : 520); print "" }
  shown = (picture != "" || table_rows > 0) ? 3 : 4  # beside a picture or table, fewer and shorter items
  for (k = 1; k <= items && k <= shown; k++) print shorten(item[k], shown == 3 ? 130 : 200)
  if (items > 0) print ""
  if (picture != "") { print picture; print "" }
  else if (table_rows > 0) { for (k = 1; k <= table_rows; k++) print table[k]; print "" }
  else if (code_lines > 0) { for (k = 1; k <= code_lines; k++) print code[k]; print "" }
  heading = ""; para = ""; para_done = 0; items = 0; in_list = 0; list_done = 0; picture = ""; table_rows = 0; code_lines = 0; code_done = 0; table_done = 0
}

BEGIN { in_fence = 0 }

# Fenced code is skipped whole (the pages use indented blocks for commands).
/^```/ { in_fence = !in_fence; if (in_para) { in_para = 0; para_done = 1 }; next }
in_fence { next }

NR == 1 && /^# / { title = plain(substr($0, 3)); heading = title; next }

/^## / { flush(); heading = plain(substr($0, 4)); in_para = 0; in_code = 0; next }
/^#/ { if (in_para) { in_para = 0; para_done = 1 }; next }

/^$/ {
  if (in_list) { in_list = 0; list_done = 1 }
  if (in_para) { in_para = 0; para_done = 1 }
  if (in_code) { in_code = 0; code_done = 1 }
  if (in_table) { in_table = 0; table_done = 1 }
  next
}

/^    / {
  if (in_para) { in_para = 0; para_done = 1 }
  if (!code_done && code_lines < 6) { code[++code_lines] = $0; in_code = 1 }
  next
}

/^!\[/ {
  if (in_para) { in_para = 0; para_done = 1 }
  if (picture == "") picture = plain($0)
  next
}

/^\|/ {
  if (in_para) { in_para = 0; para_done = 1 }
  if (!table_done && table_rows < 8) { table[++table_rows] = plain($0); in_table = 1 }
  next
}

/^<!--/ { next }
# Doxygen's raw HTML (the collapsed sections' <details> lines) has no place on a slide.
/^\\htmlonly/ { next }

# A list: its first four items, each on its own line (a list in place of the first paragraph).
/^([-*]|[0-9]+\.) / {
  if (in_para) { in_para = 0; para_done = 1 }
  if (para != "" || items >= 4 || list_done) next
  item[++items] = plain($0); in_list = 1
  next
}
in_list && /^ +[^ ]/ { line = plain($0); sub(/^ +/, "", line); item[items] = item[items] " " line; next }

{
  if (in_list) { in_list = 0; list_done = 1 }
  if (para_done || items > 0) next
  line = plain($0)
  sub(/^ +/, "", line)
  para = in_para ? para " " line : line
  in_para = 1
}

END { flush() }
