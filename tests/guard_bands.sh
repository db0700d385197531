#!/usr/bin/env bash
# guard_bands.sh BUILD_DIR OUT_DIR
# Every kernel in kernels/ and solutions/ runs on buffers with guard bands, at sizes no
# work-group divides, and must leave every guard intact. The lessons and the exercise checks
# run with the guard layer preloaded (harness/guard_layer.cpp: every buffer guarded, every launch
# recorded). The script then compares the kernels that ran with every `__kernel` function of the
# .cl files, and fails on a damaged guard or on a kernel that never ran.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1 out=$2
rm -rf "$out" && mkdir -p "$out"
layer=$build/lib/course_guard_layer.so
export COURSE_GUARD_BANDS=1  # the layer reports what it guarded and launched
launched=$out/launched.txt
: >"$launched"
failed=0

# run LABEL COMMAND...: runs one program, keeps its recorded launches, reports its verdict.
run() {
  local label=$1
  shift
  local log="$out/$(tr -c 'A-Za-z0-9\n' '_' <<<"$label").log"
  "$root/tests/with_guard_layer.sh" "$layer" "$@" >"$log" 2>&1
  local status=$?
  if [ $status = 0 ] && grep -q "guarded launch:" "$log"; then
    # A lesson that builds its program from a string by hand (lesson 01) runs a kernel of its
    # own folder in kernels/: name that file.
    local folder="" name file
    [[ $label =~ ^lesson\ ([0-9][0-9]) ]] && folder=$(sed -n "s/^${BASH_REMATCH[1]} *| *\([^ |]*\).*/\1/p" "$root/lessons/lessons.txt")
    sed -n 's/^ *guarded launch: //p' "$log" | while IFS= read -r launch; do
      if [[ $launch == "(a program built from a string):"* && -n $folder ]]; then
        name=${launch##*:}
        file=$(cd "$root" && grep -lE "__kernel[[:space:]]+void[[:space:]]+$name\b" kernels/"$folder"/*.cl 2>/dev/null | head -n 1)
        [ -n "$file" ] && launch="$file:$name"
      fi
      echo "$launch"
    done >>"$launched"
    echo "ok    $label"
  else
    echo "FAIL  $label (exit $status)"
    grep -E "error|wrote outside|FAIL" "$log" | head -n 8 | sed 's/^/      /'
    echo "      full output: $log"
    failed=1
  fi
}

lesson() { echo "$build/lessons/lesson_$1"; }
# Lesson 11 stores its tuned winners in the user's cache folder: keep the test's apart.
export XDG_CACHE_HOME=$out/cache
# The copy bandwidth every lesson measures is beside the point here: a 4 MiB copy, not one of
# four times the last-level cache, on guarded buffers in every run.
export COURSE_COPY_MIB=4
lessons=$(sed -n 's/^\([0-9][0-9]\) *|.*/\1/p' "$root/lessons/lessons.txt")
for number in $lessons; do
  [ -x "$(lesson $number)" ] || { echo "FAIL  lesson $number is not built"; failed=1; continue; }
done

# Sizes no work-group divides: one pixel, a prime-sided picture, one row, one column.
for size in 1x1 131x67 97x1 1x61; do
  for number in $lessons; do
    [ "$number" = 06 ] && continue  # below, with every window
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
# Lesson 05's float4 rungs on 8-bit and half pixels (--type), with their copy of the same pixels,
# and its box filter by running sums (a box filter's only), windows wider than the image included.
if [ -x "$(lesson 05)" ]; then
  for size in 1x1 61x37 97x1; do
    for type in u8 f16; do
      run "lesson 05 at $size, $type pixels" "$(lesson 05)" --size "$size" --type "$type" --repeat 1 \
        --output-dir "$out/lesson_05"
    done
    for radius in 3 40; do
      run "lesson 05 at $size, box radius $radius" "$(lesson 05)" --size "$size" --filter box --radius "$radius" \
        --variant float4_passes,running_sums --repeat 1 --output-dir "$out/lesson_05"
    done
  done
fi
# Every median window, on noisy pictures (the Gaussian comparison runs a kernel of its own).
if [ -x "$(lesson 06)" ]; then
  for window in 3 5 7 9; do
    for size in 1x1 61x37 131x1; do
      run "lesson 06 at $size, window $window" "$(lesson 06)" --size "$size" --window "$window" --noise 0.1 \
        --repeat 1 --output-dir "$out/lesson_06"
    done
  done
fi
# Every exercise's solution, through its check program (a tree without solutions/ has none).
for folder in "$root"/solutions/[0-9][0-9]_*; do
  [ -d "$folder" ] || continue
  # An exercise with no kernel files (11: a tuner's C++) has no launch to guard.
  compgen -G "$folder/*.cl" >/dev/null || continue
  number=$(basename "$folder" | cut -c1-2)
  program=$build/bin/check_$number
  [ -x "${program}_solution" ] && program=${program}_solution
  run "solution $number" "$program" --from "$root/solutions" --expect pass --report-dir "$out/check"
done

# Every __kernel of kernels/ and solutions/ must have run.
expected=$out/kernels.txt
(cd "$root" && grep -oE '__kernel[[:space:]]+void[[:space:]]+[A-Za-z_0-9]+' -r kernels solutions --include='*.cl' 2>/dev/null |
  sed -E 's/:__kernel[[:space:]]+void[[:space:]]+/:/') | sort -u >"$expected"
missing=$(sort -u "$launched" | comm -23 "$expected" -)
# A kernel whose file says it needs an extension (a line "// requires: name") runs only on devices
# that offer it: where a lesson said it skipped that kernel for want of the extension
# ("skipped: ... (name)"), the kernel is listed apart instead of failing.
unavailable=""
for kernel in $missing; do
  ext=$(sed -n 's|^// requires: \([A-Za-z_0-9]*\)$|\1|p' "$root/${kernel%%:*}" | head -n 1)
  if [ -n "$ext" ] && grep -qhE "skipped: .*\($ext\)" "$out"/*.log; then
    unavailable="$unavailable$kernel (this device lacks $ext)"$'\n'
    missing=$(grep -vxF "$kernel" <<<"$missing")
  fi
done
if [ -n "$unavailable" ]; then
  echo "not run: the lessons said the device lacks what these need"
  printf '%s' "$unavailable" | sed 's/^/      /'
fi
if [ -n "$missing" ]; then
  echo "FAIL  these kernels never ran on guarded buffers:"
  sed 's/^/      /' <<<"$missing"
  failed=1
fi
echo "$(sort -u "$launched" | comm -12 "$expected" - | wc -l) of $(wc -l <"$expected") kernels ran on guarded buffers"
[ $failed = 0 ] && echo "every guard intact" && exit 0
exit 1
