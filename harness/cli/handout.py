"""./course handout DIR: a student copy of the course without the answers.

What answers an exercise, and so stays out of a handout (docs/teaching.md lists the same):
  solutions/                 the reference solutions;
  files named *_answers.*    the tests that spell out an exercise's answer (tests/test_04_answers.cpp);
  tests/mistakes.txt         each exercise's typical mistakes, written as lines of its solution (the
                             handout keeps its header, so the build reads an empty list);
  the tests' mutant cases    TEST_CASEs of tests/test_*.cpp calling failures_of_mutant(), whose
                             strings are pieces of the solutions;
  .github/                   the course's own CI; the handout gets the classroom workflow.
--hints N keeps each exercise's first N hints; --exercises LIST the exercises the workflow grades."""
import fnmatch
import os
import re
import shutil
import subprocess
import tempfile

from .course import ROOT, STATE, absolute_path, die, exercises, say
from .exercise_text import sections


def parse_list(text):
    """'01-06', '1,3,5' or '02-04,08': the exercises named, in the course's order (exit 2 otherwise)."""
    wanted = set()
    for part in text.split(","):
        bounds = part.split("-")
        if not 1 <= len(bounds) <= 2 or not all(b.isdigit() and b.isascii() for b in bounds):
            die(2, f"--exercises takes numbers and ranges, e.g. 01-06 or 01,03,05 (not '{text}')")
        low, high = int(bounds[0]), int(bounds[-1])
        wanted.update("%02d" % n for n in range(low, high + 1))
    found = [e for e in exercises() if e.number in wanted]
    unknown = sorted(wanted - {e.number for e in exercises()})
    if unknown:
        die(2, f"--exercises names {', '.join(unknown)}, which {'is' if len(unknown) == 1 else 'are'} not an exercise")
    return found


def strip_mutant_cases(text):
    """TEXT without its top-level TEST_CASEs that use failures_of_mutant."""
    out, block = [], None
    for line in text.splitlines(keepends=True):
        if block is None and line.startswith("TEST_CASE("):
            block = [line]
        elif block is not None:
            block.append(line)
            if line.startswith("}"):
                if "failures_of_mutant" not in "".join(block):
                    out += block
                block = None
        else:
            out.append(line)
    return "".join(out)


def keep_hints(text, count):
    """An exercise's page with its task and its first COUNT hints only."""
    task, hints = sections(text)
    kept = task + [line for hint in hints[:count] for line in hint]
    return "\n".join(kept) + "\n"


def leave_out_answers(work, hints):
    """Removes from WORK everything that answers an exercise (see the module's text)."""
    for folder in ("solutions", ".github", ".ci"):
        shutil.rmtree(os.path.join(work, folder), ignore_errors=True)
    for folder, subfolders, files in os.walk(work):
        for name in files:
            if fnmatch.fnmatch(name, "*_answers.*"):
                os.remove(os.path.join(folder, name))
    mistakes = os.path.join(work, "tests", "mistakes.txt")
    if os.path.isfile(mistakes):
        with open(mistakes, encoding="utf-8") as f:
            header = [line for line in f if line.startswith("#")]
        with open(mistakes, "w", encoding="utf-8") as f:
            f.writelines(header)
    tests = os.path.join(work, "tests")
    for name in sorted(os.listdir(tests)) if os.path.isdir(tests) else []:
        if re.match(r"^test_.*\.cpp$", name):
            path = os.path.join(tests, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if "failures_of_mutant" in text:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(strip_mutant_cases(text))
    if hints is not None:
        for lesson in exercises():
            page = os.path.join(work, "lessons", lesson.folder, "exercise.md")
            if os.path.isfile(page):
                with open(page, encoding="utf-8") as f:
                    text = f.read()
                with open(page, "w", encoding="utf-8") as f:
                    f.write(keep_hints(text, hints))


def autograding(graded, points):
    """GitHub Classroom's autograding.json: one test per exercise worth POINTS."""
    tests = []
    for i, lesson in enumerate(graded):
        tests.append('    {"name": "Exercise %s: %s", "setup": "%s", "run": "./course grade %s --junit '
                     'out/grade/junit-%s.xml", "input": "", "output": "", "comparison": "included", "timeout": 10, '
                     '"points": %s}' % (lesson.number, lesson.name, "./course setup" if i == 0 else "", lesson.number,
                                        lesson.number, points))
    return '{\n  "tests": [\n' + ",\n".join(tests) + "\n  ]\n}\n"


WORKFLOW_HEAD = """# Grades every push with ./course grade on a stock Ubuntu runner with PoCL (OpenCL on the CPU):
# one test per exercise (the same as .github/classroom/autograding.json), the points to GitHub
# Classroom, each exercise's JUnit report uploaded as the artifact "grade".
name: Grade the exercises

on:
  push:
  workflow_dispatch:
  repository_dispatch:

permissions:
  checks: write
  actions: read
  contents: read

jobs:
  grade:
    runs-on: ubuntu-24.04
    if: github.actor != 'github-classroom[bot]'
    timeout-minutes: 60
    steps:
      - uses: actions/checkout@v4
      - name: Install PoCL and build (./course setup)
        run: ./course setup
"""

WORKFLOW_TAIL = """      - name: Upload the JUnit reports and each check's report
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: grade
          path: out/grade/
"""


def workflow(graded, points):
    """The workflow that grades every push: a step per exercise worth POINTS, then the points."""
    text = WORKFLOW_HEAD
    for lesson in graded:
        text += (f"      - name: Exercise {lesson.number}\n        id: exercise-{lesson.number}\n"
                 "        uses: classroom-resources/autograding-command-grader@v1\n        with:\n"
                 f"          test-name: Exercise {lesson.number} {lesson.name}\n"
                 f"          command: ./course grade {lesson.number} --junit out/grade/junit-{lesson.number}.xml\n"
                 f"          timeout: 10\n          max-score: {points}\n")
    text += "      - name: Points\n        uses: classroom-resources/autograding-grading-reporter@v1\n        env:\n"
    for lesson in graded:
        text += (f'          EXERCISE-{lesson.number}_RESULTS: "${{{{ steps.exercise-{lesson.number}.outputs.result }}}}"'
                 "\n")
    text += "        with:\n          runners: " + ",".join(f"exercise-{e.number}" for e in graded) + "\n"
    return text + WORKFLOW_TAIL


def write_classroom_files(work, graded, points):
    os.makedirs(os.path.join(work, ".github", "classroom"), exist_ok=True)
    os.makedirs(os.path.join(work, ".github", "workflows"), exist_ok=True)
    with open(os.path.join(work, ".github", "classroom", "autograding.json"), "w") as f:
        f.write(autograding(graded, points))
    with open(os.path.join(work, ".github", "workflows", "grade.yml"), "w") as f:
        f.write(workflow(graded, points))


def copy_course(work):
    """The course as committed (a git clone), else this tree with the exercises as first seen."""
    if subprocess.run(["git", "-C", ROOT, "rev-parse", "--verify", "-q", "HEAD"], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode == 0:
        archive = subprocess.run(["git", "-C", ROOT, "archive", "HEAD"], capture_output=True)
        if archive.returncode != 0 or subprocess.run(["tar", "-x", "-C", work], input=archive.stdout).returncode != 0:
            die(2, f"git archive of {ROOT} failed")
        if subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                          capture_output=True, text=True).stdout:
            say("Note: the handout is made from the last commit; changes not committed are not in it.")
        return
    left_out = {"out", ".course", ".git"}
    for name in os.listdir(ROOT):
        if name in left_out or name.startswith("build"):
            continue
        source, target = os.path.join(ROOT, name), os.path.join(work, name)
        if os.path.isdir(source) and not os.path.islink(source):
            shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target, follow_symlinks=False)
    shipped = os.path.join(STATE, "shipped")
    if os.path.isdir(shipped):
        shutil.copytree(shipped, os.path.join(work, "exercises"), dirs_exist_ok=True)


