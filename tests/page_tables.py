#!/usr/bin/env python3
"""page_tables.py DOCS_DIR: every results table a page shows (common/report.cpp's layout, in a
code block) has one meaning for its speed-up column: the baseline's kernel ms / the row's kernel ms,
the baseline being the row named by a "speed-up = kernel ms of B / kernel ms of the row, for: ..."
line under the table, else the table's first row. Fails, naming the page, the line and both figures,
when a speed-up disagrees with its rows by more than their rounding allows."""
import glob
import os
import re
import sys

NOTE = re.compile(r"^\s*speed-up = kernel ms of (.+?) / kernel ms of the row, for: (.+)$")


def number(cell):
    m = re.match(r"^([0-9.]+)", cell or "")
    return float(m.group(1)) if m else None


def tables(lines):
    """(first line number, rows {name: (kernel ms, speed-up text, line number)}, order, notes) per table."""
    for i, line in enumerate(lines):
        m = re.match(r"^( *)variant  +kernel ms", line)
        if not m:
            continue
        indent = m.group(1)
        spans = [(h.group(), h.end()) for h in re.finditer(r"\S+(?: \S+)*", line)]
        rows, order, notes = {}, [], []
        j = i + 2
        while j < len(lines) and lines[j].startswith(indent) and len(lines[j]) > len(indent) and lines[j][len(indent)] != " ":
            row = lines[j]
            name = re.match(re.escape(indent) + r"(.+?)(  |$)", row).group(1)
            cells, start = {}, len(indent) + len(name)
            for head, end in spans[1:]:
                cells[head] = row[start:end].strip()
                start = end
            if cells.get("verified") not in ("yes", "NO"):
                break  # a line the lesson printed after its table
            rows[name] = (number(cells.get("kernel ms")), cells.get("speed-up", ""), j + 1,
                          re.match(r"^[0-9.]*", cells.get("kernel ms") or "").group())
            order.append(name)
            j += 1
        while j < len(lines) and lines[j].startswith(indent + "  ") and lines[j].strip():
            n = NOTE.match(lines[j])
            if n:
                notes.append((n.group(1), ", " + n.group(2).strip() + ", "))
            j += 1
        yield i + 1, rows, order, notes


def check(path):
    problems = []
    lines = open(path, encoding="utf-8").read().splitlines()
    for first, rows, order, notes in tables(lines):
        for name in order:
            ms, speedup, line, ms_text = rows[name]
            if not speedup or ms is None:
                continue
            base = next((b for b, served in notes if ", " + name + ", " in served), order[0] if not notes else None)
            if base is None or base not in rows or rows[base][0] is None:
                problems.append("%s:%d: %s has a speed-up (%s) but the table names no baseline for it"
                                % (path, line, name, speedup))
                continue
            expected = rows[base][0] / ms
            # Each kernel ms is rounded to its last digit as printed (1241 to the unit, 0.2508 to
            # the ten-thousandth): the ratio may be off by that much of each.
            def slack(text):
                return 0.5 * 10 ** -len(text.split(".")[1]) if "." in text else 0.5
            bound = expected * (slack(rows[base][3]) / rows[base][0] + slack(ms_text) / ms) + 0.005
            if abs(number(speedup) - expected) > bound + 1e-9:
                problems.append("%s:%d: %s shows %s, but %s / its kernel ms is %.3f / %.4g = %.2fx"
                                % (path, line, name, speedup, base, rows[base][0], ms, expected))
    return problems


problems = []
for page in sorted(glob.glob(os.path.join(sys.argv[1], "*.md"))):
    problems += check(page)
for p in problems:
    print(p)
print("%d speed-ups disagree with their rows" % len(problems))
sys.exit(1 if problems else 0)
