#!/usr/bin/env python3
"""page_leads.py ROOT: every lesson's page (docs/NN_name.md, the lessons of lessons/lessons.txt)
leads with its lesson. Its first section after the title is "What you will learn": three to five
points, then the command `./course run NN`, the lesson's picture (a file of docs/images/ that
exists, or a chart drawn from a recorded run that exists: {{chart h100/05}}, {{roofline h100/05}})
and a table with a PoCL column and an H100 column, before any other section. The page
links its exercise's text (@ref exercise_page_NN), in a section of its own before the collapsed
measurements at the end. Prints one line per page and mistake; exit 1 on any."""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "harness"))
from cli.course import lessons_of  # noqa: E402  the one reader of lessons/lessons.txt
mistakes = []


def lessons():
    for lesson in lessons_of(ROOT):
        yield lesson.number, lesson.folder


def check(number, folder):
    path = os.path.join(ROOT, "docs", folder + ".md")
    name = "docs/%s.md" % folder
    if not os.path.isfile(path):
        mistakes.append("%s: the lesson has no page" % name)
        return
    lines = open(path, encoding="utf-8").read().split("\n")
    sections = [i for i, line in enumerate(lines) if line.startswith("## ")]
    if not sections or lines[sections[0]].strip() != "## What you will learn":
        mistakes.append("%s: the first section is not \"What you will learn\"" % name)
        return
    lead = lines[sections[0] + 1:sections[1] if len(sections) > 1 else len(lines)]
    points = [line for line in lead if re.match(r"^[-*] ", line)]
    if not 3 <= len(points) <= 5:
        mistakes.append("%s: \"What you will learn\" has %d points, not three to five" % (name, len(points)))
    command = next((i for i, line in enumerate(lead) if re.match(r"^    \./course run %s\b" % number, line)), None)
    if command is None:
        mistakes.append("%s: the lead has no command './course run %s' in a code block" % (name, number))
        return
    picture = next((i for i, line in enumerate(lead) if line.startswith("![")), None)
    if picture is None or picture < command:
        mistakes.append("%s: the lead has no picture after its command" % name)
    else:
        target = re.search(r"\]\(([^)]+)\)", lead[picture])
        drawn = re.fullmatch(r"\{\{(?:chart|roofline) ([^#}]+)(?:#\d+)?\}\}", target.group(1)) if target else None
        if drawn:  # drawn at the site's build from the run (harness/site/expand_runs.py)
            if not os.path.isfile(os.path.join(ROOT, "data", "runs", drawn.group(1) + ".json")):
                mistakes.append("%s: the lead's chart names no recorded run: %s" % (name, target.group(1)))
        elif not target or not os.path.isfile(os.path.join(ROOT, "docs", target.group(1))):
            mistakes.append("%s: the lead's picture %s is not a file under docs/" % (name, target.group(1) if target else "?"))
    header = next((line for line in lead if line.startswith("|")), None)
    if header is None:
        mistakes.append("%s: the lead has no table" % name)
    elif "PoCL" not in header or "H100" not in header:
        mistakes.append("%s: the lead's table does not set PoCL and the H100 side by side: %s" % (name, header))
    text = "\n".join(lines)
    link = text.find("@ref exercise_page_%s" % number)
    collapsed = text.find("<details>")
    if link < 0:
        mistakes.append("%s: the page does not link its exercise's text (@ref exercise_page_%s)" % (name, number))
    elif collapsed >= 0 and link > collapsed:
        mistakes.append("%s: the exercise comes after the collapsed measurements, not before them" % name)


for number, folder in lessons():
    check(number, folder)
for mistake in mistakes:
    print(mistake)
print("%d lesson pages do not lead with their lesson" % len({m.split(":")[0] for m in mistakes}))
sys.exit(1 if mistakes else 0)