def run(args):
    dest, git, points, graded, hints, i = "", True, 10, None, None, 0
    while i < len(args):
        arg = args[i]
        if arg == "--no-git":
            git = False
        elif arg in ("--points", "--hints"):
            if i + 1 >= len(args) or not (args[i + 1].isdigit() and args[i + 1].isascii()):
                die(2, f"{arg} takes a whole number")
            if arg == "--points":
                points = int(args[i + 1])
            else:
                hints = int(args[i + 1])
            i += 1
        elif arg == "--exercises":
            if i + 1 >= len(args):
                die(2, "--exercises takes a list, e.g. 01-06")
            graded = parse_list(args[i + 1])
            i += 1
        elif arg.startswith("-"):
            die(2, f"handout takes DIR, --no-git, --points N, --exercises LIST and --hints N (not '{arg}')")
        elif dest:
            die(2, f"handout takes one folder (not '{dest}' and '{arg}')")
        else:
            dest = arg
        i += 1
    if not dest:
        die(2, "where? e.g. ./course handout ../opencl-course-student")
    dest = os.path.normpath(absolute_path(dest))
    if os.path.exists(dest) and (not os.path.isdir(dest) or os.listdir(dest)):
        die(2, f"{dest} already exists and is not an empty folder: name a new one")
    if git and not shutil.which("git"):
        die(2, "making a git repository needs git (or add --no-git)")
    graded = graded if graded is not None else exercises()
    work = tempfile.mkdtemp(prefix="handout.")
    try:
        copy_course(work)
        leave_out_answers(work, hints)
        write_classroom_files(work, graded, points)
        if os.path.isdir(dest):
            os.rmdir(dest)
        os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
        shutil.move(work, dest)
    except OSError as error:
        shutil.rmtree(work, ignore_errors=True)
        die(2, f"cannot write {dest} ({error.strerror})")
    os.chmod(dest, 0o755)
    if git:
        who = []
        for key, value in (("user.name", "Course handout"), ("user.email", "handout@localhost")):
            if subprocess.run(["git", "-C", dest, "config", key], stdout=subprocess.DEVNULL).returncode != 0:
                who += ["-c", f"{key}={value}"]
        made = all(subprocess.run(command, stdout=subprocess.DEVNULL).returncode == 0 for command in (
            ["git", "-C", dest, "init", "-q"], ["git", "-C", dest, "add", "-A"],
            ["git", "-C", dest, *who, "commit", "-q", "-m",
             "The course, for students: the exercises without their solutions"]))
        if not made:
            die(2, f"git could not make the repository in {dest} (the files are there; --no-git skips this step)")
    say("The student copy" + (" (a git repository, one commit)" if git else "") + " is in")
    say(f"  {dest}")
    say("It has no solutions/; its ./course test passes, the solutions' checks skipped.")
    say("Classroom: .github/workflows/grade.yml and .github/classroom/autograding.json")
    say(f"grade {len(graded)} exercises, {points} points each.")
    return 0
