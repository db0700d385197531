#!/usr/bin/env bash
# guard_bands.sh BUILD_DIR OUT_DIR [oclgrind [lesson NN | solution NN | all-ran]]
# Every kernel in kernels/ and solutions/ runs on buffers with guard bands, at sizes no
# work-group divides, and must leave every guard intact. The lessons and the exercise checks
# run with the guard layer preloaded (harness/guard_layer.cpp: every buffer guarded, every launch
# recorded). The script then compares the kernels that ran with every `__kernel` function of the
# .cl files, and fails on a damaged guard or on a kernel that never ran.
#
# With `oclgrind`, every kernel runs once on a small case under Oclgrind instead, and any data
# race, access outside a buffer or barrier not every work-item reaches fails it: the lessons at
# one small size on Oclgrind's simulated device (the layer only records the launches there:
# Oclgrind sees an access past a buffer only where the buffer ends), each solution through its
# check program's own Oclgrind run (--oclgrind: its smallest case with several work-groups).
# Every timed step runs once there, with no warm-up (COURSE_RUN_ONCE). Under Oclgrind one lesson
# or one solution runs at a time (`lesson NN`, `solution NN`: the test suite runs them side by
# side), each into its own folder of OUT_DIR, and `all-ran` then checks that every kernel ran in
# one of them. Without Oclgrind the test is skipped (exit 77).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1 out=$2 mode=${3:-guards} only=${4:-} only_number=${5:-}
# The lessons, "NN folder" a line, from the list configure writes (build/manifest.json).
manifest_lessons() {
  python3 -c 'import json, sys; [print(l["number"], l["folder"]) for l in json.load(open(sys.argv[1]))["lessons"]]' \
    "$build/manifest.json"
}
launched_files=$out
[ -n "$only" ] && out=$out/$only${only_number:+_$only_number}
rm -rf "$out" && mkdir -p "$out"
layer=$build/lib/course_guard_layer.so
export COURSE_GUARD_BANDS=1  # the layer reports what it guarded and launched
if [ "$mode" = oclgrind ]; then
  launcher=$(command -v oclgrind) || { echo "skipped: Oclgrind is not installed (./course setup installs it where Debian packages it: Debian 12, not 13)"; exit 77; }
  runtime=$(dirname "$(readlink -f "$launcher")")/../lib/oclgrind/liboclgrind-rt.so
  [ -f "$runtime" ] || { echo "skipped: Oclgrind's runtime is not at $runtime"; exit 77; }
  # glibc's message when Oclgrind 21.10 aborts at exit goes to the log, not the terminal.
  export COURSE_GUARD_LAYER=launches OCLGRIND_DATA_RACES=1 LIBC_FATAL_STDERR_=1 COURSE_RUN_ONCE=1
fi
# What Oclgrind reports as a mistake in a kernel.
oclgrind_errors='^(Read-write|Write-write) data race|^Invalid (read|write)|exceeds static array size|^Work-group divergence'
launched=$out/launched.txt
: >"$launched"
failed=0

