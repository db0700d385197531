"""What every command shares: the course's folders, its lessons (lessons/lessons.txt, read here and
nowhere else in the commands), the exercises' state (passed, as shipped), and how a command stops
with a message."""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The folder the command was typed in: --input, --output, --from and the like are read from there.
ORIG_PWD = os.environ.get("PWD") if os.path.realpath(os.environ.get("PWD", "/nowhere")) == os.path.realpath(
    os.getcwd()) else os.getcwd()
STATE = os.path.join(ROOT, ".course")


class Stop(Exception):
    """Ends the command: exit status CODE, MESSAGE (if any) printed as 'course: MESSAGE'."""

    def __init__(self, code, message=""):
        super().__init__(message)
        self.code = code
        self.message = message


def die(code, message):
    raise Stop(code, message)


def say(text=""):
    print(text, flush=True)


def build_dir():
    return os.environ.get("COURSE_BUILD_DIR") or os.path.join(ROOT, "build")


def jobs():
    return str(os.cpu_count() or 2)


def shown(path):
    """PATH relative to the course's root when it lies inside it, else as it is."""
    return path[len(ROOT) + 1:] if path.startswith(ROOT + "/") else path


def absolute_path(path):
    """PATH from the folder the command was typed in."""
    return path if os.path.isabs(path) or not path else os.path.join(ORIG_PWD, path)


# --- the lessons ---------------------------------------------------------------------------
class Lesson:
    """One line of lessons/lessons.txt: number | folder | exercise files | builds on | test
    arguments | bench operations."""

    def __init__(self, fields):
        fields = [f.strip() for f in fields] + [""] * (6 - len(fields))
        self.number, self.folder = fields[0], fields[1]
        self.files = fields[2].split()
        self.builds_on = fields[3].split()
        self.test_arguments = fields[4]
        self.bench = fields[5].split()

    @property
    def name(self):  # the folder without its number: platform_setup
        return self.folder[3:]

    def has_exercise(self, root=None):
        lesson = os.path.join(root or ROOT, "lessons", self.folder)
        return os.path.isfile(os.path.join(lesson, "check.cpp")) or os.path.isfile(
            os.path.join(lesson, "exercise.md"))

    def is_cpp(self):
        return any(f.endswith((".hpp", ".h", ".cpp")) for f in self.files)

    def as_data(self):
        return {"number": self.number, "folder": self.folder, "exercise_files": self.files,
                "builds_on": self.builds_on, "test_arguments": self.test_arguments, "bench": self.bench}


def parse_manifest(text):
    """The lessons of lessons.txt's TEXT, in order: every line that starts with two digits and |."""
    lessons = []
    for line in text.splitlines():
        if len(line) > 2 and line[:2].isdigit() and line[2:].lstrip().startswith("|"):
            lessons.append(Lesson(line.split("|")))
    return lessons


def lessons_of(root):
    """The lessons of ROOT/lessons/lessons.txt (the one place the Python reads that file; the bench
    and the tests' scripts call this too)."""
    with open(os.path.join(root, "lessons", "lessons.txt"), encoding="utf-8") as f:
        return parse_manifest(f.read())


_lessons = None


def lessons():
    global _lessons
    if _lessons is None:
        _lessons = lessons_of(ROOT)
    return _lessons


def exercises():
    return [lesson for lesson in lessons() if lesson.has_exercise()]


def lesson(number):
    """The lesson NUMBER names (1, 01), or a stop with exit 2 that says what to type."""
    if not (number.isdigit() and 1 <= len(number) <= 2 and number.isascii()):
        die(2, f"'{number}' is not a lesson number; './course list' shows the lessons")
    wanted = "%02d" % int(number)
    for found in lessons():
        if found.number == wanted:
            return found
    die(2, f"there is no lesson {wanted}; './course list' shows the lessons")


def exercise(number):
    found = lesson(number)
    if not found.has_exercise():
        die(2, f"lesson {found.number} has no exercise")
    return found


# --- the exercises' state ------------------------------------------------------------------
def content_hash(lesson_, folder):
    """A hash of the content of lesson_'s exercise files in FOLDER (exercises/NN_name)."""
    digest = hashlib.sha256()
    for name in lesson_.files:
        digest.update(name.encode() + b"\n")
        try:
            with open(os.path.join(folder, name), "rb") as f:
                digest.update(f.read())
        except OSError:
            digest.update(b"missing\n")
    return digest.hexdigest()[:16]


