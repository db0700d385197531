#!/usr/bin/env bash
# mpi_matches.sh MPIEXEC LESSON13 OUT: lesson 13 over MPI (two ranks, each on a sub-device of the
# CPU) iterates the filter three times and writes the same 8-bit picture, byte for byte, as the
# single process does for the same steps: the halos that crossed between processes are the rows
# the single process exchanged within itself. Its --record holds a row per rank and names the
# command mpirun started.
set -u
mpiexec=$1 lesson=$2 out=$3
rm -rf "$out" && mkdir -p "$out/single" "$out/mpi"
# Root in a container: Open MPI refuses to start without these.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
args=(--split-cpu 2 --size 131x67 --steps 3 --radius 5)
"$lesson" "${args[@]}" --repeat 1 --output-dir "$out/single" >"$out/single.log" 2>&1 ||
  { echo "FAIL: the single process exited $?"; cat "$out/single.log"; exit 1; }
"$mpiexec" --oversubscribe -np 2 "$lesson" --mpi "${args[@]}" --output "$out/mpi/blurred.png" --output-dir "$out/mpi" \
  --record "$out/mpi.json" >"$out/mpi.log" 2>&1 || { echo "FAIL: mpiexec -np 2 exited $?"; cat "$out/mpi.log"; exit 1; }
grep -q "2 ranks" "$out/mpi.log" || { echo "FAIL: the MPI run did not report two ranks"; cat "$out/mpi.log"; exit 1; }
cmp "$out/single/iterated.png" "$out/mpi/blurred.png" || { echo "FAIL: the pictures differ"; exit 1; }
python3 - "$out/mpi.json" <<'PY' || { echo "FAIL: the MPI run's record"; cat "$out/mpi.json"; exit 1; }
import json, sys
record = json.load(open(sys.argv[1]))
assert record["command"].startswith("mpirun -np 2 build/lessons/lesson_13 --mpi "), record["command"]
rows = record["tables"][0]["rows"]
assert [r["variant"] for r in rows] == ["rank 0", "rank 1"], rows
assert all(r["verified"] and r["kernel_ms"] > 0 and r["printed"]["exchange ms"] for r in rows), rows
PY
echo "ok: two ranks wrote the single process's picture, byte for byte, and recorded a row each"
