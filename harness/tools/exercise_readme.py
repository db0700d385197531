#!/usr/bin/env python3
"""Each exercise folder's README.md, made from lessons/NN_name/exercise.md (the text itself:
harness/cli/exercise_text.py, which `./course hint` reads too).

  exercise_readme.py --task NN     print exercise NN's task
  exercise_readme.py --write       write exercises/NN_name/README.md for every exercise
  exercise_readme.py --check       exit 1, naming them, when a README.md is missing or out of date
"""
import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "harness"))
from cli.course import lessons_of  # noqa: E402
from cli.exercise_text import readme, task  # noqa: E402


def lessons():
    """(number, folder, exercise files) of every lesson with an exercise (lessons/lessons.txt, read
    by the course's one reader of it, harness/cli/course.py)."""
    return [(lesson.number, lesson.folder, lesson.files) for lesson in lessons_of(str(ROOT))
            if (ROOT / "lessons" / lesson.folder / "exercise.md").is_file()]


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
