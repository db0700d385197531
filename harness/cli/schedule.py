"""The schedule of a handout's classroom workflow, .github/classroom/schedule.txt: the exercises the
workflow grades, each from the day it names on. ./course handout writes it, the instructor edits
it, ./course grade --schedule FILE reads it (the workflow's one grading command)."""
import datetime
import re

from .course import die, exercises

PATH = ".github/classroom/schedule.txt"

HEADER = """\
# The exercises that .github/workflows/grade.yml grades on every push, one a line: the number,
# then, if you like, the day (YYYY-MM-DD) from which it counts. An exercise whose day has not
# come yet is left out, so the workflow stays green until the week it is set. Example:
#   03 2026-10-12
"""


def text(graded):
    """The schedule of a handout that grades the exercises GRADED, each from the first push on."""
    return HEADER + "".join(f"{lesson.number}\n" for lesson in graded)


def due(path, today=None):
    """The exercises the schedule at PATH lists whose day has come (TODAY, in UTC, by default), in
    the course's order; exit 2, naming the line, when it lists something else."""
    today = today or datetime.datetime.now(datetime.timezone.utc).date()
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        die(2, f"cannot read the schedule {path}")
    known = {lesson.number: lesson for lesson in exercises()}
    wanted = set()
    for i, line in enumerate(lines, 1):
        fields = line.split("#")[0].split()
        if not fields:
            continue
        number = "%02d" % int(fields[0]) if re.fullmatch(r"[0-9]{1,2}", fields[0]) else fields[0]
        if number not in known or len(fields) > 2:
            die(2, f"{path}:{i}: '{line.strip()}' is not an exercise's number and, if any, its day")
        if len(fields) == 2:
            try:
                day = datetime.date.fromisoformat(fields[1]) if re.fullmatch(r"\d{4}-\d\d-\d\d", fields[1]) else None
            except ValueError:
                day = None
            if day is None:
                die(2, f"{path}:{i}: '{fields[1]}' is not a day written YYYY-MM-DD")
            if day > today:
                continue
        wanted.add(number)
    return [lesson for lesson in exercises() if lesson.number in wanted]
