#!/usr/bin/env python3
"""Scans a student copy of the course for the answers its exercises ask for.

usage: handout_scan.py COURSE [HANDOUT]

The lines a student must write are the lines of COURSE's solutions/NN_*/ files that the shipped
exercises/NN_*/ files lack. Any run of their tokens (a fragment, such as a loop's bound, not only
the whole line) that is not trivial (three tokens or more, 14 characters without spaces), that neither
the shipped exercise nor its task text holds, and that the code the lessons run does not share,
is an answer. Every text file of HANDOUT is read as tokens, so
that spacing and line breaks hide nothing; each answer found is printed with its file and line.
The answers to the teaching page's quiz (teaching/quiz_answers.md, five for each lesson's five
questions) are the instructor's too: none of them, whole, may be in HANDOUT either.
Without HANDOUT, makes one (COURSE/course handout DIR --no-git, in a temporary folder), scans
it, then plants a fragment of an answer and a quiz answer in it to see the scan find both.
Exit 0: none found; 1: some found; 2: bad arguments; 77: COURSE has no solutions/ (a handout).
"""

import collections
import pathlib
import re
import subprocess
import sys
import tempfile

TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d*)?[fFuU]?|\S")
# What a student writes is code: a solution line's comments, and the words of its messages
# ("the tile with its halo needs "), are left out of the fragments.
PROSE = re.compile(r'//.*|/\*.*?\*/|"[^"\n]* [^"\n]*"')
SHORTEST = 14  # characters, spaces left out: shorter ones ("}", "++k)", "(below, right)") say nothing
FEWEST = 3  # tokens: two (".radius", "empty(") are a name, not code


def tokens(text):
    """The tokens of `text` with the line each starts on."""
    result, line, start = [], 1, 0
    for match in TOKEN.finditer(text):
        line += text.count("\n", start, match.start())
        start = match.start()
        result.append((match.group(), line))
    return result


LONGEST = 80  # tokens: no line of a solution has more


def windows(words):
    """Every run of consecutive tokens of `words` up to LONGEST of them, as tuples."""
    for first in range(len(words)):
        for last in range(first + 1, min(len(words), first + LONGEST) + 1):
            yield tuple(words[first:last])


def answers(course):
    """The fragments a student must write: {tokens: (solution file, line)}."""
    found = {}
    for solution in sorted((course / "solutions").glob("[0-9][0-9]_*")):
        shipped = course / "exercises" / solution.name
        given = set()
        # What every student is given: the shipped files and the task (exercise.md before its hints).
        texts = [path.read_text() for path in sorted(shipped.iterdir()) if path.is_file()] if shipped.is_dir() else []
        task = course / "lessons" / solution.name / "exercise.md"
        if task.is_file():
            texts.append(task.read_text().split("\n## Hint")[0])
        for text in texts:
            given.update(windows([word for word, _ in tokens(text)]))
        for path in sorted(solution.iterdir()):
            exercise = shipped / path.name
            shipped_lines = set()
            if exercise.is_file():
                shipped_lines = {" ".join(w for w, _ in tokens(line)) for line in exercise.read_text().splitlines()}
            for number, line in enumerate(path.read_text().splitlines(), 1):
                words = [word for word, _ in tokens(PROSE.sub(" \x00 ", line))]
                if " ".join(words) in shipped_lines or line.lstrip().startswith(("*", "#include")):
                    continue
                for fragment in windows(words):
                    if (len(fragment) >= FEWEST and len("".join(fragment)) >= SHORTEST and "\x00" not in fragment
                            and fragment not in given):
                        found.setdefault(fragment, (path.relative_to(course), number))
    return found


# The code every lesson runs (kernels, lesson programs, the shared libraries): what an exercise
# builds on. A fragment it holds is the course's vocabulary ("std::to_string(", "barrier(
# CLK_LOCAL_MEM_FENCE);", lesson 04's halo loads), taught, not an answer. The checks (check.cpp)
# are scanned, not taught.
CODE = ("base", "common", "harness", "kernels", "lessons", "exercises", "fuzz", "bench")
# Not scanned: each exercise's task and hints (exercise.md: the hints give the idea, and in their
# last steps a line, on purpose, one at a time). Every check is: its CPU reference computes the
# exercise's result another way than the solution.


def text_files(folder):
    """(path relative to folder, its tokens) for every text file under folder, .git left out."""
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder)
        if ".git" in relative.parts:
            continue
        try:
            yield relative, tokens(path.read_text())
        except (UnicodeDecodeError, OSError):
            continue  # pictures and other binary files


def matches(found, by_start):
    """(position, fragment) for every fragment of `by_start` that starts at a position of `found`."""
    words = [word for word, _ in found]
    for i in range(len(words)):
        for fragment in by_start.get(tuple(words[i:i + 2]), ()):
            if tuple(words[i:i + len(fragment)]) == fragment:
                yield i, fragment


def scan(course, handout, only=None):
    """The answers found in `handout` (in its file `only`, when given), one line each, and how many
    fragments were looked for."""
    fragments = answers(course)
    by_start = collections.defaultdict(list)
    for fragment in fragments:
        by_start[fragment[:2]].append(fragment)
    for bucket in by_start.values():
        bucket.sort(key=len, reverse=True)  # the longest fragment at a place is the one named
    files = [(relative, found) for relative, found in text_files(handout)
             if relative.name != "exercise.md"]
    common = set()
    for relative, found in files:
        if relative.parts[0] in CODE and relative.suffix != ".md" and relative.name != "check.cpp":
            common.update(fragment for _, fragment in matches(found, by_start))
    found_lines = []
    for relative, found in files if only is None else [f for f in files if f[0] == only]:
        end = 0
        for i, fragment in matches(found, by_start):
            if i < end or fragment in common:
                continue
            source, number = fragments[fragment]
            found_lines.append(f"{relative}:{found[i][1]}: `{' '.join(fragment)}` (from {source}:{number})")
            end = i + len(fragment)
    return found_lines, len(fragments) - len(common)


