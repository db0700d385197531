"""./course tour [--device SPEC] [--pause] [--brief]: every lesson in order, then a summary."""
import os
import subprocess
import sys
import time

from . import commands, setup
from .brief import fastest_row, run_lesson, show_brief
from .course import ROOT, build_dir, die, lessons, say


def summary_line(number, lesson, result, seconds, detail):
    """One line of the summary, within 80 columns: the fastest variant's name is shortened."""
    if detail.startswith("fastest: "):
        detail = detail[len("fastest: "):]
        if detail.endswith(" ms"):
            detail = detail[:-3]
        if len(detail) > 24:
            name, taken = detail.rsplit(" ", 1)
            detail = f"{name[:20 - len(taken)]}~ {taken}"
    return "  %-2s %-28s %-12s %7s  %s" % (number, lesson[:28], result, seconds, detail)


def pause_before(number):
    """Waits for Enter before lesson NUMBER; False when the presenter types q."""
    sys.stdout.write(f"\nEnter: lesson {number}   q then Enter: the summary ")
    sys.stdout.flush()
    answer = sys.stdin.readline()
    return not answer or not answer.lower().startswith("q")


def run(args):
    device, pause, short, i = [], False, False, 0
    while i < len(args):
        arg = args[i]
        if arg == "--device":
            if i + 1 >= len(args):
                die(2, "--device needs a value")
            device = ["--device", args[i + 1]]
            i += 1
        elif arg.startswith("--device="):
            device = ["--device", arg[len("--device="):]]
        elif arg == "--pause":
            pause = True
        elif arg == "--brief":
            short = True
        elif arg in ("-h", "--help"):
            say(commands.command_help("tour"))
            return 0
        else:
            die(2, f"tour takes only --device, --pause and --brief (not '{arg}')")
        i += 1
    setup.ensure()
    os.chdir(ROOT)
    if subprocess.run([os.path.join(build_dir(), "bin", "course-devices"), *device],
                      stdout=subprocess.DEVNULL).returncode != 0:
        say("The tour stops before its first lesson: no device to run it on.")
        return 2
    rows, failed = [], False
    waits = pause and sys.stdin.isatty()
    for lesson in lessons():
        if waits and rows and not pause_before(lesson.number):
            break
        say()
        title = f" Lesson {lesson.number}: {lesson.name} "
        rule = "=" * max(3, (80 - len(title)) // 2)  # within 80 columns, however long the name
        say(f"{rule}{title}{rule}")
        start = time.monotonic()
        status, output = run_lesson([os.path.join(build_dir(), "lessons", f"lesson_{lesson.number}"), "--output-dir",
                                     f"out/{lesson.folder}", *device], show=not short)
        if short:
            show_brief(status, output, f"./course run {lesson.number}")
        seconds = "%.1f" % (time.monotonic() - start)
        detail = fastest_row(output)
        if status == 0:
            rows.append((lesson.number, lesson.name, "verified", seconds, detail))
        elif status == 77:
            rows.append((lesson.number, lesson.name, "skipped", seconds, "(device lacks it)"))
        elif status == 1:
            rows.append((lesson.number, lesson.name, "NOT VERIFIED", seconds, detail))
            failed = True
        else:
            rows.append((lesson.number, lesson.name, f"error (exit {status})", seconds, "see its output above"))
            failed = True
    say()
    say("Tour summary (images under out/):")
    say(summary_line("NN", "lesson", "result", "seconds", "fastest variant, ms"))
    for row in rows:
        say(summary_line(*row))
    say("Some lessons did not verify: see their output above." if failed else "Every lesson verified its result.")
    return 1 if failed else 0
