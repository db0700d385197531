#!/usr/bin/env bash
# build_log_order.sh COMMAND...: runs COMMAND, a lesson whose kernel does not compile, and passes
# when it exits 3 with the build log, and the compiler's own summary line ("1 error generated.",
# which PoCL prints on the process's stderr) stands inside that log, never above it.
set -u
command="$*"
output=$("$@" 2>&1)
status=$?
fail() { echo "FAIL: $*"; echo "--- output of: $command ---"; echo "$output"; exit 1; }
[ "$status" = 3 ] || fail "exit status $status, not 3"
grep -q -- "^--- build log of " <<<"$output" || fail "no build log"
# Where the summary lines are: outside the log (before its first line or after its last) or in it.
where=$(awk '/^--- build log of / { inside = 1; next } /^--- end of build log/ { inside = 0; next }
             /errors? generated/ { print (inside ? "inside" : "outside") }' <<<"$output")
grep -q outside <<<"$where" && fail "the compiler's summary line stands outside the build log"
if grep -q inside <<<"$where"; then echo "ok: exit 3, the compiler's summary line is inside the build log"
else echo "ok: exit 3 (this compiler printed no summary line of its own)"; fi
