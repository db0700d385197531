"""./course tour [--device SPEC] [--pause]: every lesson in order, then a summary."""
import os
import re
import subprocess
import sys
import time

from . import commands, setup
from .course import ROOT, build_dir, die, lessons, say


def fastest_row(output):
    """'fastest: VARIANT T ms' from the results tables a lesson printed (rows verified 'yes')."""
    best = name = None
    in_table = False
    for line in output.splitlines():
        if re.match(r"^  variant  +kernel ms", line):
            in_table = True
            continue
        if in_table and re.match(r"^  -+$", line):
            continue
        if in_table and not re.match(r"^  [^ ]", line):
            in_table = False
        if in_table:
            fields = re.split(r"  +", line)
            if fields[-1] == "yes" and len(fields) > 2:
                try:  # a time is printed with its marks: * too short, + cached
                    value = float(fields[2].rstrip("*+!~"))
                except ValueError:
                    continue
                if best is None or value < best[0]:
                    best, name = (value, fields[2]), fields[1]
    if name is None:
        return ""
    if len(name) > 25:  # keeps the summary in its columns
        name = name[:22] + "..."
    return f"fastest: {name} {best[1]} ms"


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


def run_lesson(command):
    """Runs COMMAND, its output shown as it comes and kept; (exit status, output)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    kept = bytearray()
    while True:
        chunk = process.stdout.read1(65536)
        if not chunk:
            break
        kept += chunk
        sys.stdout.buffer.write(chunk)
        sys.stdout.flush()
    return process.wait(), kept.decode(errors="replace")


def run(args):
    device, pause, i = [], False, 0
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
        elif arg in ("-h", "--help"):
            say(commands.command_help("tour"))
            return 0
        else:
            die(2, f"tour takes only --device and --pause (not '{arg}')")
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
                                     f"out/{lesson.folder}", *device])
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
