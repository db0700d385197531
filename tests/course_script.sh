#!/usr/bin/env bash
# course_script.sh BUILD_DIR SCENARIO: the ./course script as a student meets it, in a copy of
# the course without git (as an unpacked archive is), built in BUILD_DIR. Scenarios:
#   progress  - list says passed after a passing check, "changed since it passed" after an edit
#   reset     - reset --yes puts the shipped file back and keeps the student's copy
#   watch     - watch without a terminal checks once and exits with the check's status
#   typo      - an unknown command names the nearest one on the first line
#   paths     - --input and --output-dir are read from the folder the command was typed in
#   compile   - a kernel that does not compile exits 3 in check, its compiler's lines inside the log
#   hints     - the task alone first (the README's), then one hint a call; after the last, where the whole text is
set -u
build=$1 scenario=$2
root=$(cd "$(dirname "$0")/.." && pwd)
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
cp -r "$root/course" "$root/lessons" "$root/exercises" "$root/solutions" "$root/tests" "$root/data" "$copy/"
mkdir -p "$copy/harness" && cp -r "$root/harness/cli" "$root/harness/tools" "$copy/harness/"  # tools: the task's one source
export COURSE_BUILD_DIR=$build COURSE_NO_APT=1
course=$copy/course
fail() { echo "FAIL: $*"; exit 1; }
e01=exercises/01_platform_setup/crop_invert_rgb.cl

case $scenario in
  progress)
    [ -d "$root/solutions" ] || { echo "skipped: this tree has no solutions/"; exit 77; }  # a handout
    cp "$root"/solutions/01_platform_setup/* "$copy/exercises/01_platform_setup/"
    "$course" check 01 >"$copy/log" 2>&1 || { cat "$copy/log"; fail "the solution does not pass check 01"; }
    "$course" list | grep -E '^  01 .* passed$' || fail "list does not say 01 passed"
    echo "// an edit" >>"$copy/$e01"
    "$course" list | grep -E '^  01 .*changed since it passed' || fail "list does not follow the edit"
    ;;
  reset)
    "$course" list >/dev/null
    echo "// my work" >>"$copy/$e01"
    "$course" reset 01 </dev/null >"$copy/log" 2>&1 && fail "reset without --yes and without a terminal went ahead"
    "$course" reset 01 --yes || fail "reset 01 --yes failed"
    cmp "$copy/$e01" "$root/$e01" || fail "the file is not back as shipped"
    grep -q "my work" "$copy"/out/reset/01_platform_setup-*/crop_invert_rgb.cl || fail "the student's copy was not kept"
    ;;
  watch)
    output=$("$course" watch 01 </dev/null 2>&1)
    status=$?
    [ $status = 1 ] || fail "watch without a terminal exited $status, not 1 (the shipped exercise fails)"
    grep -q "^Exercise 01" <<<"$output" || fail "watch did not run the check: $output"
    ;;
  typo)
    first=$("$course" chek 2>&1 | head -1)
    grep -q "did you mean 'check'" <<<"$first" || fail "first line: $first"
    ;;
  paths)
    mkdir -p "$copy/elsewhere"
    cp "$root/data/camera.png" "$copy/elsewhere/pic.png" || fail "no data/camera.png"
    (cd "$copy/elsewhere" && "$course" run 02 --input pic.png --output-dir results --repeat 1 >"$copy/log" 2>&1) ||
      { cat "$copy/log"; fail "run 02 --input pic.png from the picture's folder failed"; }
    [ -n "$(ls "$copy/elsewhere/results" 2>/dev/null)" ] || fail "nothing written to the typed folder's results/"
    ;;
  compile)
    echo "this is not OpenCL C" >>"$copy/exercises/02_naive_convolution/rectangular_convolution.cl"
    "$course" check 02 >"$copy/log" 2>&1
    status=$?
    [ $status = 3 ] || { cat "$copy/log"; fail "check exited $status, not 3"; }
    # The compiler's own summary ("1 error generated.") belongs inside the build log, not above it.
    awk '/--- build log of/ { exit } /errors? generated/ { found = 1 } END { exit !found }' "$copy/log" &&
      { cat "$copy/log"; fail "the compiler's summary line stands above the build log"; }
    ;;
  hints)
    total=$(grep -c '^## Hint' "$copy/lessons/01_platform_setup/exercise.md")
    # The task alone first, the same text as the exercise folder's README.md; then one hint a call.
    task=$("$course" hint 01)
    grep -q '^## Hint' <<<"$task" && fail "the first call printed a hint with the task"
    grep -qxF "$(head -n 1 <<<"$task")" "$copy/exercises/01_platform_setup/README.md" || fail "the task is not the README's"
    "$course" hint 01 | grep -q '^## Hint 1$' || fail "the second call did not print hint 1"
    for _ in $(seq $((total - 1))); do "$course" hint 01 >/dev/null; done
    "$course" hint 01 | grep -q "lessons/01_platform_setup/exercise.md" || fail "no pointer to the whole text"
    ;;
  *) fail "unknown scenario $scenario" ;;
esac
echo "ok: $scenario"
