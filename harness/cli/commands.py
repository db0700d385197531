"""Every command once: its arguments, what it does in one line, its help, its section. `./course
help` and `./course COMMAND --help` both print from this table."""
from collections import namedtuple

Command = namedtuple("Command", "name args short long section")

COMMANDS = [
    Command("tour", "[--device SPEC] [--pause] [--brief]",
            "run every lesson in order, then a summary",
            "Runs every lesson in order, writing images under out/, then a summary. --pause waits for Enter "
            "between lessons (q stops), for a projector; without a terminal it does not wait. --brief shows "
            "of each lesson that verifies only its tables and at most three lines of notes.", "Start here"),
    Command("test", "[--sanitize] [ctest options]",
            "build and run the test suite (--sanitize: ASan + UBSan)",
            "Builds and runs the whole test suite with ctest (e.g. -R 'lesson 02'), the commands' own unit "
            "tests among them; --sanitize builds build-sanitize/ with ASan and UBSan first.", "Start here"),
    Command("run", "NN [--brief] [options]", "run lesson NN (./course run 02 --help shows its options)",
            "Runs lesson NN; './course run NN --help' shows the lesson's own options. --input and --output "
            "are read from the folder you type the command in. --brief shows only the lesson's tables and at "
            "most three lines of their notes (all of it when the lesson does not verify).",
            "Lessons and exercises"),
    Command("list", "", "every lesson, and whether you have passed its exercise",
            "Every lesson, and whether you have passed its exercise; an exercise edited since it passed "
            "shows 'changed since it passed'.", "Lessons and exercises"),
    Command("check", "NN [--verbose] [--seed N] [--device SPEC] [--from DIR]",
            "check your kernels in exercises/NN_*/",
            "Runs exercise NN's cases on your files in exercises/NN_*/ and records a pass for './course list' "
            "(--from DIR: the files of DIR/NN_*/ instead, a student's folder laid out like exercises/, and "
            "nothing recorded). The report fits the terminal: the first failing case in full, the others "
            "grouped by cause (--verbose: every case). One small case runs again under Oclgrind, when "
            "installed, to name races and accesses outside a buffer by line. --seed N checks other random "
            "data. Exits 0 when every case passes, 1 when one fails, 3 when your kernel does not compile.",
            "Lessons and exercises"),
    Command("watch", "[NN]", "check an exercise again each time you save it",
            "Checks exercise NN (or the first one not yet passed) and again within 2 s of each save of its "
            "files. Keys: h next hint, n next exercise once this one passes, l list, q quit. Without a "
            "terminal it checks once.", "Lessons and exercises"),
    Command("hint", "NN", "the exercise's task, then one more hint each time",
            "Prints the exercise's task, then one more hint each time you ask.", "Lessons and exercises"),
    Command("reset", "NN [--yes]", "put exercises/NN_*/ back as shipped (yours is kept)",
            "Puts exercises/NN_*/ back as shipped after asking (--yes: without asking); your version is kept "
            "under out/reset/NN_*-TIMESTAMP/.", "Lessons and exercises"),
    Command("devices", "[--device SPEC]", "the OpenCL devices, numbered as --device takes them",
            "Lists every OpenCL device with the index --device takes, and the one the course would use.",
            "Lessons and exercises"),
    Command("grade", "[NN... | --schedule FILE] [--from DIR | --roster DIR [--again]] [--junit FILE] "
            "[--json FILE] [--csv FILE] [--classroom FILE] [--time-limit S] [--device D]",
            "grade exercises (one student: --from, a class: --roster)",
            "Checks the exercises NN (all by default) in exercises/ or in DIR (one student's folder laid out "
            "like exercises/) and records nothing as passed. One line per exercise: passed, cases "
            "passed/total, the first failing case and its cause, seconds; --junit, --json and --csv write "
            "the same results to FILE. A check running past --time-limit (120 s) is stopped, reported as "
            "'ran out of time', and grading goes on. --device D checks on device D (as COURSE_DEVICE does). Each check's full report: out/grade/NN_name.log. Exits "
            "0 when every exercise passes, 1 otherwise. --roster DIR grades every student's folder in DIR "
            "(named by the student's id, laid out like exercises/): each student's reports, JUnit and JSON "
            "in out/grade/ID/, one CSV row per student with the points of teaching/points.json (--csv FILE, "
            "else out/grade/grades.csv); a student already graded at the same content is skipped unless "
            "--again. --schedule FILE grades the exercises FILE lists whose day has come (a handout's "
            ".github/classroom/schedule.txt); --classroom FILE writes their points (teaching/points.json) as "
            "GitHub Classroom's reporter reads them. (One exercise of another folder, with the full report: "
            "./course check NN --from DIR.)",
            "Teaching"),
    Command("handout", "DIR [--no-git] [--points N] [--exercises LIST] [--hints N] [--image NAME]",
            "a student copy in DIR: no solutions, a git repository",
            "Writes a student copy of the course to DIR (a new or empty folder): the last commit without "
            "solutions/ and without the tests that spell out answers (files named *_answers.*), with a "
            "classroom workflow (.github/workflows/grade.yml) grading the exercises of LIST (e.g. 01-06; all "
            "by default) that its .github/classroom/schedule.txt lists, N points an exercise in its "
            "teaching/points.json (the course's points by default); --hints N keeps each exercise's first N "
            "hints; its dev container runs the image NAME (by default the one the course's GitHub repository "
            "publishes, if any; else it builds the Dockerfile). A git repository with one commit (--no-git: "
            "a plain folder). Its ./course test passes, the solutions' checks reported as skipped.",
            "Teaching"),
    Command("slides", "[NN...]", "each lesson's slides into build/slides/ (HTML, PDF)",
            "Makes each lesson's slides (all by default) from its deck docs/slides/NN_name.md with pandoc: "
            "build/slides/NN_name.html, one file that works offline, and a PDF where Chromium is installed. "
            "Each slide is checked at 1280x720 in headless Chromium; a slide that overflows, cuts text, misses "
            "an image or has text under 18 px is named and the command exits 1. Installs pandoc and Chromium "
            "when missing (COURSE_NO_APT=1 forbids it).",
            "Teaching"),
    Command("setup", "", "install what is missing (Debian packages), build",
            "Installs the missing Debian packages (apt-get, through sudo when not root; COURSE_NO_APT=1 "
            "forbids it) and builds into build/, a line per step. Every command that needs the build does "
            "this first, when a file of the course changed since the last build.", "Other"),
    Command("docs", "[--check] [--runs DIR]", "build the course site (Doxygen) into build/docs/html",
            "Builds the course site with Doxygen into build/docs/html, the pages' measurements filled in from "
            "the recorded runs of data/runs (--runs DIR: from yours, lessons run with --record DIR/NN.json); "
            "--check then opens every page in headless Chromium (installing chromium when missing) and fails, "
            "naming page and text, on what a reader would see wrong. Screenshots go to out/docs/.", "Other"),
    Command("bench", "[options]", "every operation's performance ladder (bench --help)",
            "The performance ladder of every operation; ./course bench --help shows its options.", "Other"),
    Command("fuzz", "[SECONDS]", "fuzz the image loader for SECONDS (60), libFuzzer",
            "Builds the image-loading fuzzer with clang (installing clang when missing) in build-fuzz/ and runs "
            "it for SECONDS (default 60); exits 0 when it found nothing.", "Other"),
    Command("memcheck", "[LESSON [ARGS...]]", "run a lesson (01 by default) under valgrind's memcheck",
            "Runs a lesson under valgrind's memcheck (installing valgrind when missing), lesson 01 by default; "
            "exits 99 on an error in the course's code. Example: ./course memcheck build/lessons/lesson_02 "
            "--size 37x29 --repeat 1 --radius 2", "Other"),
    Command("help", "", "this text", "Shows every command.", "Other"),
]

