#!/usr/bin/env bash
# teaching_script.sh BUILD_DIR SCENARIO: the ./course commands an instructor uses, in a copy of the
# course without git, built in BUILD_DIR. Scenarios:
#   grade-solutions - grade --from a folder of solutions passes, and writes JUnit, JSON and CSV
#   grade-shipped   - grade of the shipped exercises fails each one and records nothing as passed
#   grade-timeout   - a kernel that never ends is stopped at the time limit, and grading goes on
#   grade-junit     - a failure whose message holds < > & and quotes gives JUnit a strict XML parser
#                     reads, the message whole (the compiler's first error, the folder's name in it)
#   grade-roster    - grade --roster of three students (one solved, one endless kernel, one that
#                     does not compile): a CSV row of points each, each one's logs and valid JUnit,
#                     and a second run skips them all
#   check-from      - check NN --from DIR reports the check and records nothing as passed
#   handout         - handout writes a git repository without solutions/ and *_answers.* files,
#                     which configures and whose lessons' tests compile
#   tour-device     - tour with a device that matches nothing stops once, before the first lesson
#   tour-pause      - tour --pause on a terminal waits after a lesson; q ends it with the summary,
#                     every line of the tour's own within 80 columns
#   slides          - every lesson has a deck, every deck builds with 15-25 slides that pass the
#                     check in Chromium, and decks with a missing image, an overflowing slide,
#                     small labels, cut text, small text, a broken image, a label cut by a zoom
#                     or a typed time fail naming the slide
#                     (skipped without pandoc or Chromium)
set -u
build=$1 scenario=$2
root=$(cd "$(dirname "$0")/.." && pwd)
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
cp -r "$root/course" "$root/lessons" "$root/exercises" "$root/tests" "$root/data" "$copy/"
mkdir -p "$copy/harness" && cp -r "$root/harness/cli" "$copy/harness/" && cp -r "$root/teaching" "$copy/"
# Grading the solutions, or making a handout of a tree, needs solutions/: a handout has none.
case $scenario in
  grade-solutions | grade-timeout | grade-junit | grade-roster | check-from | handout)
    [ -d "$root/solutions" ] || { echo "skipped: this tree has no solutions/"; exit 77; }
    cp -r "$root/solutions" "$copy/" ;;
