#!/usr/bin/env bash
# mpi_matches.sh MPIEXEC LESSON13 OUT: lesson 13 over MPI (two ranks, each on a sub-device of the
# CPU) iterates the filter three times and writes the same 8-bit picture, byte for byte, as the
# single process does for the same steps: the halos that crossed between processes are the rows
# the single process exchanged within itself.
set -u
mpiexec=$1 lesson=$2 out=$3
rm -rf "$out" && mkdir -p "$out/single" "$out/mpi"
# Root in a container: Open MPI refuses to start without these.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
args=(--split-cpu 2 --size 131x67 --steps 3 --radius 5)
"$lesson" "${args[@]}" --repeat 1 --output-dir "$out/single" >"$out/single.log" 2>&1 ||
  { echo "FAIL: the single process exited $?"; cat "$out/single.log"; exit 1; }
"$mpiexec" --oversubscribe -np 2 "$lesson" --mpi "${args[@]}" --output "$out/mpi/blurred.png" --output-dir "$out/mpi" \
  >"$out/mpi.log" 2>&1 || { echo "FAIL: mpiexec -np 2 exited $?"; cat "$out/mpi.log"; exit 1; }
grep -q "2 ranks" "$out/mpi.log" || { echo "FAIL: the MPI run did not report two ranks"; cat "$out/mpi.log"; exit 1; }
cmp "$out/single/iterated.png" "$out/mpi/blurred.png" || { echo "FAIL: the pictures differ"; exit 1; }
echo "ok: two ranks wrote the single process's picture, byte for byte"
