"""./course reset NN [--yes]: puts exercises/NN_*/ back as shipped; the student's version is kept
under out/reset/NN_name-TIMESTAMP/."""
import os
import shutil
import sys
import time

from .course import ROOT, die, exercise, say, shipped_copy


def run(args):
    number, yes = None, False
    for arg in args:
        if arg in ("--yes", "-y"):
            yes = True
        elif arg.startswith("-"):
            die(2, f"reset takes NN and --yes (not '{arg}')")
        else:
            number = arg
    if number is None:
        die(2, "which exercise? e.g. ./course reset 02")
    lesson = exercise(number)
    # Every file as shipped, before anything is touched.
    shipped = {}
    for name in lesson.files:
        content = shipped_copy(lesson, name)
        if content is None:
            die(2, f"no shipped copy of exercises/{lesson.folder}/{name}: not a git clone, and .course/shipped/ "
                   "was never saved (./course setup saves it)")
        shipped[name] = content
    if not yes:
        if not sys.stdin.isatty():
            die(2, "reset asks before it replaces your files: add --yes")
        answer = input(f"Put exercises/{lesson.folder}/ back as shipped? Your version is kept under out/reset/. [y/N] ")
        if not answer.lower().startswith("y"):
            say("Nothing changed.")
            return 0
    keep = f"out/reset/{lesson.folder}-{time.strftime('%Y%m%d-%H%M%S')}"
    mine = os.path.join(ROOT, "exercises", lesson.folder)
    if os.path.isdir(mine):
        shutil.copytree(mine, os.path.join(ROOT, keep), dirs_exist_ok=True)
    else:
        os.makedirs(os.path.join(ROOT, keep), exist_ok=True)
    os.makedirs(mine, exist_ok=True)
    for name, content in shipped.items():
        with open(os.path.join(mine, name), "wb") as f:
            f.write(content)
    say(f"exercises/{lesson.folder}/ is back as shipped; your version is in {keep}/.")
    return 0
