"""./course hint NN: the exercise's task, then one more hint each time."""
import os

from .course import ROOT, STATE, die, lesson as find_lesson, say
from .exercise_text import exercise_page, sections, task


def run(args):
    if not args:
        die(2, "which exercise? e.g. ./course hint 01")
    lesson = find_lesson(args[0])
    page = os.path.join(ROOT, "lessons", lesson.folder, "exercise.md")
    if not os.path.isfile(page):
        die(2, f"lesson {lesson.number} has no exercise")
    hints = sections(exercise_page(lesson.folder))[1]
    counter = os.path.join(STATE, f"hints-{lesson.number}")
    os.makedirs(STATE, exist_ok=True)
    marker = os.path.join(STATE, f"task-{lesson.number}")
    if not os.path.exists(marker):
        # The task alone first, from the source of exercises/NN_*/README.md; the hints from the next call.
        say(task(lesson.folder).rstrip("\n"))
        open(marker, "w").close()
        say(f"(The task is also in exercises/{lesson.folder}/README.md. A hint: ./course hint {lesson.number})")
        return 0
    try:
        with open(counter) as f:
            seen = int(f.read().strip() or 0)
    except (OSError, ValueError):
        seen = 0
    if seen >= len(hints):
        say(f"You have seen all {len(hints)} hints; the whole text, task and hints, is in lessons/{lesson.folder}/exercise.md.")
        say(f"Run './course check {lesson.number}' and read the first failing case.")
        return 0
    say("\n".join(hints[seen]))
    seen += 1
    with open(counter, "w") as f:
        f.write(f"{seen}\n")
    if seen < len(hints):
        say(f"({len(hints) - seen} more: ./course hint {lesson.number})")
    else:
        say(f"(That was the last hint; the whole text is in lessons/{lesson.folder}/exercise.md.)")
    return 0
