"""./course watch [NN]: checks an exercise again each time one of its files is saved. Keys: h next
hint, n next exercise once this one passes, l list, q quit. Without a terminal it checks once."""
import os
import select
import shutil
import subprocess
import sys
import termios
import tty

from . import check, hint, list as listing
from .course import ROOT, exercise, exercise_hash, exercises, pass_state, say


def first_not_passed():
    """The first exercise whose pass does not hold (the last one when all do)."""
    found = exercises()
    return next((e for e in found if pass_state(e) != "passed"), found[-1])


def next_not_passed(current):
    """The first exercise after CURRENT not yet passed, wrapping round; CURRENT when none."""
    found = [e for e in exercises() if e.folder != current.folder and pass_state(e) != "passed"]
    after = [e for e in found if e.folder > current.folder]
    return (after or found or [current])[0]


def progress_bar():  # [####------] 4 of 10 exercises passed
    marks = ["#" if pass_state(e) == "passed" else "-" for e in exercises()]
    return f"[{''.join(marks)}] {marks.count('#')} of {len(marks)} exercises passed"


def key(timeout):
    """One key pressed within TIMEOUT seconds, or ''."""
    ready, _, _ = select.select([sys.stdin], [], [], timeout)
    return sys.stdin.read(1) if ready else ""


def shown_check(lesson, rows):
    """The check's report, its first ROWS lines; its exit status."""
    # Until the report replaces it: a failing check may take up to a minute looking for one small
    # change that makes every case pass.
    sys.stdout.write("Checking... (where it fails, small changes to your code are tried too)\r")
    sys.stdout.flush()
    process = subprocess.run([os.path.join(ROOT, "course"), "check", lesson.number], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, errors="replace")
    say("\r\033[K" + "\n".join(process.stdout.splitlines()[:rows]))
    return process.returncode


def run(args):
    lesson = exercise(args[0]) if args else first_not_passed()
    # Without a terminal there is nobody to press a key: check once.
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return check.run([lesson.number])
    message = ""
    saved = termios.tcgetattr(sys.stdin)
    tty.setcbreak(sys.stdin)  # a key counts as soon as it is pressed, and is not shown
    try:
        while True:
            digest = exercise_hash(lesson)
            rows = shutil.get_terminal_size((80, 40)).lines - 8
            say("\033[H\033[2J" + progress_bar())
            say(f"Watching exercises/{lesson.folder}/ (saved files are checked again)\n")
            status = shown_check(lesson, rows)
            say()
            if message:
                say(message)
                message = ""
            say(f"keys: h next hint, n next exercise{'' if status == 0 else ' (once this one passes)'}, l list, q quit")
            while True:
                pressed = key(1)
                if pressed == "q":
                    say()
                    return 0
                if pressed in ("h", "l"):
                    say("\033[H\033[2J")
                    hint.run([lesson.number]) if pressed == "h" else listing.run([])
                    say("\n(any key: back to the check)")
                    key(None)
                    break
                if pressed == "n":
                    if pass_state(lesson) == "passed":
                        following = next_not_passed(lesson)
                        if following.folder == lesson.folder:
                            message = "Every exercise passes."
                        lesson = following
                        break
                    say(f"Exercise {lesson.number} does not pass yet: fix it first (h shows a hint).")
                if exercise_hash(lesson) != digest:
                    break
    finally:
        termios.tcsetattr(sys.stdin, termios.TCSADRAIN, saved)
