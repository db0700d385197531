"""An exercise's text, from its one source: lessons/NN_name/exercise.md.

The text before its first "## Hint" is the task, each "## Hint" section one hint. Each exercise
folder's README.md is the task with the files, how the check works and the commands added
(harness/tools/exercise_readme.py writes them); `./course hint NN` prints the same task before
its hints.
"""
import os

from .course import ROOT


def sections(text):
    """The task (every line before the first '## Hint' line) and the hints, each with its heading."""
    task_lines, hints = [], []
    for line in text.splitlines():
        if line.startswith("## Hint"):
            hints.append([line])
        elif hints:
            hints[-1].append(line)
        else:
            task_lines.append(line)
    return task_lines, hints


def exercise_page(folder):
    """The text of lessons/<folder>/exercise.md."""
    with open(os.path.join(ROOT, "lessons", folder, "exercise.md"), encoding="utf-8") as f:
        return f.read()


def task(folder):
    """The task of exercise.md, trailing blank lines dropped."""
    lines = sections(exercise_page(folder))[0]
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
