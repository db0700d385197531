#!/usr/bin/env bash
# oclgrind_check.sh CHECK_PROGRAM FROM_DIR KERNEL_FILE TEXT [PATTERN...]
# Runs an exercise's check on a broken kernel (FROM_DIR holds the exercise's folder) with its
# Oclgrind run, and passes when the check fails, its report contains TEXT, and for each PATTERN
# (a line of KERNEL_FILE, found with grep -n) it names that line: "line N". Prints how long the
# whole check took. Skipped (77) where Oclgrind is not installed.
set -u
program=$1 from=$2 kernel=$3 text=$4
shift 4
command -v oclgrind >/dev/null 2>&1 || { echo "skipped: Oclgrind is not installed"; exit 77; }
[ -f "$kernel" ] || { echo "skipped: $kernel is not in this tree"; exit 77; }
start=$(date +%s%N)
output=$("$program" --from "$from" --expect fail --oclgrind --report-dir "$(mktemp -d)" 2>&1)
status=$?
ms=$((($(date +%s%N) - start) / 1000000))
printf '%s\n' "$output"
echo "the whole check took $((ms / 1000)).$(printf %03d $((ms % 1000))) s"
fail=0
[ $status = 0 ] || { echo "expected the check to fail (exit 0 with --expect fail), got exit $status"; fail=1; }
# The report wraps its sentences: look for the words with line breaks and indents taken out.
flat=$(tr '\n' ' ' <<<"$output" | tr -s ' ')
grep -qF -- "$text" <<<"$flat" || { echo "expected the report to contain: $text"; fail=1; }
for pattern in "$@"; do
  line=$(grep -nF -- "$pattern" "$kernel" | head -n 1 | cut -d: -f1)
  [ -n "$line" ] || { echo "the kernel has no line with: $pattern"; fail=1; continue; }
  grep -qE "line $line([^0-9]|\$)" <<<"$flat" || { echo "expected the report to name line $line ($pattern)"; fail=1; }
done
exit $fail