esac
export COURSE_BUILD_DIR=$build COURSE_NO_APT=1
course=$copy/course
fail() { echo "FAIL: $*"; exit 1; }
show() { cat "$copy/log"; }
# endless_kernel FILE: exercise 01's kernel FILE made to loop forever, on a value it writes to global
# memory through a volatile pointer, so that no compiler may remove the loop (a private volatile
# flag is not enough: one GPU compiler keeps it in a register and drops the loop).
endless_kernel() {
  sed -i 's|^  const int x = (int)get_global_id(0);|  volatile __global float* first = output;\n  first[0] = (float)width;\n  while (first[0] > 0.0f) first[0] = first[0] + 1.0f;\n&|' "$1"
  grep -q 'while (first\[0\] > 0.0f)' "$1" || fail "the endless loop was not inserted"
}

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
    # A field is quoted where CSV needs it (a comma, a quote, a line break in it), not otherwise.
    grep -q '^[^,]*solutions,01,01_platform_setup,true,' "$copy/r/grade.csv" || fail "CSV: $(cat "$copy/r/grade.csv")"
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
    # Exercise 01 whose kernel never ends, 02 solved.
    mkdir -p "$copy/student"
    cp -r "$copy/solutions/01_platform_setup" "$copy/solutions/02_naive_convolution" "$copy/student/"
    endless_kernel "$copy/student/01_platform_setup/crop_invert_rgb.cl"
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
  grade-junit)
    # Exercise 01 that does not compile, in a folder whose name holds every character XML escapes.
    student="$copy/class <1> & \"two\" 'three'"
    mkdir -p "$student"
    cp -r "$copy/solutions/01_platform_setup" "$student/"
    sed -i 's|^  const int x = (int)get_global_id(0);|  int broken = undeclared_name;\n&|' \
      "$student/01_platform_setup/crop_invert_rgb.cl"
    "$course" grade 01 --from "$student" --junit "$copy/junit.xml" >"$copy/log" 2>&1
    status=$?
    show
    [ $status = 1 ] || fail "grading exited $status, not 1"
    python3 - "$copy/junit.xml" "$student" <<'PY' || fail "the JUnit file: $(cat "$copy/junit.xml")"
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()  # a strict parser: raises on a file that is not well-formed
message = root.find(".//failure").get("message")
# The compiler names the file up to the folder's double quote; the property holds the whole name.
assert "class <1> & " in message and "'undeclared_name'" in message, message
assert root.find(".//property[@name='from']").get("value") == sys.argv[2]
print("the failure's message, as parsed:", message)
PY
    ;;
  grade-roster)
    # Three students: ada solved both, bob's 01 never ends, cy's 01 does not compile.
    class=$copy/class
    for id in ada bob cy; do
      mkdir -p "$class/$id"
      cp -r "$copy/solutions/01_platform_setup" "$copy/solutions/02_naive_convolution" "$class/$id/"
    done
    endless_kernel "$class/bob/01_platform_setup/crop_invert_rgb.cl"
    echo "this is not OpenCL C" >>"$class/cy/01_platform_setup/crop_invert_rgb.cl"
    "$course" grade 01 02 --roster "$class" --time-limit 8 >"$copy/log" 2>&1
    status=$?
    show
    [ $status = 0 ] || fail "grading the class exited $status, not 0"
    csv=$copy/out/grade/grades.csv
    [ "$(cat "$csv")" = "id,01_platform_setup,02_naive_convolution,total
ada,10,10,20
bob,0,10,10
cy,0,10,10" ] || fail "the class's CSV: $(cat "$csv")"
    for id in ada bob cy; do
      for f in 01_platform_setup.log 02_naive_convolution.log junit.xml grade.json; do
        [ -s "$copy/out/grade/$id/$f" ] || fail "no out/grade/$id/$f"
      done
    done
    grep -q 'does not compile' "$copy/out/grade/cy/01_platform_setup.log" || fail "cy's log does not hold the check's report"
    python3 - "$copy/out/grade" <<'PY' || fail "a student's JUnit"
import sys
import xml.etree.ElementTree as ET
failures = {}
for student in ("ada", "bob", "cy"):
    root = ET.parse(f"{sys.argv[1]}/{student}/junit.xml").getroot()  # a strict parser
    failures[student] = {case.get("name"): (f.get("type"), f.get("message"))
                         for case in root.iter("testcase") for f in case.findall("failure")}
assert failures["ada"] == {}, failures["ada"]
assert failures["bob"]["01_platform_setup"][0] == "timeout", failures["bob"]
kind, message = failures["cy"]["01_platform_setup"]
# The compiler's own first error line (PoCL's and Mesa's word it differently: "error:" after the
# file's name and line, or first).
assert kind == "failed" and "does not compile:" in message and "error:" in message \
    and "crop_invert_rgb.cl" in message, message
PY
    # bob's endless kernel was stopped at the limit: his 01 took about 8 s, not the 120 s default.
    took=$(sed -n 's/.*"number": "01".*"seconds": \([0-9]*\).*/\1/p' "$copy/out/grade/bob/grade.json")
    [ -n "$took" ] && [ "$took" -lt 15 ] || fail "bob's 01 took ${took:-?} s: the limit of 8 s did not stop it"
    # Grading again at the same content skips every student, and says so.
    "$course" grade 01 02 --roster "$class" --time-limit 8 >"$copy/log" 2>&1 || { show; fail "grading again failed"; }
    [ "$(grep -c 'graded before at this content' "$copy/log")" = 3 ] || { show; fail "grading again did not skip all three"; }
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
    [ "$(grep -c '^[0-9][0-9]$' "$h/.github/classroom/schedule.txt")" = \
      "$(ls -d "$root"/lessons/*/check.cpp | wc -l)" ] || fail "the schedule does not list every exercise"
    grep -q 'grade --schedule .github/classroom/schedule.txt' "$h/.github/workflows/grade.yml" ||
      fail "the workflow does not grade the schedule's exercises"
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
    # The charts the decks show are drawn from the recorded runs by the course's tool, built with it.
    mkdir -p "$copy/build/bin" && cp "$build/bin/course-record-chart" "$copy/build/bin/"
    COURSE_BUILD_DIR=$copy/build "$course" slides >"$copy/log" 2>&1
    status=$?
    show
    decks=$(ls "$copy"/docs/slides/*.md | wc -l)
    [ "$decks" -ge 1 ] || fail "no decks in docs/slides/"
    # Every lesson has its deck (built and checked with the others below).
    for lesson in "$copy"/lessons/[0-9][0-9]_*/; do
      name=$(basename "$lesson")
      [ -f "$copy/docs/slides/$name.md" ] || fail "lesson $name has no deck docs/slides/$name.md"
    done
    [ -s "$copy/build/slides/03_local_memory_tiling.html" ] || fail "no slides of lesson 03"
    grep -q '<img src="data:image/png;base64' "$copy/build/slides/03_local_memory_tiling.html" ||
      fail "the slides do not hold their pictures (they must work offline)"
    # The Exercise slides hold the task and hints of exercise.md, as ./course hint prints them.
    title=$(head -n 1 "$copy/lessons/03_local_memory_tiling/exercise.md" | sed 's/^# //')
    grep -q "$title" "$copy/build/slides/03_local_memory_tiling.html" || fail "no slide titled '$title'"
    grep -q 'Hint 2\.' "$copy/build/slides/03_local_memory_tiling.html" || fail "the hints are not on the slides"
    grep -q 'class="notes"' "$copy/build/slides/03_local_memory_tiling-notes.html" || fail "no speaker notes"
    grep -q 'each fits 1280x720' "$copy/log" || { echo "skipped: no Chromium to check the slides"; exit 77; }
    [ $status = 0 ] || fail "slides exited $status"
    [ "$(grep -c 'each fits 1280x720' "$copy/log")" = "$decks" ] || fail "not every deck passes the check"
    for count in $(sed -n 's/^  [0-9][0-9]_[a-z0-9_]*: \([0-9]*\) slides, .*/\1/p' "$copy/log"); do
      [ "$count" -ge 15 ] && [ "$count" -le 25 ] || fail "a deck of $count slides, not 15 to 25"
    done
    # Decks with one defect each: the command names the slide and exits 1.
    mkdir -p "$copy/bad"
    printf -- '---\ntitle: T\n---\n\n## Fine\n\ntext\n\n## Lost\n\n![gone](../docs/images/no_such.svg)\n' >"$copy/bad/91_missing.md"
    { printf -- '---\ntitle: T\n---\n\n## Too long\n\n'; for i in $(seq 30); do echo "- line $i"; done; } >"$copy/bad/92_overflow.md"
    printf -- '---\ntitle: T\n---\n\n## Small labels\n\n![whole](../docs/images/06_network.svg)\n' >"$copy/bad/93_small.md"
    printf -- '---\ntitle: T\n---\n\n## Cut\n\nA sentence cut short ...\n' >"$copy/bad/94_cut.md"
    printf -- '---\ntitle: T\n---\n\n## Tiny\n\n<p style="font-size: 12px">small print</p>\n' >"$copy/bad/95_tiny.md"
    printf -- '---\ntitle: T\n---\n\n## Zoomed\n\n![zoom](../docs/images/06_network.svg){viewbox="15 55 415 255"}\n' >"$copy/bad/97_zoom.md"
    printf -- '---\ntitle: T\n---\n\n## Timed\n\n- it took 8.63 ms\n' >"$copy/bad/98_timed.md"
    echo "not a picture" >"$copy/bad/broken.png"
    printf -- '---\ntitle: T\n---\n\n## Broken\n\n![broken](broken.png)\n' >"$copy/bad/96_broken.md"
    COURSE_BUILD_DIR=$copy/build "$course" slides "$copy"/bad/9*.md >"$copy/log" 2>&1
    status=$?
    show
    [ $status = 1 ] || fail "the defective decks exited $status, not 1"
    for expect in "slide 3, Lost:" "image ../docs/images/no_such.svg does not exist" \
                  "slide 2, Too long:" "needs 1280x" "slide 2, Small labels:" "label " \
                  "slide 2, Cut:" 'ends in "..."' "slide 2, Tiny:" '"small print" is 12 px' \
                  "slide 2, Broken:" 'image "broken" does not load' \
                  "slide 2, Zoomed:" 'label "max" is cut at its edge' \
                  "slide 2, Timed:" "a measured number, '8.63 ms'"; do
      grep -qF -- "$expect" "$copy/log" || fail "no line naming '$expect'"
    done
    [ "$(grep -c 'each fits' "$copy/log")" = 0 ] || fail "a defective deck passed"
    # Not a deck: a message and exit 2.
    COURSE_BUILD_DIR=$copy/build "$course" slides 77 >"$copy/log" 2>&1
    status=$?
    show
    [ $status = 2 ] || fail "a lesson without a deck exited $status, not 2"
    grep -q 'lesson 77 has no deck' "$copy/log" || fail "no message for a lesson without a deck"
    # A deck that asks for more hints than its exercise has: a message that fits 80 columns, exit 2.
    printf -- '---\ntitle: T\n---\n\n## A\n\ntext\n\n<!-- exercise hints=1-9 -->\n' >"$copy/bad/03_hints.md"
    COURSE_BUILD_DIR=$copy/build "$course" slides "$copy/bad/03_hints.md" >"$copy/log" 2>&1
    status=$?
    show
    [ $status = 2 ] || fail "a deck asking for hint 9 exited $status, not 2"
    grep -q 'has 3 hints' "$copy/log" || fail "no message naming the hints the exercise has"
    awk 'length > 80 { exit 1 }' "$copy/log" || fail "a line wider than 80 columns"
    ;;
  *) fail "unknown scenario $scenario" ;;
esac
echo "ok: $scenario"
