#!/usr/bin/env bash
# run_check.sh pass|fail FOLDER GUARD_LAYER CHECK_PROGRAM [ARGS...] [BUILD BUILD_DIR TARGET]
# Runs an exercise's check program on FOLDER (exercises/NN_name or solutions/NN_name) as the test
# suite wants it: expecting every case to pass, or the shipped exercise to fail. Every buffer the
# check allocates gets guard bands (the guard layer is preloaded). With BUILD, the program is
# built first (an exercise with C++ files is compiled only when it is checked). The report must
# fit a terminal of 80 x 24. A tree without FOLDER (no solutions/, say) skips the test: exit 77.
set -u
expect=$1 folder=$2 layer=$3 program=$4
shift 4
args=() build_dir="" target=""
while [ $# -gt 0 ]; do
  if [ "$1" = BUILD ]; then build_dir=$2 target=$3; shift 3; else args+=("$1"); shift; fi
done
if [ ! -d "$folder" ]; then
  echo "skipped: $folder is not in this tree"
  exit 77
fi
if [ -n "$target" ]; then
  log=$(mktemp)
  if ! cmake --build "$build_dir" --target "$target" >"$log" 2>&1; then
    tail -n 40 "$log"
    rm -f "$log"
    echo "building $target failed"
    exit 1
  fi
  rm -f "$log"
fi
# The report a student sees must fit a terminal of 80 x 24, a pass as well as the shipped failure:
# at most 24 rows once lines wider than 80 columns wrap.
output=$(LINES=24 COLUMNS=80 "$(dirname "$0")/with_guard_layer.sh" "$layer" "$program" --expect "$expect" --from "$(dirname "$folder")" "${args[@]}" 2>&1)
status=$?
printf '%s\n' "$output"
rows=$(fold -w 80 <<<"$output" | wc -l)
if [ "$rows" -gt 24 ]; then
  echo "the report takes $rows rows of an 80-column terminal: more than the 24 it has"
  exit 1
fi
exit $status
