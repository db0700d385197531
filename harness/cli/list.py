"""./course list: every lesson, and whether its exercise passed (and still holds what passed)."""
from .course import die, lessons, pass_state, say


def state(lesson):
    if not lesson.has_exercise():
        return "-"
    return {"passed": "passed",
            "changed": f"changed since it passed: ./course check {lesson.number}"}.get(
        pass_state(lesson), f"not yet: ./course check {lesson.number}, ./course hint {lesson.number}")


def run(args):
    if args:
        die(2, f"list takes no arguments (not '{args[0]}')")
    say("  %-3s %-28s %s" % ("NN", "lesson", "exercise"))
    for lesson in lessons():
        say("  %-3s %-28s %s" % (lesson.number, lesson.name, state(lesson)))
