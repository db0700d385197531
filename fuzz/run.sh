#!/usr/bin/env bash
# fuzz/run.sh [SECONDS]  (default 60)
# Builds the libFuzzer target with clang (the "fuzz" CMake preset, build-fuzz/) and runs it on
# the seed corpus for SECONDS. Exits 0 when it found nothing; otherwise the input that broke
# the loader is in build-fuzz/fuzz-artifacts/ and the exit status is libFuzzer's.
# Replay one input:  build-fuzz/bin/fuzz_image_loading build-fuzz/fuzz-artifacts/crash-...
set -euo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
cd "$root"
if ! command -v clang++ >/dev/null; then
  echo "fuzz/run.sh needs clang++ (Debian: apt-get install clang)" >&2
  exit 2
fi
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
# New inputs the fuzzer finds go to a scratch corpus, so the committed seeds stay as they are.
mkdir -p "$build/fuzz-corpus" "$build/fuzz-artifacts"
# -rss_limit_mb: the course accepts pictures up to 2^28 pixels, and the harness skips headers
#   claiming more than a megapixel, so anything near this limit is a real finding.
# -timeout: no single input may take more than 10 s.
exec "$build/bin/fuzz_image_loading" "$build/fuzz-corpus" "$root/fuzz/corpus" \
  -dict="$root/fuzz/image.dict" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/"
