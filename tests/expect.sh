#!/usr/bin/env bash
# expect.sh CODE TEXT OUTDIR COMMAND...
# Runs COMMAND and passes when it exits with CODE, its output contains TEXT, and (unless OUTDIR
# is "-") it left no file in OUTDIR: a failed run must never leave a half-written image behind.
set -u
code=$1 text=$2 outdir=$3
shift 3
[ "$outdir" = - ] || rm -rf "$outdir"
output=$("$@" 2>&1)
status=$?
fail=0
if [ "$status" != "$code" ]; then echo "expected exit status $code, got $status"; fail=1; fi
if ! grep -qF -- "$text" <<<"$output"; then echo "expected the output to contain: $text"; fail=1; fi
if [ "$outdir" != - ] && [ -n "$(find "$outdir" -type f 2>/dev/null | head -1)" ]; then
  echo "expected no file under $outdir, found: $(find "$outdir" -type f | head -3)"; fail=1
fi
if [ $fail = 1 ]; then echo "--- output of: $* ---"; echo "$output"; exit 1; fi
echo "ok: exit $status, output mentions '$text'"
