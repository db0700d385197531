#!/usr/bin/env bash
# guard_bands.sh BUILD_DIR OUT_DIR
# Every kernel in kernels/ and solutions/ runs on buffers with guard bands, at sizes no
# work-group divides, and must leave every guard intact. The lessons run with
# COURSE_GUARD_BANDS=1 (every buffer guarded, every launch recorded); the exercise checker runs
# each solution the same way. The script then compares the kernels that ran with every
# `__kernel` function of the .cl files, and fails on a damaged guard or on a kernel that never ran.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1 out=$2
rm -rf "$out" && mkdir -p "$out"
export COURSE_GUARD_BANDS=1
launched=$out/launched.txt
: >"$launched"
failed=0

# run LABEL COMMAND...: runs one program, keeps its recorded launches, reports its verdict.
run() {
  local label=$1
  shift
  local log="$out/$(tr -c 'A-Za-z0-9\n' '_' <<<"$label").log"
  "$@" >"$log" 2>&1
  local status=$?
  if [ $status = 0 ] && grep -q "guarded launch:" "$log"; then
    sed -n 's/^ *guarded launch: //p' "$log" >>"$launched"
    echo "ok    $label"
  else
    echo "FAIL  $label (exit $status)"
    grep -E "error|wrote outside|FAIL" "$log" | head -n 8 | sed 's/^/      /'
    echo "      full output: $log"
    failed=1
  fi
}

lesson() { echo "$build/lessons/lesson_$1"; }
for number in 02 03 04 05 06 07 08 09 10; do
  [ -x "$(lesson $number)" ] || { echo "FAIL  lesson $number is not built"; failed=1; continue; }
done

# Sizes no work-group divides: one pixel, a prime-sided picture, one row, one column.
for size in 1x1 131x67 97x1 1x61; do
  for number in 02 03 04 05 07 08 09 10; do
    [ -x "$(lesson $number)" ] || continue
    run "lesson $number at $size" "$(lesson $number)" --size "$size" --repeat 1 --output-dir "$out/lesson_$number"
  done
done
# Every radius changes the compiled kernels of lessons 02 to 05 (tiles, unrolled loops).
for radius in 1 4 9; do
  for number in 02 03 04 05; do
    [ -x "$(lesson $number)" ] || continue
    run "lesson $number at 61x37, radius $radius" "$(lesson $number)" --size 61x37 --radius "$radius" --repeat 1 \
      --output-dir "$out/lesson_$number"
  done
done
# Every median window, on noisy pictures (the Gaussian comparison runs a kernel of its own).
if [ -x "$(lesson 06)" ]; then
  for window in 3 5 7 9; do
    for size in 1x1 61x37 131x1; do
      run "lesson 06 at $size, window $window" "$(lesson 06)" --size "$size" --window "$window" --noise 0.1 \
        --repeat 1 --output-dir "$out/lesson_06"
    done
  done
fi
# Every exercise's solution, through the checker (it guards every buffer it allocates). A check
# launches its kernels with plain enqueueNDRangeKernel calls, which record nothing: a check that
# passes has run its folder's kernels on guarded buffers (an output nobody wrote stays NaN), so
# they count as launched.
for folder in "$root"/solutions/[0-9][0-9]_*; do
  name=$(basename "$folder")
  number=$(cut -c1-2 <<<"$name")
  log="$out/solution_$number.log"
  if "$build/bin/course-check" "$number" --from "$root/solutions" --expect pass --report-dir "$out/check" \
    >"$log" 2>&1; then
    echo "ok    solution $number"
    sed -n 's/^ *guarded launch: //p' "$log" >>"$launched"
    (cd "$root" && grep -oE '__kernel[[:space:]]+void[[:space:]]+[A-Za-z_0-9]+' -r "solutions/$name" --include='*.cl' |
      sed -E 's/:__kernel[[:space:]]+void[[:space:]]+/:/') >>"$launched"
  else
    echo "FAIL  solution $number (exit $?)"
    grep -E "error|wrote outside|FAIL" "$log" | head -n 8 | sed 's/^/      /'
    echo "      full output: $log"
    failed=1
  fi
done

# Every __kernel of kernels/ and solutions/ must have run. Lesson 01 calls the OpenCL API by
# hand, without the course's helpers; its kernel runs on guarded buffers in the doctest case
# "lesson 01's kernels write nothing outside their buffers at sizes no work-group divides".
echo "kernels/01_platform_setup/invert.cl:invert" >>"$launched"
expected=$out/kernels.txt
(cd "$root" && grep -oE '__kernel[[:space:]]+void[[:space:]]+[A-Za-z_0-9]+' -r kernels solutions --include='*.cl' |
  sed -E 's/:__kernel[[:space:]]+void[[:space:]]+/:/') | sort -u >"$expected"
missing=$(sort -u "$launched" | comm -23 "$expected" -)
if [ -n "$missing" ]; then
  echo "FAIL  these kernels never ran on guarded buffers:"
  sed 's/^/      /' <<<"$missing"
  failed=1
fi
echo "$(sort -u "$launched" | comm -12 "$expected" - | wc -l) of $(wc -l <"$expected") kernels ran on guarded buffers"
[ $failed = 0 ] && echo "every guard intact" && exit 0
exit 1
