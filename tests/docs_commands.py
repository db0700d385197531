#!/usr/bin/env python3
"""Every command and script the pages name is one the course has.

docs_commands.py ROOT BUILD [DOCS]: pulls every `./course ...` command and every script (*.py, *.sh)
out of ROOT/docs/*.md, in code spans and code blocks, and checks each against the course as built
in BUILD: the command exists; a lesson run names a lesson and only options (and variants) its
--help lists; bench, check, hint, ... take the options their --help lists; a script exists in the
course, a Python script's --help runs, and one that needs OpenCV says how to get it (and fails
with that sentence) when OpenCV is missing. Prints one line per mistake, page first; exit 1 on any.
"""
import os
import re
import subprocess
import sys
import tempfile

if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
    print(__doc__)
    sys.exit(0 if len(sys.argv) > 1 else 2)
ROOT, BUILD = (os.path.abspath(p) for p in sys.argv[1:3])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "harness"))
from cli.course import lessons_of  # noqa: E402  the one reader of lessons/lessons.txt
DOCS = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else os.path.join(ROOT, "docs")  # another folder of pages: the test's own
ENV = dict(os.environ, COURSE_BUILD_DIR=BUILD, COURSE_NO_APT="1")
OPENCV_SENTENCE = "sudo apt-get install python3-opencv"
mistakes = []


def run(argv, env=ENV):
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr


# --- what the pages name ------------------------------------------------------------------
def page_texts(path):
    """The page's code block lines, and its text with code blocks removed and lines joined."""
    blocks, prose, fence = [], [], None
    for line in open(path, encoding="utf-8").read().split("\n"):
        opening = re.match(r"\s*(```|~~~)", line)
        if blocks and blocks[-1].endswith("\\") and (fence or line.startswith("    ")):
            blocks[-1] = blocks[-1][:-1] + " " + line.strip()  # a command continued on the next line
        elif fence:
            if opening and opening.group(1) == fence:
                fence = None
            else:
                blocks.append(line)
        elif opening:
            fence = opening.group(1)
        elif re.match(r"( {4}|\t)\s*(\S+=\S+\s+)*(\./course|/usr/bin/python3|python3)\s", line):
            blocks.append(line)
        else:
            prose.append(line.strip())
    return blocks, " ".join(prose)


def commands_and_scripts(path):
    blocks, prose = page_texts(path)
    commands = []
    for line in blocks:
        match = re.search(r"(?:^|\s)\./course\s+(.*)", line)
        if match:
            commands.append(match.group(1))
    for span in re.finditer(r"(`+)\s*(.+?)\s*\1", prose):
        match = re.search(r"(?:^|\s)\./course\s+(.*)", span.group(2))
        if match:
            commands.append(match.group(1))
    scripts = set(re.findall(r"(?<![\w/.-])((?:\.\./)*[\w.-]+(?:/[\w.-]+)*\.(?:py|sh))\b", "\n".join(blocks) + " " + prose))
    return commands, scripts


def words(command):
    """The command's words, up to a comment or a shell operator."""
    out = []
    for word in command.split():
        if word in ("#", "&&", "||", "|", ";", ">", "2>&1") or word.startswith("#"):
            break
        out.append(word.rstrip(";"))
    return out


# --- what the course has -------------------------------------------------------------------
help_texts = {}


def help_of(key, argv):
    if key not in help_texts:
        status, text = run(argv)
        help_texts[key] = text if status == 0 else None
    return help_texts[key]


def course_commands():
    status, text = run([os.path.join(ROOT, "course"), "help"])
    return set(re.findall(r"^  ([a-z]+)\b", text, re.M))


def lessons():
    return {lesson.number: lesson.folder for lesson in lessons_of(ROOT)}


def placeholder(word):
    return bool(re.fullmatch(r"[A-Z][A-Z0-9_]*|<.*>|\[.*\]|\.\.\.|[A-Z]+\.\w+", word))


def check_options(page, shown, argv, help_text, what):
    if help_text is None:
        mistakes.append(f"{page}: `{shown}`: {what} has no --help")
        return
    for index, word in enumerate(argv):
        if not word.startswith("-") or re.fullmatch(r"-?\d[\d.]*", word):
            continue
        option = word.split("=")[0]
        if not re.search(r"(^|[\s\[,(])" + re.escape(option) + r"\b(?!-)", help_text):
            mistakes.append(f"{page}: `{shown}`: {what} has no option {option}")
        elif option == "--variant" and index + 1 < len(argv):
            for name in argv[index + 1].split(","):
                if name and name != "all" and not placeholder(name) and not re.search(r"\b" + re.escape(name) + r"\b", help_text):
                    mistakes.append(f"{page}: `{shown}`: {what} has no variant {name}")