def exercise_hash(lesson_):
    return content_hash(lesson_, os.path.join(ROOT, "exercises", lesson_.folder))


def recorded_passes():
    """.course/passed: "NN HASH" lines, the last of a number counting."""
    passes = {}
    try:
        with open(os.path.join(STATE, "passed"), encoding="utf-8") as f:
            for line in f:
                words = line.split()
                if len(words) >= 2:
                    passes[words[0]] = words[1]
    except OSError:
        pass
    return passes


def pass_state(lesson_):
    """'passed' while the files hold the content that passed, 'changed' after an edit, '' never."""
    recorded = recorded_passes().get(lesson_.number)
    if not recorded:
        return ""
    return "passed" if recorded == exercise_hash(lesson_) else "changed"


def record_pass(lesson_):
    passes = recorded_passes()
    passes.pop(lesson_.number, None)
    lines = [f"{n} {h}\n" for n, h in passes.items()] + [f"{lesson_.number} {exercise_hash(lesson_)}\n"]
    write_atomically(os.path.join(STATE, "passed"), "".join(lines))


def write_atomically(path, text):
    """TEXT into PATH, whole or not at all (its folder made when missing); exit 2 when it cannot."""
    try:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        tmp = f"{path}.tmp-{os.getpid()}"
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError:
        try:
            os.remove(f"{path}.tmp-{os.getpid()}")
        except OSError:
            pass
        die(2, f"cannot write {path}")


def shipped_from_git(relative):
    """exercises/RELATIVE as the checkout's last commit has it (bytes), or None."""
    if not shutil.which("git"):
        return None
    inside = subprocess.run(["git", "-C", ROOT, "rev-parse", "--is-inside-work-tree"],
                            capture_output=True)
    if inside.returncode != 0:
        return None
    shown_file = subprocess.run(["git", "-C", ROOT, "show", f"HEAD:exercises/{relative}"], capture_output=True)
    return shown_file.stdout if shown_file.returncode == 0 else None


def shipped_copy(lesson_, name):
    """An exercise file as shipped: from git in a clone, else from .course/shipped/ (or None)."""
    content = shipped_from_git(f"{lesson_.folder}/{name}")
    if content is not None:
        return content
    try:
        with open(os.path.join(STATE, "shipped", lesson_.folder, name), "rb") as f:
            return f.read()
    except OSError:
        return None


def save_shipped():
    """The first command run in this tree keeps the exercises as shipped, for reset (an unpacked
    archive has no git to ask)."""
    if os.path.isdir(os.path.join(STATE, "shipped")) or not os.path.isdir(os.path.join(ROOT, "exercises")):
        return
    os.makedirs(STATE, exist_ok=True)
    work = tempfile.mkdtemp(prefix="shipped.", dir=STATE)
    for lesson_ in lessons():
        for name in lesson_.files:
            mine = os.path.join(ROOT, "exercises", lesson_.folder, name)
            if not os.path.isfile(mine):
                continue
            os.makedirs(os.path.join(work, lesson_.folder), exist_ok=True)
            content = shipped_from_git(f"{lesson_.folder}/{name}")
            if content is None:
                with open(mine, "rb") as f:
                    content = f.read()
            with open(os.path.join(work, lesson_.folder, name), "wb") as f:
                f.write(content)
    os.rename(work, os.path.join(STATE, "shipped"))


# --- running programs ----------------------------------------------------------------------
def guard_layer_command(program, *args):
    """PROGRAM ARGS with the guard layer preloaded (tests/with_guard_layer.sh)."""
    return [os.path.join(ROOT, "tests", "with_guard_layer.sh"),
            os.path.join(build_dir(), "lib", "course_guard_layer.so"), program, *args]


def lines_around(path, word, before, after, limit):
    """Like grep -B BEFORE -A AFTER WORD PATH | head -n LIMIT: the lines near each holding WORD."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    keep, out, last = set(), [], None
    for i, line in enumerate(lines):
        if word in line:
            keep.update(range(max(0, i - before), min(len(lines), i + after + 1)))
    for i in sorted(keep):
        if last is not None and i > last + 1:
            out.append("--")
        out.append(lines[i])
        last = i
    return out[:limit]


def print_err(lines):
    for line in lines:
        print(line, file=sys.stderr)
    sys.stderr.flush()
