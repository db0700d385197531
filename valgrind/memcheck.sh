#!/usr/bin/env bash
# valgrind/memcheck.sh [LESSON_BINARY [ARGS...]]
# Runs a lesson under valgrind's memcheck with the OpenCL-runtime suppressions and fails
# (exit 99) on any error left: invalid reads or writes, uninitialised values, or memory the
# course's own code leaked. Default: lesson 01 of build/ on a small odd-sized picture.
#   valgrind/memcheck.sh
#   valgrind/memcheck.sh build/lessons/lesson_02 --size 61x37 --repeat 1
# Under valgrind every instruction is emulated, kernels compile slowly and PoCL sees a CPU
# without AVX-512: expect minutes, not seconds.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
  set -- "$root/build/lessons/lesson_01" --quiet --size 37x29 --repeat 1
fi
if ! command -v valgrind >/dev/null; then
  echo "valgrind/memcheck.sh needs valgrind (Debian: apt-get install valgrind)" >&2
  exit 2
fi
[ -x "$1" ] || { echo "no lesson binary at $1: build first (cmake --build --preset release)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
log=${MEMCHECK_LOG:-$out/memcheck.log}
# --errors-for-leak-kinds=definite: a leak counts as an error only when nothing points at the
# block any more; the driver's process-lifetime memory is suppressed by library above.
status=0
valgrind --tool=memcheck --error-exitcode=99 --num-callers=40 --show-error-list=yes \
  --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
  --suppressions="$root/valgrind/opencl-runtime.supp" --log-file="$log" \
  "$@" --output-dir "$out/images" >/dev/null || status=$?
sed -n '/HEAP SUMMARY/,$p' "$log" | sed 's/^==[0-9]*== //' | grep -v '^ *$'
if [ "$status" = 99 ]; then
  echo "memcheck found errors" >&2
  if [ -z "${MEMCHECK_LOG:-}" ]; then  # the temporary folder goes at exit: keep the log
    cp "$log" "$root/memcheck-last.log"
    echo "(copied to $root/memcheck-last.log)" >&2
  fi
fi
exit "$status"
