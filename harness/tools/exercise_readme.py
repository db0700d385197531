#!/usr/bin/env python3
"""The task of each exercise, from one source: lessons/NN_name/exercise.md.

The text before its first "## Hint" is the task. Each exercise folder's README.md is that task
with the files, how the check works and the commands added; `./course hint NN` prints the same
task (--task NN) before its hints.

  exercise_readme.py --task NN     print exercise NN's task
  exercise_readme.py --write       write exercises/NN_name/README.md for every exercise
  exercise_readme.py --check       exit 1, naming them, when a README.md is missing or out of date
"""
import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def lessons():
    """(number, folder, exercise files) of every lesson with an exercise (lessons/lessons.txt, read
    by the course's one reader of it, harness/cli/course.py)."""
    sys.path.insert(0, str(ROOT / "harness"))
    from cli.course import lessons_of  # noqa: E402

    return [(lesson.number, lesson.folder, lesson.files) for lesson in lessons_of(str(ROOT))
            if (ROOT / "lessons" / lesson.folder / "exercise.md").is_file()]


def task(folder):
    """The task of exercise.md: every line before the first hint, trailing blank lines dropped."""
    lines = []
    for line in (ROOT / "lessons" / folder / "exercise.md").read_text().splitlines():
        if line.startswith("## Hint"):
            break
        lines.append(line)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines) + "\n"


def readme(number, folder, files):
    """The README.md of exercises/<folder>/."""
    listed = "\n".join(f"- `{name}`" + (" (C++, compiled into the check)" if name.endswith(".hpp") else "")
                       for name in files)
    return f"""<!-- Made from lessons/{folder}/exercise.md
     by harness/tools/exercise_readme.py --write: edit that file, then run it. -->
{task(folder)}
## Your files

{listed}

Write only between each `>>> GAP` and `<<< GAP` line; the rest is given.

## How it is checked

`./course check {number}` builds your files, runs them on many hard cases (random data, sizes no
work-group divides, guard bands around the buffers) and compares every value with a CPU
reference. The report fits the terminal: the first failing case in full, with its cause where the
check can prove one, and the other cases grouped by cause. One small case runs again under
Oclgrind, where it is installed, to find races and accesses outside a buffer. A pass records the
exercise for `./course list`.

## Commands

```sh
./course check {number}         # check your files, as often as you like
./course hint {number}          # this task, then one more hint each time
./course watch {number}         # check on each save (needs a terminal, else checks once)
./course reset {number} --yes   # put the files back as shipped (yours are kept under out/reset/)
```

`./course reset {number}` asks first; where it cannot ask (no terminal) it needs `--yes`. The
reference solution is in `solutions/{folder}/`.
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--task", metavar="NN", help="print exercise NN's task")
    mode.add_argument("--write", action="store_true", help="write every exercise folder's README.md")
    mode.add_argument("--check", action="store_true", help="fail when a README.md is missing or out of date")
    args = parser.parse_args()
    known = lessons()
    if args.task:
        for number, folder, _ in known:
            if number == args.task.zfill(2):
                sys.stdout.write(task(folder))
                return 0
        print(f"exercise_readme.py: no exercise {args.task}", file=sys.stderr)
        return 2
    stale = []
    for number, folder, files in known:
        path = ROOT / "exercises" / folder / "README.md"
        text = readme(number, folder, files)
        if args.write:
            path.write_text(text)
        elif not path.is_file() or path.read_text() != text:
            stale.append(str(path.relative_to(ROOT)))
    if stale:
        print("out of date (run harness/tools/exercise_readme.py --write): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
