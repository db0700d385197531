#!/usr/bin/env bash
# teaching_script.sh BUILD_DIR SCENARIO: the ./course commands an instructor uses, in a copy of the
# course without git, built in BUILD_DIR. Scenarios:
#   grade-solutions - grade --from a folder of solutions passes, and writes JUnit, JSON and CSV
#   grade-shipped   - grade of the shipped exercises fails each one and records nothing as passed
#   grade-timeout   - a kernel that never ends is stopped at the time limit, and grading goes on
#   check-from      - check NN --from DIR reports the check and records nothing as passed
#   handout         - handout writes a git repository without solutions/ and *_answers.* files,
#                     which configures and whose lessons' tests compile
#   tour-device     - tour with a device that matches nothing stops once, before the first lesson
#   tour-pause      - tour --pause on a terminal waits after a lesson; q ends it with the summary,
#                     every line of the tour's own within 80 columns
#   slides          - slides of two lessons build, and every slide fits 1280x720 in Chromium
#                     (skipped without pandoc or Chromium)
set -u
build=$1 scenario=$2
root=$(cd "$(dirname "$0")/.." && pwd)
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
cp -r "$root/course" "$root/lessons" "$root/exercises" "$root/tests" "$root/data" "$copy/"
# Grading the solutions, or making a handout of a tree, needs solutions/: a handout has none.
case $scenario in
  grade-solutions | grade-timeout | check-from | handout)
    [ -d "$root/solutions" ] || { echo "skipped: this tree has no solutions/"; exit 77; }
    cp -r "$root/solutions" "$copy/" ;;
esac
export COURSE_BUILD_DIR=$build COURSE_NO_APT=1
course=$copy/course
fail() { echo "FAIL: $*"; exit 1; }
show() { cat "$copy/log"; }