# run LABEL COMMAND...: runs one program, keeps its recorded launches, reports its verdict.
run() {
  local label=$1
  shift
  # One lesson or solution only: the others are another test's.
  [ -z "$only" ] || [[ $label == "$only $only_number"* ]] || return 0
  local log="$out/$(tr -c 'A-Za-z0-9\n' '_' <<<"$label").log"
  local status found=""
  if [ "$mode" = oclgrind ] && [[ $label == lesson* ]]; then
    # The lesson on Oclgrind's device; Oclgrind's messages come on stderr, into the log. (With
    # OCLGRIND_LOG set, Oclgrind 21.10 aborts at exit, "corrupted double-linked list".)
    # (LD_PRELOAD is set for the lesson alone: the layer leaves any program it is loaded into,
    # timeout here, without itself for that program's children.) A lesson that does not finish
    # within 5 minutes fails.
    timeout 300 bash -c 'LD_PRELOAD="$0" exec "$@"' "$layer $runtime" "$@" >"$log" 2>&1
    status=$?
    [ $status = 124 ] && echo "stopped: the lesson did not finish within 5 minutes under Oclgrind (FAIL)" >>"$log"
    found=$(grep -E -A8 "$oclgrind_errors" "$log" | head -n 12)
  else
    "$root/tests/with_guard_layer.sh" "$layer" "$@" >"$log" 2>&1
    status=$?
  fi
  if [ -n "$found" ]; then
    echo "FAIL  $label: Oclgrind found a mistake"
    sed 's/^/      /' <<<"$found"
    failed=1
  elif [ $status = 0 ] && grep -q "guarded launch:" "$log"; then
    # A lesson that builds its program from a string by hand (lesson 01) runs a kernel of its
    # own folder in kernels/: name that file.
    local folder="" name file
    [[ $label =~ ^lesson\ ([0-9][0-9]) ]] && folder=$(manifest_lessons | awk -v n="${BASH_REMATCH[1]}" '$1 == n { print $2 }')
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
lessons=$(manifest_lessons | cut -d' ' -f1)
for number in $lessons; do
  [ -x "$(lesson $number)" ] || { echo "FAIL  lesson $number is not built"; failed=1; continue; }
done

# Sizes no work-group divides: one pixel, a prime-sided picture, one row, one column. Under
# Oclgrind, one small size that no work-group divides, with several work-groups.
sizes="1x1 131x67 97x1 1x61"
[ "$mode" = oclgrind ] && sizes="37x19"
for size in $sizes; do
  for number in $lessons; do
    [ "$number" = 06 ] && continue  # below, with every window
    [ -x "$(lesson $number)" ] || continue
    # Lesson 09's presets warp the picture resized to the thesis's sizes (up to 720x576): under
    # Oclgrind, the smallest preset alone (360x288) runs the same kernels.
    warp=()
    [ "$mode" = oclgrind ] && [ "$number" = 09 ] && warp=(--preset A2)
    run "lesson $number at $size" "$(lesson $number)" --size "$size" --repeat 1 --output-dir "$out/lesson_$number" "${warp[@]}"
  done
done
# Every radius changes the compiled kernels of lessons 02 to 05 (tiles, unrolled loops).
radii="1 4 9"
[ "$mode" = oclgrind ] && radii=""
for radius in $radii; do
  for number in 02 03 04 05; do
    [ -x "$(lesson $number)" ] || continue
    run "lesson $number at 61x37, radius $radius" "$(lesson $number)" --size 61x37 --radius "$radius" --repeat 1 \
      --output-dir "$out/lesson_$number"
  done
done
# Lesson 12's float4 rungs on 8-bit and half pixels (--type), with their copy of the same pixels,
# and its box filter by running sums (a box filter's only), windows wider than the image included.
if [ -x "$(lesson 12)" ]; then
  narrow_sizes="1x1 61x37 97x1" box_radii="3 40"
  [ "$mode" = oclgrind ] && narrow_sizes="37x19" box_radii="3"
  for size in $narrow_sizes; do
    for type in u8 f16; do
      run "lesson 12 at $size, $type pixels" "$(lesson 12)" --size "$size" --type "$type" --repeat 1 \
        --output-dir "$out/lesson_12"
    done
    for radius in $box_radii; do
      run "lesson 12 at $size, box radius $radius" "$(lesson 12)" --size "$size" --filter box --radius "$radius" \
        --variant float4_passes,running_sums,running_sums_tiled,running_sums_scan,running_sums_prefetch,running_sums_ring --repeat 1 --output-dir "$out/lesson_12"
    done
  done
fi
# Every median window, on noisy pictures (the Gaussian comparison runs a kernel of its own).
if [ -x "$(lesson 06)" ]; then
  windows="3 5 7 9" median_sizes="1x1 61x37 131x1"
  [ "$mode" = oclgrind ] && windows="3" median_sizes="37x19"  # window 3 runs every kernel
  for window in $windows; do
    for size in $median_sizes; do
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
  extra=()
  [ "$mode" = oclgrind ] && extra=(--oclgrind)
  run "solution $number" "$program" --from "$root/solutions" --expect pass --report-dir "$out/check" "${extra[@]}"
done

# Under Oclgrind, one lesson or solution: its verdict. All ran: what every one of them launched.
if [ "$mode" = oclgrind ] && [ "$only" != all-ran ] && [ -n "$only" ]; then
  [ -s "$out"/launched.txt ] || { echo "FAIL  $only $only_number: nothing ran (is it in lessons/lessons.txt and solutions/?)"; exit 1; }
  echo "$(sort -u "$launched" | wc -l) kernels ran under Oclgrind"
  [ $failed = 0 ] && echo "Oclgrind found no race, no access outside a buffer, no barrier missed" && exit 0
  exit 1
fi
[ "$only" = all-ran ] && cat "$launched_files"/*/launched.txt >"$launched" 2>/dev/null
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
  # (The lesson's line may wrap: the logs are read with their lines joined.)
  if [ -n "$ext" ] && find "$launched_files" -name '*.log' -exec cat {} + | tr '\n' ' ' | tr -s ' ' |
    grep -qE "skipped: [^()]*\($ext\)"; then
    unavailable="$unavailable$kernel (this device lacks $ext)"$'\n'
    missing=$(grep -vxF "$kernel" <<<"$missing")
  fi
done
if [ -n "$unavailable" ]; then
  echo "not run: the lessons said the device lacks what these need"
  printf '%s' "$unavailable" | sed 's/^/      /'
fi
if [ -n "$missing" ] && [ "$mode" = oclgrind ]; then
  echo "FAIL  these kernels never ran under Oclgrind (the label runs them all: ctest -L oclgrind-kernels):"
  sed 's/^/      /' <<<"$missing"
  failed=1
elif [ -n "$missing" ]; then
  echo "FAIL  these kernels never ran on guarded buffers:"
  sed 's/^/      /' <<<"$missing"
  failed=1
fi
if [ "$mode" = oclgrind ]; then
  echo "$(sort -u "$launched" | comm -12 "$expected" - | wc -l) of $(wc -l <"$expected") kernels ran (the lessons' under Oclgrind)"
  [ $failed = 0 ] && echo "Oclgrind found no race, no access outside a buffer, no barrier missed" && exit 0
  exit 1
fi
echo "$(sort -u "$launched" | comm -12 "$expected" - | wc -l) of $(wc -l <"$expected") kernels ran on guarded buffers"
[ $failed = 0 ] && echo "every guard intact" && exit 0
exit 1
