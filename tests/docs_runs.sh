#!/usr/bin/env bash
# docs_runs.sh ROOT BUILD LESSON_02 OUTDIR: ./course docs --runs DIR builds the site from a run
# recorded on the spot (DIR/02.json, as a student records it), and lesson 02's page then shows that
# run's numbers and charts and says which device and command they come from (a page quoting a run the folder
# lacks, such as page 05, quotes the course's own and names it); a folder that does not exist
# exits 2.
set -u
root=$1 build=$2 lesson=$3 out=$4
rm -rf "$out" && mkdir -p "$out"
"$lesson" --size 96x64 --repeat 1 --record "$out/runs/02.json" --output-dir "$out/pictures" >/dev/null ||
  { echo "lesson 02 did not record its run"; exit 1; }
command=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["command"])' "$out/runs/02.json")
said=$(COURSE_BUILD_DIR=$build COURSE_NO_APT=1 "$root/course" docs --runs "$out/runs" 2>&1) ||
  { echo "./course docs --runs failed:"; echo "$said"; exit 1; }
page=$build/docs/source/docs/02_naive_convolution.md
fail=0
grep -qF "those of \`$out/runs\` where it holds the lesson's" "$page" || { echo "the page does not name the runs it shows"; fail=1; }
grep -qF "$command" "$page" || { echo "the page does not give the recorded command: $command"; fail=1; }
grep -q "come from these runs" "$build/docs/html/lesson_02.html" || { echo "the site's lesson 02 lacks the note"; fail=1; }
# Its charts are drawn from the same run (its table's title names the size it was recorded at).
chart=$build/docs/html/run_h100_02_1_ladder.svg
grep -q "96x64" "$chart" || { echo "page 02's chart is not drawn from the run: $(head -c 300 "$chart")"; fail=1; }
said=$(COURSE_BUILD_DIR=$build COURSE_NO_APT=1 "$root/course" docs --runs "$out/none" 2>&1)
[ $? = 2 ] && grep -q "docs --runs needs a folder" <<<"$said" || { echo "a missing folder: $said"; fail=1; }
# The site as the course ships it again, from data/runs.
COURSE_BUILD_DIR=$build COURSE_NO_APT=1 "$root/course" docs >/dev/null 2>&1 || { echo "the plain site no longer builds"; fail=1; }
grep -q "come from these runs" "$build/docs/source/docs/02_naive_convolution.md" && { echo "the plain site kept the note"; fail=1; }
grep -q "8192x8192" "$chart" || { echo "the plain site kept the chart of the other run"; fail=1; }
[ $fail = 0 ] && echo "ok: ./course docs --runs DIR shows a run recorded on the spot, naming its device and command"
exit $fail