case $scenario in
  grade-solutions)
    "$course" grade 01 02 --from "$copy/solutions" --junit "$copy/r/junit.xml" --json "$copy/r/grade.json" \
      --csv "$copy/r/grade.csv" >"$copy/log" 2>&1 || { show; fail "grading the solutions did not exit 0"; }
    show
    grep -q '^2 of 2 exercises pass' "$copy/log" || fail "no '2 of 2 exercises pass' line"
    grep -q '<testsuites name="course grade" tests="2" failures="0"' "$copy/r/junit.xml" || fail "JUnit: $(cat "$copy/r/junit.xml")"
    [ "$(grep -c '<testcase ' "$copy/r/junit.xml")" = 2 ] || fail "JUnit has not two test cases"
    grep -q '"passed": 2,' "$copy/r/grade.json" || fail "JSON: $(cat "$copy/r/grade.json")"
    grep -q '"number": "02", "name": "02_naive_convolution", "passed": true' "$copy/r/grade.json" || fail "JSON row of 02"
    [ "$(wc -l <"$copy/r/grade.csv")" = 3 ] || fail "CSV has not a header and two rows"
    grep -q '^"[^"]*solutions",01,01_platform_setup,true,' "$copy/r/grade.csv" || fail "CSV: $(cat "$copy/r/grade.csv")"
    [ ! -e "$copy/.course/passed" ] || fail "grade recorded a pass"
    ;;
  grade-shipped)
    "$course" grade 01 06 --junit "$copy/junit.xml" >"$copy/log" 2>&1
    status=$?
    show
    [ $status = 1 ] || fail "grading the shipped exercises exited $status, not 1"
    [ "$(grep -c '^  0[16] .* FAILED ' "$copy/log")" = 2 ] || fail "not both exercises FAILED"
    grep -q '^0 of 2 exercises pass' "$copy/log" || fail "no '0 of 2 exercises pass' line"
    grep -q 'failures="2"' "$copy/junit.xml" || fail "JUnit does not count two failures"
    [ "$(grep -c '<failure message="[^"]' "$copy/junit.xml")" = 2 ] || fail "a failure without its cause"
    [ ! -e "$copy/.course/passed" ] || fail "grade recorded something as passed"
    ;;
  grade-timeout)
    # Exercise 01 whose kernel never ends (a volatile flag the compiler cannot reason away), 02 solved.
    mkdir -p "$copy/student"
    cp -r "$copy/solutions/01_platform_setup" "$copy/solutions/02_naive_convolution" "$copy/student/"
    sed -i 's|^  const int x = (int)get_global_id(0);|  volatile int forever = 1;\n  while (forever) {}\n&|' \
      "$copy/student/01_platform_setup/crop_invert_rgb.cl"
    grep -q 'while (forever)' "$copy/student/01_platform_setup/crop_invert_rgb.cl" || fail "the endless loop was not inserted"
    "$course" grade 01 02 --from "$copy/student" --time-limit 8 --json "$copy/grade.json" >"$copy/log" 2>&1
    status=$?
    show
    # The seconds grading spent on 01 (the build before grading is not counted).
    took=$(sed -n 's/.*"number": "01".*"seconds": \([0-9]*\).*/\1/p' "$copy/grade.json")
    [ $status = 1 ] || fail "grading exited $status, not 1"
    grep -q '^  01 .* FAILED ' "$copy/log" || fail "01 is not FAILED"
    grep -q 'ran out of time: stopped after 8 s' "$copy/log" || fail "01 is not reported as out of time"
    grep -q '^  02 .* passed ' "$copy/log" || fail "grading did not go on to 02"
    grep -q '"cause": "ran out of time' "$copy/grade.json" || fail "the JSON does not say it ran out of time"
    [ -n "$took" ] && [ "$took" -lt 15 ] || fail "exercise 01 took ${took:-?} s: the limit of 8 s did not stop its check"
    ;;
  check-from)
    "$course" check 01 --from "$copy/solutions" >"$copy/log" 2>&1 || { show; fail "check 01 --from solutions failed"; }
    grep -q "nothing is recorded" "$copy/log" || { show; fail "check --from does not say that nothing is recorded"; }
    "$course" list | grep -E '^  01 .* not yet' || fail "check --from recorded a pass"
    "$course" check 01 --from "$copy/nowhere" >"$copy/log" 2>&1
    [ $? = 2 ] || { show; fail "check --from a missing folder did not exit 2"; }
    ;;
  handout)
    # From the course itself: a clone's last commit (or, without git, the tree as it is).
    "$root/course" handout "$copy/student" >"$copy/log" 2>&1 || { show; fail "handout failed"; }
    h=$copy/student
    [ ! -e "$h/solutions" ] || fail "the handout has solutions/"
    [ "$(git -C "$h" rev-list --count HEAD)" = 1 ] || fail "the handout is not a git repository with one commit"
    grep -v '^#' "$h/tests/mistakes.txt" | grep -q . && fail "tests/mistakes.txt still holds solution lines"
    [ -z "$(find "$h" -name '*_answers.*' -not -path '*/.git/*')" ] || fail "the handout has *_answers.* files"
    [ "$(grep -c '"points": 10' "$h/.github/classroom/autograding.json")" = \
      "$(ls -d "$root"/lessons/*/check.cpp | wc -l)" ] || fail "autograding.json has not one test per exercise"
    grep -q 'upload-artifact' "$h/.github/workflows/grade.yml" || fail "the workflow uploads no report"
    # (tests/handout_scan.py looks for the answers' fragments in a handout: a test of its own.)
    # It configures, and the lessons' tests compile without their *_answers.cpp.
    cmake -S "$h" -B "$copy/hb" -DCMAKE_BUILD_TYPE=Release >"$copy/log" 2>&1 || { show; fail "the handout does not configure"; }
    for f in "$h"/tests/test_[0-9][0-9]_*.cpp; do
      # The command's JSON string, unescaped (\\ and \" each stand for the character after the \).
      cmd=$(awk -v f="$f" '$0 ~ "\"command\": .*" && $0 ~ f {
          sub(/^ *"command": "/, ""); sub(/",?$/, ""); out = ""
          for (i = 1; i <= length($0); i++) { c = substr($0, i, 1); if (c == "\\") { i++; c = substr($0, i, 1) }; out = out c }
          print out; exit }' "$copy/hb/compile_commands.json")
      [ -n "$cmd" ] || fail "no compile command for $f"
      (cd "$copy/hb/tests" && eval "$cmd -fsyntax-only -o /dev/null") || fail "$f does not compile in the handout"
    done
    ;;
  tour-device)
    "$course" tour --pause --device nosuch </dev/null >"$copy/log" 2>&1
    status=$?
    show
    [ $status = 2 ] || fail "tour exited $status, not 2"
    [ "$(grep -c 'matches no OpenCL device' "$copy/log")" = 1 ] || fail "not one message about the device"
    grep -q 'Lesson 01' "$copy/log" && fail "a lesson ran"
    ;;
  tour-pause)
    command -v script >/dev/null || { echo "skipped: no script(1) to give the tour a terminal"; exit 77; }
    printf 'q\n' | script -qec "$course tour --pause" /dev/null >"$copy/log" 2>&1
    tr -d '\r' <"$copy/log" >"$copy/clean"
    cat "$copy/clean"
    grep -q 'Enter: lesson 02' "$copy/clean" || fail "the tour did not wait before lesson 02"
    grep -q 'Lesson 02' "$copy/clean" && fail "q did not stop the tour"
    grep -qE '^  01 platform_setup +verified' "$copy/clean" || fail "no summary row of lesson 01"
    # The tour's own lines (banners, pause, summary) fit in 80 columns.
    awk '/^=====|^Tour summary|^  NN |^  [0-9][0-9] [a-z]|^Enter: / && length($0) > 80 { print; bad = 1 } END { exit bad }' \
      "$copy/clean" || fail "a line of the tour is wider than 80 columns"
    ;;
  slides)
    command -v pandoc >/dev/null || { echo "skipped: no pandoc"; exit 77; }
    cp -r "$root/docs" "$root/harness" "$copy/"
    COURSE_BUILD_DIR=$copy/build "$course" slides 01 03 >"$copy/log" 2>&1
    status=$?
    show
    [ -s "$copy/build/slides/03_local_memory_tiling.html" ] || fail "no slides of lesson 03"
    grep -q '<img src="data:image/png;base64' "$copy/build/slides/03_local_memory_tiling.html" ||
      fail "the slides do not hold their pictures (they must work offline)"
    grep -q 'each fits 1280x720' "$copy/log" || { echo "skipped: no Chromium to check the slides"; exit 77; }
    [ $status = 0 ] || fail "slides exited $status"
    [ "$(grep -c 'each fits 1280x720' "$copy/log")" = 2 ] || fail "not every lesson's slides fit"
    ;;
  *) fail "unknown scenario $scenario" ;;
esac
echo "ok: $scenario"