def check_command(page, command, known, lesson_folders):
    argv = words(command)
    if not argv:
        return
    shown = "./course " + " ".join(argv)
    name, rest = argv[0], argv[1:]
    if name not in known:
        mistakes.append(f"{page}: `{shown}`: the course has no command '{name}'")
        return
    if name in ("run", "check", "hint", "reset", "watch") and rest and not placeholder(rest[0]):
        number = rest[0].zfill(2) if rest[0].isdigit() else rest[0]
        if number not in lesson_folders:
            mistakes.append(f"{page}: `{shown}`: there is no lesson {rest[0]}")
            return
        if name != "run" and not (os.path.exists(os.path.join(ROOT, "lessons", lesson_folders[number], "exercise.md"))):
            mistakes.append(f"{page}: `{shown}`: lesson {number} has no exercise")
        if name == "run":
            program = os.path.join(BUILD, "lessons", "lesson_" + number)
            check_options(page, shown, rest[1:], help_of(program, [program, "--help"]), f"lesson {number}")
            return
        rest = rest[1:]
    if name == "bench":
        bench = os.path.join(ROOT, "bench", "course_bench.py")
        check_options(page, shown, rest, help_of(bench, [sys.executable, bench, "--help"]), "./course bench")
    elif name == "memcheck" and rest:
        program = os.path.join(BUILD, os.path.relpath(os.path.join(ROOT, rest[0]), os.path.join(ROOT, "build")))
        if not os.access(program, os.X_OK):
            mistakes.append(f"{page}: `{shown}`: {rest[0]} is not a program the build makes")
        else:
            check_options(page, shown, rest[1:], help_of(program, [program, "--help"]), rest[0])
    elif name == "test":
        options = [w for w in rest if w.startswith("-") and w != "--sanitize"]
        check_options(page, shown, options, help_of("ctest", ["ctest", "--help"]), "ctest")
    else:
        check_options(page, shown, rest, help_of("course " + name, [os.path.join(ROOT, "course"), name, "--help"]),
                      f"./course {name}")


def check_script(page, script, no_opencv):
    path = os.path.normpath(os.path.join(ROOT, script))
    if not path.startswith(ROOT + os.sep) or not os.path.isfile(path):
        where = "outside the course" if not path.startswith(ROOT + os.sep) else "missing"
        mistakes.append(f"{page}: the script {script} is {where}")
        return
    if script.endswith(".sh") and not os.access(path, os.X_OK):
        mistakes.append(f"{page}: the script {script} is not executable")
    if not script.endswith(".py"):
        return
    source = open(path, encoding="utf-8").read()
    needs_opencv = re.search(r"^\s*import cv2", source, re.M) is not None
    if needs_opencv:
        # With OpenCV hidden, a script that needs it must say how to get it, not print a
        # traceback (one for which OpenCV is optional, such as the bench, just runs).
        status, text = run([sys.executable, path, "--help"], dict(ENV, PYTHONPATH=no_opencv))
        if "Traceback" in text or (status != 0 and OPENCV_SENTENCE not in text):
            mistakes.append(f"{page}: without OpenCV, {script} does not say '{OPENCV_SENTENCE}' (exit {status}): {text.strip()[-200:]}")
    if "argparse" in source:  # only scripts with options run here; the others write files
        status, text = run([sys.executable, path, "--help"])
        if status != 0 and not (needs_opencv and OPENCV_SENTENCE in text):
            mistakes.append(f"{page}: {script} --help exits {status}: {text.strip()[-200:]}")


def main():
    known = course_commands()
    if "run" not in known:
        print("docs_commands.py: './course help' lists no commands")
        return 2
    lesson_folders = lessons()
    count = 0
    with tempfile.TemporaryDirectory() as no_opencv:
        os.mkdir(os.path.join(no_opencv, "cv2"))
        with open(os.path.join(no_opencv, "cv2", "__init__.py"), "w") as hidden:
            hidden.write("raise ImportError('OpenCV hidden by tests/docs_commands.py')\n")
        scripts_seen = set()
        for file in sorted(os.listdir(DOCS)):
            if not file.endswith(".md"):
                continue
            page = os.path.join(os.path.relpath(DOCS, ROOT), file)
            commands, scripts = commands_and_scripts(os.path.join(DOCS, file))
            for command in dict.fromkeys(commands):
                check_command(page, command, known, lesson_folders)
                count += 1
            for script in sorted(scripts):
                if (page, script) not in scripts_seen:
                    scripts_seen.add((page, script))
                    check_script(page, script, no_opencv)
    for line in mistakes:
        print(line)
    print(f"{count} commands and {len(scripts_seen)} script names on the pages checked; {len(mistakes)} mistakes")
    return 1 if mistakes else 0


if __name__ == "__main__":
    sys.exit(main())