EPILOGUE = """
Choosing a device: --device SPEC after any command that runs kernels, or
COURSE_DEVICE=SPEC. SPEC is an index from './course devices', part of a name
(pocl, nvidia), or cpu / gpu.

examples:
  ./course tour
  ./course run 02 --radius 5 --filter box
  COURSE_DEVICE=gpu ./course run 04 --trace
  ./course watch 02
  ./course check 01 && ./course list"""


def find(name):
    return next((c for c in COMMANDS if c.name == name), None)


def usage():
    """./course help: every command, a line each, by section."""
    lines, last = ["usage: ./course COMMAND [arguments]"], None
    for c in COMMANDS:
        if c.section != last:
            lines += ["", f"{c.section}:"]
            last = c.section
        # The first argument only, and only when it is not an option: "run NN", "watch [NN]".
        first = c.args.split(" ")[0] if c.args else ""
        if first.startswith("[--"):
            first = ""
        elif first.startswith("[") and not first.endswith("]"):
            first += "]"
        text = wrap(c.short, 80 - 23)
        lines.append("  %-20s %s" % (c.name + (" " + first if first else ""), text[0]))
        lines += [" " * 23 + more for more in text[1:]]
    return "\n".join(lines) + "\n" + EPILOGUE


def wrap(text, width=80):
    """TEXT broken at spaces into lines of at most WIDTH columns."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + ([line] if line else [])


def command_help(name):
    """./course NAME --help: its usage line and help, within 80 columns (None when no such command)."""
    c = find(name)
    if not c:
        return None
    return "\n".join(wrap(f"usage: ./course {c.name}" + (f" {c.args}" if c.args else "")) + wrap(c.long))


def distance(a, b):
    """The edits (insert, delete, replace, swap two neighbours) that make A into B."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            c = min(d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), d[i - 1][j] + 1, d[i][j - 1] + 1)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                c = min(c, d[i - 2][j - 2] + 1)
            d[i][j] = c
    return d[len(a)][len(b)]


def nearest(word, candidates):
    """The first candidate nearest WORD, when at most two edits away."""
    best = min(candidates, key=lambda c: distance(word, c), default=None)
    return best if best is not None and distance(word, best) <= 2 else None