def planted(course):
    """A fragment of an answer line (its middle, split over two lines) and the line it comes from."""
    fragments = answers(course)
    fragment = max(fragments, key=lambda f: (len(f), fragments[f]))
    middle = fragment[1:-1] if len(fragment) > 4 else fragment
    half = len(middle) // 2
    text = "  ".join(middle[:half]) + "\n    " + " ".join(middle[half:])
    return text, fragments[fragment]


# The quiz: its questions on the teaching page, their answers in a file every handout leaves out.
QUIZ_PAGE = pathlib.Path("docs/teaching.md")
QUIZ_ANSWERS = pathlib.Path("teaching/quiz_answers.md")
QUESTION = re.compile(r"^- \*\*(\d\d\.\d)\*\* ", re.M)
ANSWER = re.compile(r"\*\*(\d\d\.\d)\*\*\s+(.*)", re.S)
QUESTIONS_A_LESSON = 5
QUIZ_FEWEST = 10  # tokens: an answer shorter than that could be any sentence of a page


def quiz_answers(course):
    """{question number: the tokens of its answer} from COURSE's teaching/quiz_answers.md."""
    found = {}
    for paragraph in re.split(r"\n\s*\n", (course / QUIZ_ANSWERS).read_text()):
        match = ANSWER.match(paragraph.strip())
        if match:
            found[match.group(1)] = tuple(word for word, _ in tokens(match.group(2)))
    return found


def quiz_problems(course, answers):
    """What keeps the quiz from being whole: a lesson without its five questions, a question
    without its answer or an answer without its question, an answer too short to look for."""
    asked = QUESTION.findall((course / QUIZ_PAGE).read_text())
    problems = []
    for lesson in sorted(p.name[:2] for p in (course / "lessons").glob("[0-9][0-9]_*") if p.is_dir()):
        count = sum(1 for number in asked if number.startswith(lesson + "."))
        if count != QUESTIONS_A_LESSON:
            problems.append(f"{QUIZ_PAGE}: lesson {lesson} has {count} quiz questions, not {QUESTIONS_A_LESSON}")
    problems += [f"{QUIZ_ANSWERS}: no answer to question {n}" for n in asked if n not in answers]
    problems += [f"{QUIZ_ANSWERS}: {n} answers no question of {QUIZ_PAGE}" for n in answers if n not in asked]
    problems += [f"{QUIZ_ANSWERS}: the answer to {n} is too short to look for" for n, words in answers.items()
                 if len(words) < QUIZ_FEWEST]
    return problems


def quiz_found(answers, handout):
    """Each quiz answer found whole in a file of `handout` (spacing and line breaks ignored), one
    line each."""
    by_start = collections.defaultdict(list)
    for number, words in answers.items():
        by_start[words[:2]].append(words)
    number_of = {words: number for number, words in answers.items()}
    return [f"{relative}:{found[i][1]}: the answer to quiz question {number_of[words]}"
            for relative, found in text_files(handout) for i, words in matches(found, by_start)]


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    course = pathlib.Path(argv[1]).resolve()
    if not (course / "solutions").is_dir():
        print("skipped: this tree has no solutions/")
        return 77
    answers = quiz_answers(course) if (course / QUIZ_ANSWERS).is_file() else {}
    problems = quiz_problems(course, answers) if answers else [f"{QUIZ_ANSWERS}: no quiz answers in {course}"]
    if problems:
        print("\n".join(problems))
        return 1
    if len(argv) == 3:
        lines, looked_for = scan(course, pathlib.Path(argv[2]))
        lines += quiz_found(answers, pathlib.Path(argv[2]))
        print("\n".join(lines))
        print(f"{len(lines)} answers found" if lines else
              f"no answer found ({looked_for} fragments and {len(answers)} quiz answers looked for)")
        return 1 if lines else 0
    with tempfile.TemporaryDirectory() as temporary:
        handout = pathlib.Path(temporary) / "student"
        made = subprocess.run([str(course / "course"), "handout", str(handout), "--no-git"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if made.returncode != 0:
            print(made.stdout + f"./course handout exited {made.returncode}")
            return 1
        lines, looked_for = scan(course, handout)
        lines += quiz_found(answers, handout)
        if lines:
            print("\n".join(lines))
            print(f"{len(lines)} answers found in the handout")
            return 1
        # The scan itself finds an answer's fragment split over two lines.
        text, (source, number) = planted(course)
        (handout / "tests" / "planted.txt").write_text(text + "\n")
        again, _ = scan(course, handout, pathlib.Path("tests/planted.txt"))
        if not again:
            print(f"the scan missed a fragment of {source}:{number} planted in the handout:\n{text}")
            return 1
        # And a quiz answer, its words wrapped as a page would wrap them.
        number, words = max(answers.items())
        (handout / "docs" / "planted.md").write_text(" ".join(words[:4]) + "\n" + "  ".join(words[4:]) + "\n")
        if not any("planted.md" in line and number in line for line in quiz_found(answers, handout)):
            print(f"the scan missed the answer to quiz question {number} planted in the handout")
            return 1
    print(f"no answer in the handout ({looked_for} fragments of the solutions' lines and "
          f"{len(answers)} quiz answers looked for)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
