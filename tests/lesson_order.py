#!/usr/bin/env python3
"""lesson_order.py ROOT [--self-test]: the lessons depend only on lessons taken before them.

A lesson builds on the lessons lessons/lessons.txt names in its "builds on" field, and CMake links
exactly those lessons' libraries. This check fails, naming the lesson and the file, when:
- a lesson builds on a lesson that comes after it (or one the list does not have);
- a file of a lesson (.cpp, .hpp, .h) includes a header of another lesson's folder that the lesson
  does not build on, directly or through the lessons it builds on.

The links that broke the order before this check existed are listed in KNOWN_LATER, as (lesson,
later lesson) pairs; the list only shrinks: a pair that no longer occurs fails until it is dropped.
--self-test runs the check on small trees of its own, one clean and each of the others with one
such mistake, and fails unless it names exactly the mistakes planted.
"""
import os
import re
import sys
import tempfile
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness", "cli"))
import course  # noqa: E402  (the one reader of lessons.txt)

# Lesson 05 runs lesson 11's tuned winners of its blur (tuned_winner.hpp), whose kernel families
# link lesson 05 back (and may name lesson 11's own kernel): its program links lesson 11, its
# library does not.
KNOWN_LATER = {("05", "11")}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def problems(root, known=frozenset()):
    """What breaks the order in ROOT's lessons, and the known pairs seen, as (messages, pairs)."""
    lessons = course.lessons_of(root)
    numbers = [lesson.number for lesson in lessons]
    by_number = {lesson.number: lesson for lesson in lessons}
    found, seen = [], set()

    def later(lesson, other):  # a pair that breaks the order: reported unless it is known
        seen.add((lesson, other))
        return (lesson, other) not in known

    # Whose headers each lesson may include: the lessons it builds on, and theirs, all earlier.
    reach = {}
    for lesson in lessons:
        allowed = set()
        for used in lesson.builds_on:
            if used not in by_number:
                found.append(f"lesson {lesson.number} builds on {used}, which lessons.txt does not list")
            elif numbers.index(used) >= numbers.index(lesson.number):
                if later(lesson.number, used):
                    found.append(f"lesson {lesson.number} builds on lesson {used}, which comes after it")
            else:
                allowed |= {used} | reach.get(used, set())
        reach[lesson.number] = allowed

    # Which lesson's folder holds each header name.
    owner = {}
    for lesson in lessons:
        folder = os.path.join(root, "lessons", lesson.folder)
        for name in os.listdir(folder) if os.path.isdir(folder) else []:
            if name.endswith((".hpp", ".h")):
                owner.setdefault(name, []).append(lesson.number)
    for lesson in lessons:
        folder = os.path.join(root, "lessons", lesson.folder)
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if not name.endswith((".cpp", ".hpp", ".h")):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                included = INCLUDE.findall(f.read())
            for header in included:
                owners = owner.get(os.path.basename(header), [])
                if lesson.number in owners or not owners:
                    continue  # its own header, or one of common/, harness/ or the system
                for other in owners:
                    where = f"lessons/{lesson.folder}/{name} includes {header}, lesson {other}'s"
                    if numbers.index(other) > numbers.index(lesson.number):
                        if later(lesson.number, other):
                            found.append(f"{where}: a later lesson")
                    elif other not in reach[lesson.number]:
                        found.append(f"{where}: add {other} to what lesson {lesson.number} builds on "
                                     "in lessons/lessons.txt")
    return found, seen


def check(root):
    found, seen = problems(root, KNOWN_LATER)
    gone = sorted(KNOWN_LATER - seen)
    found += [f"lesson {lesson} no longer uses lesson {other}: drop the pair from KNOWN_LATER in "
              "tests/lesson_order.py" for lesson, other in gone]
    for message in found:
        print(textwrap.fill(message, 80, subsequent_indent="  "))
    if found:
        return 1
    pairs = ", ".join(f"{lesson} on {other}" for lesson, other in sorted(KNOWN_LATER))
    print(textwrap.fill("ok: no lesson builds on or includes a later lesson" +
                        (f", but for the known {pairs} (tests/lesson_order.py)" if pairs else ""), 80))
    return 0


def self_test():
    """Small trees: a clean one, and one mistake each; the check must name exactly the mistakes."""
    def tree(builds_on_2, builds_on_3, includes):
        root = tempfile.mkdtemp(prefix="lesson-order-")
        lines = ["01 | 01_a | | | |", f"02 | 02_b | | {builds_on_2} | |", f"03 | 03_c | | {builds_on_3} | |"]
        os.makedirs(os.path.join(root, "lessons"))
        with open(os.path.join(root, "lessons", "lessons.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        for folder, header in (("01_a", "a.hpp"), ("02_b", "b.hpp"), ("03_c", "c.hpp")):
            os.makedirs(os.path.join(root, "lessons", folder))
            with open(os.path.join(root, "lessons", folder, header), "w", encoding="utf-8") as f:
                f.write("#pragma once\n")
        for folder, text in includes.items():
            with open(os.path.join(root, "lessons", folder, "main.cpp"), "w", encoding="utf-8") as f:
                f.write('#include <vector>\n#include "course.hpp"\n' + text)
        return root

    cases = [
        ("a clean tree, 03 including 01's header through 02", tree("01", "02", {"03_c": '#include "a.hpp"\n'}), []),
        ("a lesson building on a later one", tree("03", "", {}), ["lesson 02 builds on lesson 03, which comes after it"]),
        ("a lesson building on one the list lacks", tree("07", "", {}), ["lesson 02 builds on 07, which lessons.txt"]),
        ("an include of a later lesson's header", tree("01", "", {"02_b": '#include "c.hpp"\n'}),
         ["lessons/02_b/main.cpp includes c.hpp, lesson 03's: a later lesson"]),
        ("an include of an earlier lesson it does not build on", tree("", "", {"03_c": '#include "b.hpp"\n'}),
         ["lessons/03_c/main.cpp includes b.hpp, lesson 02's: add 02"]),
    ]
    failed = 0
    for what, root, expected in cases:
        found, _ = problems(root)
        ok = len(found) == len(expected) and all(f.startswith(e) for f, e in zip(found, expected))
        print(("ok:     " if ok else "FAILED: ") + what)
        if not ok:
            print("  expected " + repr(expected) + "\n  found    " + repr(found))
            failed += 1
    # A known pair passes; one that is known but gone is named.
    found, seen = problems(tree("03", "", {}), {("02", "03")})
    if found or seen != {("02", "03")}:
        print("FAILED: a known pair is not reported and is seen")
        failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--self-test"]
    if "--self-test" in sys.argv:
        sys.exit(self_test())
    if len(args) != 1 or not os.path.isfile(os.path.join(args[0], "lessons", "lessons.txt")):
        print("usage: lesson_order.py COURSE_ROOT [--self-test]", file=sys.stderr)
        sys.exit(2)
    sys.exit(check(args[0]))
