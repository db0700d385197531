"""A small course in a temporary folder for the commands' tests: these very commands (harness/cli),
two lessons with exercises, and a build folder whose check program is a script that does what
the exercise file says (PASS, FAIL, LOOP, CRASH, SEGV, or any other text as its failure's cause), so
that a command runs in a second, without a compiler or an OpenCL device."""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

CLI = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MANIFEST = """# number | folder | exercise files | builds on | test arguments | bench operations
01 | 01_first  | first.cl         |    | --quiet |
02 | 02_second | second.cl        | 01 | --quiet | conv2d
03 | 03_third  |                  |    | --quiet |
"""

EXERCISE_MD = """# Exercise {n}
The task of {n}.

## Hint 1
First hint of {n}.

## Hint 2
Second hint of {n}.
"""

# The check program: --from DIR (exercises/ or a student's folder), --result FILE, the rest ignored.
CHECK = '''#!/usr/bin/env python3
import json, os, sys, time
args = sys.argv[1:]
folder = args[args.index("--from") + 1]
result = args[args.index("--result") + 1] if "--result" in args else None
number, name, file = {number!r}, {folder!r}, {file!r}
try:
    what = open(os.path.join(folder, name, file)).read().strip()
except OSError:
    what = "missing"
def write(passed, cases_passed, cause, finished=True):
    if result:
        with open(result + ".tmp", "w") as f:
            json.dump({{"number": number, "name": name, "finished": finished, "passed": passed,
                       "cases_passed": cases_passed, "cases_total": 4,
                       "first_failing_case": "" if passed else "case <2> & 'odd'", "cause": cause,
                       "device": "Fake <CPU> & \\"co\\""}}, f, indent=2)
        os.rename(result + ".tmp", result)
print("Exercise", number, "checking", what)
if what == "PASS":
    write(True, 4, "")
    print("Exercise", number, "passes")
    sys.exit(0)
if what == "LOOP":
    write(False, 0, "", finished=False)
    while True:
        time.sleep(0.1)
if what == "CRASH":
    print("Segmentation fault (core dumped)")
    sys.exit(139)
if what == "SEGV":
    import signal
    os.kill(os.getpid(), signal.SIGSEGV)
write(False, 3, what)
print("Exercise", number, "fails:", what)
sys.exit(1)
'''


class FakeCourse:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="fake-course.")
        self.build = os.path.join(self.root, "build")
        shutil.copytree(CLI, os.path.join(self.root, "harness", "cli"),
                        ignore=shutil.ignore_patterns("__pycache__", "tests"))
        shutil.copytree(os.path.join(os.path.dirname(CLI), "classroom"), os.path.join(self.root, "harness", "classroom"))
        shutil.copytree(os.path.join(os.path.dirname(CLI), "tools"), os.path.join(self.root, "harness", "tools"),
                        ignore=shutil.ignore_patterns("__pycache__", "*.sh", "*.cpp"))
        shutil.copy(os.path.join(os.path.dirname(os.path.dirname(CLI)), "course"), self.root)
        self.write("lessons/lessons.txt", MANIFEST)
        self.write("tests/with_guard_layer.sh", '#!/bin/sh\nshift\nexec "$@"\n', executable=True)
        self.write("teaching/points.json", json.dumps({"partial_credit": True, "points": {"01": 10, "02": 6}}))
        for n, folder, file in (("01", "01_first", "first.cl"), ("02", "02_second", "second.cl")):
            self.write(f"lessons/{folder}/exercise.md", EXERCISE_MD.format(n=n))
            self.write(f"lessons/{folder}/check.cpp", "// the check\n")
            self.write(f"exercises/{folder}/{file}", "FAIL as shipped\n")
            self.write(f"solutions/{folder}/{file}", "PASS\n")
            self.write(f"build/bin/check_{n}", CHECK.format(number=n, folder=folder, file=file), executable=True)
        self.write("lessons/03_third/main.cpp", "")
        self.write("build/CMakeCache.txt", "")
        self.write("build/lib/course_guard_layer.so", "")
        self.stamp()

    def write(self, relative, text, executable=False):
        path = os.path.join(self.root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        if executable:
            os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def read(self, relative):
        with open(os.path.join(self.root, relative)) as f:
            return f.read()

    def stamp(self):
        """Marks the fake build as up to date, so no command tries to build it."""
        subprocess.run([sys.executable, "-c", "import sys; sys.path[0] = sys.argv[1]; from cli import setup; "
                        "setup.write_stamp()", os.path.join(self.root, "harness")], env=self.env(), check=True)

    def env(self):
        return dict(os.environ, COURSE_BUILD_DIR=self.build, COURSE_NO_APT="1")

    def fake_program(self, name, script):
        """A program NAME found first on the PATH of the commands run here (fakebin/NAME)."""
        return self.write(f"fakebin/{name}", script, executable=True)

    def course(self, *args, cwd=None, stdin=subprocess.DEVNULL, timeout=60):
        """./course ARGS in the fake course: (exit status, stdout, stderr)."""
        env = dict(self.env(), PATH=os.path.join(self.root, "fakebin") + os.pathsep + os.environ["PATH"])
        done = subprocess.run([os.path.join(self.root, "course"), *args], cwd=cwd or self.root, env=env,
                              capture_output=True, text=True, stdin=stdin, timeout=timeout)
        return done.returncode, done.stdout, done.stderr

    def remove(self):
        shutil.rmtree(self.root, ignore_errors=True)


class FakeCourseTest(unittest.TestCase):
    """A test case with its own fake course, self.fake."""

    def setUp(self):
        self.fake = FakeCourse()

    def tearDown(self):
        self.fake.remove()

    def assertFits80(self, text):
        wide = [line for line in text.splitlines() if len(line) > 80]
        self.assertEqual(wide, [], "lines wider than 80 columns")


def dedent(text):
    return textwrap.dedent(text).lstrip("\n")
