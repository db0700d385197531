"""./course check NN [options]: runs exercise NN's cases on the student's files and records a pass;
with --from DIR, on DIR/NN_name/ (a student's folder laid out like exercises/), recording nothing.
`./course grade` checks folders the same way (prepare)."""
import os
import shutil
import signal
import subprocess
from collections import namedtuple

from . import setup
from .course import (ROOT, absolute_path, build_dir, die, exercise, exercise_hash, guard_layer_command, lines_around,
                     print_err, record_pass, say)
from .course import lesson as find_lesson

# What runs a check: PROGRAM --from FOLDER; LOG the compiler's log when the exercise has C++.
Prepared = namedtuple("Prepared", "program folder log")


class NotCompiled(Exception):
    """The exercise's C++ did not compile (or ran past the time limit: timed_out)."""

    def __init__(self, log, timed_out=False):
        super().__init__(log)
        self.log = log
        self.timed_out = timed_out


def prepare(lesson, source, time_limit=600):
    """How to check SOURCE/NN_name (SOURCE laid out like exercises/). An exercise with C++ files is
    compiled with them: they are copied into the build folder's graded/NN_name/ (only the files
    whose content changed, so an unchanged submission is not compiled again) and check_NN_graded is
    built, in at most TIME_LIMIT seconds; raises NotCompiled when that fails."""
    out = build_dir()
    if not lesson.is_cpp():
        return Prepared(os.path.join(out, "bin", f"check_{lesson.number}"), source, "")
    copy = os.path.join(out, "graded", lesson.folder)
    os.makedirs(copy, exist_ok=True)
    for name in lesson.files:
        theirs, mine = os.path.join(source, lesson.folder, name), os.path.join(copy, name)
        if not os.path.isfile(theirs):
            if os.path.exists(mine):
                os.remove(mine)
        elif not same_content(theirs, mine):
            shutil.copyfile(theirs, mine)
    log_path = os.path.join(out, "graded", f"{lesson.folder}.build.log")
    with open(log_path, "w") as log:
        try:
            status = subprocess.run(["cmake", "--build", out, "--target", f"check_{lesson.number}_graded"], stdout=log,
                                    stderr=subprocess.STDOUT, timeout=time_limit).returncode
        except subprocess.TimeoutExpired:
            raise NotCompiled(log_path, timed_out=True)
    if status != 0:
        raise NotCompiled(log_path)
    return Prepared(os.path.join(out, "bin", f"check_{lesson.number}_graded"), os.path.join(out, "graded"), log_path)


def same_content(a, b):
    try:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return fa.read() == fb.read()
    except OSError:
        return False


def compile_own(lesson):
    """Exercise NN's own check program, compiled with the student's C++ in exercises/ (exit 3 when
    it does not compile). Rebuilt when the content changes, not only the time (cp -a keeps one)."""
    out = build_dir()
    folder = os.path.join(ROOT, "exercises", lesson.folder)
    digest = exercise_hash(lesson)
    marker = os.path.join(out, f"check_{lesson.number}.content")
    try:
        with open(marker) as f:
            built = f.read().strip()
    except OSError:
        built = ""
    if digest != built:
        for name in lesson.files:
            if name.endswith((".hpp", ".h", ".cpp")) and os.path.exists(os.path.join(folder, name)):
                os.utime(os.path.join(folder, name))
    log_path = os.path.join(out, "check-build.log")
    with open(log_path, "w") as log:
        status = subprocess.run(["cmake", "--build", out, "--target", f"check_{lesson.number}"], stdout=log,
                                stderr=subprocess.STDOUT).returncode
    if status != 0:
        print_err(lines_around(log_path, "error", 0, 4, 40))
        die(3, f"your C++ for exercise {lesson.number} does not compile (full log: {log_path})")
    with open(marker, "w") as f:
        f.write(digest + "\n")


def run_check(lesson, command):
    """Runs a check program; a check killed by a signal (a kernel that wrecked the OpenCL runtime,
    on a CPU device the same process) is explained and exits 3, as an OpenCL failure does."""
    status = subprocess.run(command).returncode
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        say(f"\nThe check stopped in the middle: it was killed by {name} while your kernel\n"
            "ran, a crash, not a report. On a CPU device a kernel that reads or writes\n"
            "outside a buffer or a local array can overwrite the OpenCL runtime's own\n"
            "memory: look at every index into your buffers and local arrays.\n"
            f"'./course check {lesson.number} --verbose' shows each case up to the crash.")
        return 3
    return status


def run(args):
    if not args:
        die(2, "which exercise? e.g. ./course check 01")
    if any(a == "--from" or a.startswith("--from=") for a in args):
        return check_from(args)
    lesson = find_lesson(args[0])
    setup.ensure()
    os.chdir(ROOT)
    if lesson.is_cpp():
        compile_own(lesson)
    program = os.path.join(build_dir(), "bin", f"check_{lesson.number}")
    status = run_check(lesson, guard_layer_command(program, "--from", os.path.join(ROOT, "exercises"),
                                                   "--report-dir", "out/check", *args[1:]))
    if status == 0:
        record_pass(lesson)
        solution = os.path.join(ROOT, "solutions", lesson.folder)
        say(f"Exercise {lesson.number} recorded as passed."
            + (f" The reference solution is in solutions/{lesson.folder}/." if os.path.isdir(solution) else ""))
    return status


def check_from(args):
    """check NN --from DIR [check options]: one exercise of another folder, with the full report."""
    lesson = exercise(args[0])
    source, rest, i = "", [], 1
    while i < len(args):
        if args[i] == "--from":
            if i + 1 >= len(args):
                die(2, "--from needs a folder")
            source = args[i + 1]
            i += 2
            continue
        if args[i].startswith("--from="):
            source = args[i][len("--from="):]
        else:
            rest.append(args[i])
        i += 1
    source = absolute_path(source)
    if not os.path.isdir(os.path.join(source, lesson.folder)):
        die(2, f"there is no folder {source}/{lesson.folder}/ (--from names a folder laid out like exercises/)")
    setup.ensure()
    os.chdir(ROOT)
    try:
        prepared = prepare(lesson, source)
    except NotCompiled as failed:
        if failed.timed_out:
            die(3, f"compiling the C++ of {source}/{lesson.folder}/ ran out of time")
        print_err(lines_around(failed.log, "error", 0, 4, 40))
        die(3, f"the C++ of {source}/{lesson.folder}/ does not compile (full log: {failed.log})")
    status = run_check(lesson, guard_layer_command(prepared.program, "--from", prepared.folder, "--report-dir",
                                                   "out/check", *rest))
    say(f"(Checked {source}/{lesson.folder}/: nothing is recorded; only './course check {lesson.number}' on your own "
        "exercises/ records a pass.)")
    return status

