#!/usr/bin/env bash
# record-runs.sh DEVICE-NAME [--device SPEC] [--cpu | --gpu | --gpus | --set SET] [NAME...]
# Records again the runs the course's pages quote (data/runs/commands.txt) on one device, into
# data/runs/DEVICE-NAME/NAME.json, each with its lesson's --record (or the bench's): the command,
# commit, date, device, driver, clocks and every row of its tables. The cpu runs (classroom
# sizes) are the set for a DEVICE-NAME holding "pocl" or "cpu", the gpu runs (8192x8192) for any
# other; --cpu, --gpu or --gpus (lesson 13 over every GPU of the machine: no --device) chooses,
# or --set SET any set of the file (cpu+gpu: lesson 13 on a CPU and a GPU of one machine).
# NAMEs (02, 02-2048, ...) record only those. A run that fails leaves the file it would replace
# as it was, and the script exits 1 naming it.
#   harness/tools/record-runs.sh pocl                     # the PoCL runs, on the default device
#   harness/tools/record-runs.sh h100 --device nvidia     # the GPU runs, on an H100
#   harness/tools/record-runs.sh h100x2 --gpus            # lesson 13 on two H100s
#   harness/tools/record-runs.sh clang-ptx --set clang-ptx  # page 06's min and max counts (no device)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
usage() { echo "usage: $0 DEVICE-NAME [--device SPEC] [--cpu | --gpu | --gpus | --set SET] [NAME...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
name=$1; shift
[[ $name =~ ^[A-Za-z0-9_.-]+$ ]] || { echo "record-runs.sh: '$name' is not a short device name (h100, pocl)" >&2; exit 2; }
device=() kind=gpu only=()
[[ $name == *pocl* || $name == *cpu* ]] && kind=cpu
while [ $# -gt 0 ]; do
  case $1 in
    --device) [ $# -ge 2 ] || usage; device=(--device "$2"); shift ;;
    --cpu) kind=cpu ;;
    --gpu) kind=gpu ;;
    --gpus) kind=gpus ;;
    --set) [ $# -ge 2 ] || usage; kind=$2; shift ;;
    -*) usage ;;
    *) only+=("$1") ;;
  esac
  shift
done

target=$root/data/runs/$name
work=$root/out/record-runs/$name
mkdir -p "$target" "$work" || exit 2
failed=() recorded=0
while read -r set run args; do
  [[ -z $set || $set == \#* || $set != "$kind" ]] && continue
  if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $run "* ]]; then continue; fi
  # A bench line's arguments follow the word bench; a tool's follow its program in build/bin/; an
  # MPI line's follow "mpirun -np N", its first the lesson (the lesson's program started N times by
  # mpirun); a lesson's are those of ./course run.
  launch=("$root/course" run)
  if [[ $args == bench\ * ]]; then
    launch=("$root/course" bench) args=${args#bench }
  elif [[ $args =~ ^(build/bin/[a-z-]+)\ *(.*)$ ]]; then
    launch=("${COURSE_BUILD_DIR:-$root/build}/bin/${BASH_REMATCH[1]#build/bin/}") args=${BASH_REMATCH[2]}
  elif [[ $args =~ ^mpirun\ -np\ ([0-9]+)\ ([0-9][0-9])\ (.*)$ ]]; then
    program=${COURSE_BUILD_DIR:-$root/build}/lessons/lesson_${BASH_REMATCH[2]}
    launch=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe
            -np "${BASH_REMATCH[1]}" "$program") args=${BASH_REMATCH[3]}
  fi
  echo "recording $name/$run: ${launch[*]#"$root/"} $args ${device[*]}"
  # shellcheck disable=SC2086  # the arguments are words, as the page gives them
  if (cd "$root" && "${launch[@]}" $args "${device[@]}" --record "$work/$run.json") >"$work/$run.log" 2>&1; then
    mv "$work/$run.json" "$target/$run.json" && recorded=$((recorded + 1))
  else
    failed+=("$run (its output: ${work#"$root"/}/$run.log)")
  fi
done <"$root/data/runs/commands.txt"

echo "recorded $recorded run(s) into data/runs/$name/"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
[ $recorded -gt 0 ] || { echo "record-runs.sh: no run of data/runs/commands.txt matched" >&2; exit 2; }
