#!/usr/bin/env bash
# docs_commands_mistakes.sh PYTHON BUILD: tests/docs_commands.py on tests/site/commands/, a page
# that names a command, lesson, option, variant and scripts the course does not have: each must
# be named, and the right commands on the same page must not be.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
report=$("$1" "$here/docs_commands.py" "$here/.." "$2" "$here/site/commands" 2>&1)
status=$?
printf '%s\n' "$report"
failed=0
[ $status = 1 ] || { echo "FAILED: docs_commands.py exited $status, not 1"; failed=1; }
while read -r words; do
  grep -q -F -- "$words" <<<"$report" || { echo "FAILED: not named: $words"; failed=1; }
done <<'MISTAKES'
lesson 04 has no variant v5_magic
lesson 04 has no option --tracing
there is no lesson 99
./course bench has no option --speed
./course check has no option --quiet-please
the course has no command 'frobnicate'
./course hint has no option --all
the script tools/draw_everything.py is missing
the script ../shared/tools/contract-check.py is outside the course
MISTAKES
[ "$(grep -c -e '^tests/site/commands/' <<<"$report")" = 9 ] || { echo "FAILED: a right command was named too"; failed=1; }
exit $failed
