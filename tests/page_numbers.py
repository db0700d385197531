#!/usr/bin/env python3
"""page_numbers.py DOCS [--freeze]: every measured figure a page's prose quotes comes from a run.

A measured figure is a number followed by ms, us, GB/s, TB/s, MPix/s, x or % in a page's prose,
and any number with a decimal point in a pasted table's row (lines starting with |: its column's
head gives the unit); outside code blocks (fenced or indented: the run logs pasted in a page's
collapsed sections are such blocks), inline code and HTML comments. A page quotes one through a
placeholder that harness/site/expand_runs.py fills in from data/runs ({{h100/05: float4_passes
ms}} ms), so a figure typed by hand fails this test, naming the page and the words before it. A
figure that is not a measurement says where it comes from the same way: a vendor's through
{{source KEY: 3.35 TB/s}} (KEY a reference of references.md), one the course sets (a threshold, a
target, a size) through {{set FILE: 102%}} (FILE the source that sets it).

The figures typed by hand before the placeholders existed are listed in page_numbers_legacy.txt
beside this script, one "page: words before the figure, and the figure" a line; an entry matches
its page's figure by the figure alone, so rewording the words around it keeps it. The list can only
shrink: --freeze rewrites it keeping the entries that still match a figure of a page, and never
adds one (it lists every figure only when the file does not exist yet). An entry that matches no
figure any more fails the test until --freeze drops it.
"""
import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LEGACY = os.path.join(HERE, "page_numbers_legacy.txt")

FIGURE = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?:\s?(?:ms|us|µs|GB/s|TB/s|MPix/s)(?![\w/])|x(?![\w])|\s?%)")
# In a table's row: a figure with its unit, or any number with a decimal point.
TABLE_FIGURE = re.compile(FIGURE.pattern + r"|(?<![\w.])\d+\.\d+(?![\w.])")
CONTEXT_WORDS = 6


def prose_and_tables(text):
    """The page's prose paragraphs, each joined into one line, and the rows of its pasted tables,
    with code blocks, placeholders, inline code and HTML comments left out. A table's cells hold
    their figures without a unit (the column's head says it), so every decimal number of a row
    counts."""
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"\{\{.*?\}\}", "QUOTED", text, flags=re.S)
    paragraphs, rows, current = [], [], []
    fence = code = False
    previous_blank = True
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("```") or stripped.startswith("~~~"):
            fence = not fence
            previous_blank = False
            continue
        if fence:
            continue
        if not stripped:
            previous_blank, code = True, False
            if current:
                paragraphs.append(" ".join(current))
                current = []
            continue
        indented = line.startswith("    ") or line.startswith("\t")
        code = indented and (previous_blank or code) and not current
        previous_blank = False
        if code or stripped.startswith("|"):
            if current:
                paragraphs.append(" ".join(current))
                current = []
            if not code:
                rows.append(stripped)
            continue
        current.append(stripped)
    if current:
        paragraphs.append(" ".join(current))
    return tuple([re.sub(r"`[^`]*`", "CODE", line) for line in lines] for lines in (paragraphs, rows))


def figures(page_path):
    """Each hand-typed figure of a page as 'words before it and the figure'."""
    with open(page_path, encoding="utf-8") as f:
        text = f.read()
    found = []
    paragraphs, rows = prose_and_tables(text)
    for paragraph in paragraphs:
        for m in FIGURE.finditer(paragraph):
            before = paragraph[: m.start()].split()[-CONTEXT_WORDS:]
            found.append(" ".join(before + [m.group(0)]))
    for row in rows:
        for m in TABLE_FIGURE.finditer(row):
            before = row[: m.start()].split()[-CONTEXT_WORDS:]
            found.append(" ".join(before + [m.group(0)]))
    return found


def key(entry):
    """An entry's page and figure, without the words before it: 'docs/02_x.md: 4.7x'."""
    page, _, fragment = entry.partition(": ")
    ends = [m.group(0) for m in FIGURE.finditer(fragment) if m.end() == len(fragment)]
    return page + ": " + (ends[-1] if ends else fragment)


def fit(line, width=80):
    """The line cut to the terminal's 80 columns, keeping its end (the figure)."""
    if len(line) <= width:
        return line
    page, _, figure = line.partition(": ")
    return page + ": ..." + figure[len(line) - width + 4:]


def read_legacy():
    entries = collections.Counter()
    if os.path.exists(LEGACY):
        with open(LEGACY, encoding="utf-8") as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    entries[line.rstrip("\n")] += 1
    return entries


def main():
    args = [a for a in sys.argv[1:] if a != "--freeze"]
    if len(args) != 1 or not os.path.isdir(args[0]):
        print("usage: page_numbers.py DOCS_FOLDER [--freeze]", file=sys.stderr)
        return 2
    docs = args[0]
    found = collections.Counter()
    for name in sorted(os.listdir(docs)):
        if name.endswith(".md"):
            for figure in figures(os.path.join(docs, name)):
                found[f"docs/{name}: {figure}"] += 1
    legacy = read_legacy()
    # An entry matches a figure of its page by the figure alone: rewording the words before it
    # keeps it listed; a new figure, or the same one once more, is new.
    if "--freeze" in sys.argv:
        kept = collections.Counter()
        if os.path.exists(LEGACY):
            room = collections.Counter(key(e) for e in legacy.elements())
            for entry in sorted(found.elements()):
                if room[key(entry)] > 0:
                    room[key(entry)] -= 1
                    kept[entry] += 1
        else:
            kept = found
        with open(LEGACY + ".tmp", "w", encoding="utf-8") as f:
            f.write("# Figures typed by hand on the pages before they quoted recorded runs (tests/page_numbers.py).\n"
                    "# This list only shrinks: quote a figure with a placeholder, then run page_numbers.py --freeze.\n")
            for entry in sorted(kept.elements()):
                f.write(entry + "\n")
        os.replace(LEGACY + ".tmp", LEGACY)
        print(f"page_numbers_legacy.txt: {sum(kept.values())} figures (was {sum(legacy.values())})")
        return 0
    found_keys = collections.Counter(key(e) for e in found.elements())
    legacy_keys = collections.Counter(key(e) for e in legacy.elements())
    new_keys, stale_keys = found_keys - legacy_keys, legacy_keys - found_keys
    new = [e for e in found.elements() if new_keys[key(e)] > 0 and not new_keys.subtract([key(e)])]
    stale = [e for e in legacy.elements() if stale_keys[key(e)] > 0 and not stale_keys.subtract([key(e)])]
    if new:
        print("Measured figures typed by hand into a page's prose:")
        for entry in new:
            print(fit(f"  {entry}"))
        print("Quote each from a recorded run instead, as {{DEVICE/NN: VARIANT FIELD}};\n"
              "a vendor's figure as {{source KEY: ...}}, one the course sets as {{set FILE: ...}}\n"
              "(harness/site/expand_runs.py says how), or show it in a code block.")
    if stale:
        print("Listed in tests/page_numbers_legacy.txt but no longer on their pages:")
        for entry in stale:
            print(fit(f"  {entry}"))
        print("Drop them: python3 tests/page_numbers.py docs --freeze")
    if new or stale:
        return 1
    print(f"ok: every measured figure in the prose and tables of {docs}/*.md comes from a\n"
          f"recorded run, or is one of the {sum(legacy.values())} listed in page_numbers_legacy.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
