"""./course run NN [options]: runs lesson NN, with --input, --output, --output-dir and --record
read from the folder the command was typed in; --brief shows only its tables and at most three
lines of their notes."""
import os

from . import setup
from .brief import run_lesson, show_brief
from .course import ROOT, absolute_path, build_dir, die, lesson as find_lesson

PATH_OPTIONS = ("--input", "--output", "--output-dir", "--record")


def resolve_paths(args):
    """ARGS with the values of --input, --output, --output-dir and --record made absolute from the folder the
    command was typed in (./course runs the lesson from the course's root)."""
    resolved, i = [], 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg in PATH_OPTIONS:
            resolved.append(arg)
            if i < len(args) and not args[i].startswith("--"):
                resolved.append(absolute_path(args[i]))
                i += 1
        elif arg.split("=", 1)[0] in PATH_OPTIONS and "=" in arg:
            option, value = arg.split("=", 1)
            resolved.append(f"{option}={absolute_path(value)}")
        else:
            resolved.append(arg)
    return resolved


def with_guards(command, guards=True):
    """COMMAND, run with guard bands around every buffer when GUARDS and COURSE_GUARD_BANDS ask
    for them (the guard layer, harness/guard_layer.cpp, is preloaded)."""
    bands = os.environ.get("COURSE_GUARD_BANDS", "")
    if guards and bands and bands != "0":
        return [os.path.join(ROOT, "tests", "with_guard_layer.sh"),
                os.path.join(build_dir(), "lib", "course_guard_layer.so"), *command]
    return command


def exec_with_guards(command, guards=True):
    """Runs COMMAND in place of this process, with guard bands when asked (with_guards)."""
    command = with_guards(command, guards)
    try:
        os.execv(command[0], command)
    except OSError as error:
        die(2, f"cannot run {command[0]} ({error.strerror}): ./course setup builds it")


def run(args):
    if not args:
        die(2, "which lesson? e.g. ./course run 01 (./course list shows them)")
    lesson = find_lesson(args[0])
    short = "--brief" in args[1:]
    options = [a for a in args[1:] if a != "--brief"]
    setup.ensure()
    os.chdir(ROOT)
    command = [os.path.join(build_dir(), "lessons", f"lesson_{lesson.number}"), *resolve_paths(options)]
    if not short or "--help" in options or "-h" in options:
        exec_with_guards(command)
    try:
        status, output = run_lesson(with_guards(command), show=False)
    except OSError as error:
        die(2, f"cannot run {command[0]} ({error.strerror}): ./course setup builds it")
    show_brief(status, output, f"./course run {lesson.number} without --brief")
    return status
