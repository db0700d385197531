#!/usr/bin/env bash
# check_mistakes.sh BUILD_DIR GUARD_LAYER NN: makes each of exercise NN's typical mistakes listed
# in tests/mistakes.txt in a copy of its solution, runs the exercise's check on that copy, and
# passes when every report fails, names the listed cause in its first failing case, says nowhere
# the contradicting cause a "[not: ...]" names, and fits a terminal of 80 x 24. In tests/mistakes.txt, \n in a field stands for a line break (a mistake that moves a
# line). A mistake in C++ (a .hpp, compiled into the check) runs the program tests/CMakeLists.txt
# made for it, check_NN_mistake_K, built here. A tree without solutions/ skips the test (exit 77).
set -u
build=$1 layer=$2 n=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
solution=$(ls -d "$root"/solutions/"$n"_* 2>/dev/null | head -1)
[ -n "$solution" ] || { echo "skipped: this tree has no solutions/"; exit 77; }
folder=$(basename "$solution")
program=$build/bin/check_$n
[ -x "$build/bin/check_${n}_solution" ] && program=$build/bin/check_${n}_solution
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0 count=0
# Whether the checks can run Oclgrind, as they decide it (harness/oclgrind.cpp).
if [ -n "${COURSE_OCLGRIND:-}" ]; then
  oclgrind=false; [ "$COURSE_OCLGRIND" != none ] && [ -x "$COURSE_OCLGRIND" ] && oclgrind=true
else
  oclgrind=false; command -v oclgrind >/dev/null 2>&1 && oclgrind=true
fi
while IFS= read -r line; do
  [[ $line =~ ^$n\ \| ]] || continue
  # NN | file | text of the solution | the mistake's text | what the report must say
  rest=${line#* | }
  file=${rest%% | *}; rest=${rest#* | }
  from=${rest%% | *}; rest=${rest#* | }
  to=${rest%% | *}; says=${rest#* | }
  # "X [not: Z]": the report says X and nowhere Z, a cause that would contradict it.
  never=""
  if [[ $says =~ ^(.*)\ \[not:\ (.*)\]$ ]]; then
    says=${BASH_REMATCH[1]} never=${BASH_REMATCH[2]}
  fi
  # "X [no Oclgrind: Y]": the report says X where Oclgrind runs (the tile drawn), Y where it does not;
  # Y "(passes)": only Oclgrind sees the mistake (a read whose value no output uses), so without it
  # the check passes.
  # (A "[change: C]" may have its own "[no Oclgrind: Y]": without Oclgrind the search runs every
  # change on the device, too slowly to reach some within its time.)
  if [[ $says =~ ^(.*)\ \[no\ Oclgrind:\ (.*)\]$ ]]; then
    says=${BASH_REMATCH[1]}
    $oclgrind || says=${BASH_REMATCH[2]}
  fi
  # "[change: C]": no typical mistake names it; the search for one small change must find it, and
  # the report says C (the search runs only for these lines: it takes seconds a mistake).
  search=0 change=""
  if [[ $says =~ ^\[change:\ (.*)\]$ ]]; then
    search=120 change=${BASH_REMATCH[1]} says="One small change makes every case pass"
  fi
  from=${from//\\n/$'\n'} to=${to//\\n/$'\n'}  # \n in a field is a line break
  count=$((count + 1))
  rm -rf "$scratch/solutions" && mkdir -p "$scratch/solutions" && cp -r "$solution" "$scratch/solutions/"
  source=$(cat "$solution/$file")
  if [[ $source != *"$from"* ]]; then
    echo "FAIL: '$from' is no longer in solutions/$folder/$file"; failures=$((failures + 1)); continue
  fi
  printf '%s\n' "${source/"$from"/"$to"}" >"$scratch/solutions/$folder/$file"
  from_dir=$scratch/solutions run=$program
  if [[ $file == *.hpp ]]; then
    # C++ is compiled into the check: the mistake's own program, with its copy (tests/CMakeLists.txt);
    # the kernels it loads at run time come from the scratch copy, which has every file of the folder.
    run=$build/bin/check_${n}_mistake_$count
    if ! log=$(cmake --build "$build" --target "check_${n}_mistake_$count" 2>&1); then
      echo "FAIL: building check_${n}_mistake_$count failed:"; tail -n 20 <<<"$log"; failures=$((failures + 1)); continue
    fi
  fi
  report=$(COURSE_CHANGE_SEARCH=$search LINES=24 COLUMNS=80 "$here/with_guard_layer.sh" "$layer" "$run" --from "$from_dir" --report-dir "$scratch/report" 2>&1)
  status=$?
  # The first failing case's block: from its [FAIL] line to the next case's line.
  first=$(awk '/^  \[FAIL\]/ { if (seen) exit; seen = 1 } seen' <<<"$report")
  lines=$(fold -w 80 <<<"$report" | wc -l)  # rows of an 80-column terminal
  if [ "$says" = "(passes)" ]; then  # only Oclgrind sees this mistake: without it the check passes
    if [ $status = 0 ]; then echo "ok: '$to' passes without Oclgrind, as expected"
    else echo "FAIL: '$to' fails without Oclgrind, where only Oclgrind can see it:"; echo "$first" | head -20
      failures=$((failures + 1)); fi
  elif [ $status = 0 ]; then
    echo "FAIL: '$to' passes the check"; failures=$((failures + 1))
  elif [ -n "$change" ] && ! tr -s ' \n' '  ' <<<"$report" | grep -qF -- "$change"; then
    echo "FAIL: '$to': the search for one small change does not say '$change':"; echo "$report" | tail -12
    failures=$((failures + 1))
  elif [ -z "$change" ] && ! tr -s ' \n' '  ' <<<"$first" | grep -qiF -- "$says"; then  # a sentence may wrap
    echo "FAIL: '$to': the first failing case does not say '$says':"; echo "$first" | head -20; failures=$((failures + 1))
  elif [ -n "$never" ] && tr -s ' \n' '  ' <<<"$report" | grep -qiF -- "$never"; then
    echo "FAIL: '$to': the report also says '$never', which contradicts '$says':"; echo "$report" | head -30
    failures=$((failures + 1))
  elif [ "$lines" -gt 24 ]; then
    echo "FAIL: '$to': the report takes $lines rows of an 80x24 terminal:"; echo "$report"; failures=$((failures + 1))
  else
    echo "ok: '$to' -> $says ($lines lines)"
  fi
done <"$here/mistakes.txt"
[ $count -gt 0 ] || { echo "FAIL: tests/mistakes.txt lists no mistake for exercise $n"; exit 1; }
[ $failures = 0 ]
