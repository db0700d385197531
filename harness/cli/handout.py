"""./course handout DIR: a student copy of the course without the answers.

What answers an exercise, and so stays out of a handout (docs/teaching.md lists the same):
  solutions/                 the reference solutions;
  files named *_answers.*    the tests that spell out an exercise's answer (tests/test_04_answers.cpp);
  tests/mistakes.txt         each exercise's typical mistakes, written as lines of its solution (the
                             handout keeps its header, so the build reads an empty list);
  the tests' mutant cases    TEST_CASEs of tests/test_*.cpp calling failures_of_mutant(), whose
                             strings are pieces of the solutions;
  .github/                   the course's own CI; the handout gets the classroom workflow
                             (harness/classroom/grade.yml) and its schedule (schedule.py).
--hints N keeps each exercise's first N hints; --exercises LIST the exercises the workflow grades;
--points N gives each exercise N points; --image NAME is the container image the handout's dev
container runs (by default the one published for the course's GitHub repository, if any)."""
import fnmatch
import json
import os
import re
import shutil
import subprocess
import tempfile

from . import schedule
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


def write_classroom_files(work, graded, points):
    """The handout's grading workflow, its schedule (the exercises GRADED) and, where POINTS is
    given, that many points for every exercise in its teaching/points.json."""
    for folder in (".github/workflows", os.path.dirname(schedule.PATH)):
        os.makedirs(os.path.join(work, folder), exist_ok=True)
    shutil.copyfile(os.path.join(ROOT, "harness", "classroom", "grade.yml"),
                    os.path.join(work, ".github", "workflows", "grade.yml"))
    with open(os.path.join(work, schedule.PATH), "w", encoding="utf-8") as f:
        f.write(schedule.text(graded))
    if points is not None:
        path = os.path.join(work, "teaching", "points.json")
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        data["points"] = {lesson.number: points for lesson in exercises()}
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(data, indent=2) + "\n")


def published_image():
    """The image the course's publishing workflow pushes for the GitHub repository the course was
    cloned from (its remote 'origin'): ghcr.io/owner/name; '' where there is none."""
    url = subprocess.run(["git", "-C", ROOT, "remote", "get-url", "origin"], capture_output=True,
                         text=True).stdout.strip() if shutil.which("git") else ""
    found = re.search(r"github\.com[:/]+([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?$", url)
    return f"ghcr.io/{found[1]}/{found[2]}".lower() if found else ""


def use_image(work, image):
    """The handout's dev container runs IMAGE instead of building the Dockerfile."""
    path = os.path.join(work, ".devcontainer", "devcontainer.json")
    if not os.path.isfile(path):
        return
    with open(path, encoding="utf-8") as f:
        config = json.load(f)
    config.pop("build", None)
    config = {"name": config.pop("name", "course"), "image": image, **config}
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(config, indent=2) + "\n")


def copy_course(work):
    """The course as committed (a git clone), else this tree with the exercises as first seen."""
    if shutil.which("git") and subprocess.run(["git", "-C", ROOT, "rev-parse", "--verify", "-q", "HEAD"],
                                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
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
    dest, git, points, graded, hints, image, i = "", True, None, None, None, None, 0
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
        elif arg == "--image":
            if i + 1 >= len(args) or not re.fullmatch(r"[a-z0-9][a-z0-9._/:@-]*", args[i + 1]):
                die(2, "--image takes an image's name in lower case, e.g. ghcr.io/university/opencl-course")
            image = args[i + 1]
            i += 1
        elif arg == "--exercises":
            if i + 1 >= len(args):
                die(2, "--exercises takes a list, e.g. 01-06")
            graded = parse_list(args[i + 1])
            i += 1
        elif arg.startswith("-"):
            die(2, f"handout takes DIR, --no-git, --points N, --exercises LIST, --hints N and --image NAME "
                   f"(not '{arg}')")
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
    image = image if image is not None else published_image()
    work = tempfile.mkdtemp(prefix="handout.")
    try:
        copy_course(work)
        leave_out_answers(work, hints)
        write_classroom_files(work, graded, points)
        if image:
            use_image(work, image)
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
    say(f"Its workflow grades the {len(graded)} exercises of {schedule.PATH}")
    say("(add the day each counts from there); the points are in teaching/points.json.")
    say(f"Its dev container runs {image}." if image else "Its dev container builds the Dockerfile.")
    return 0
