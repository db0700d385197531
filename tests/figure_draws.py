#!/usr/bin/env python3
"""figure_draws.py SVG TEXT... [SVG TEXT...] -- [COMMAND...]: runs COMMAND (a lesson that draws
figures), which must exit 0 and write each SVG, a well-formed SVG document whose text includes
every TEXT after it (exit 77, skipped, when COMMAND skips itself). Without a COMMAND, checks the
SVGs an earlier test's run wrote."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

split = sys.argv.index("--")
command = sys.argv[split + 1:]
figures = []  # (svg, texts)
for argument in sys.argv[1:split]:
    if argument.endswith(".svg"):
        figures.append((argument, []))
    else:
        figures[-1][1].append(argument)
if command:
    for svg, _ in figures:
        if os.path.exists(svg):
            os.remove(svg)
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode == 77:  # the lesson skipped itself on this device (no images, say): so does the test
        print(done.stdout[-2000:])
        sys.exit(77)
    if done.returncode != 0:
        sys.exit(f"the command exited {done.returncode}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
for svg, texts in figures:
    try:
        root = ElementTree.parse(svg).getroot()
    except (OSError, ElementTree.ParseError) as error:
        sys.exit(f"{svg} does not parse as XML: {error}")
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        sys.exit(f"{svg} is not an SVG document (its root is {root.tag})")
    shown = " ".join(element.text or "" for element in root.iter())
    missing = [text for text in texts if text not in shown]
    if missing:
        sys.exit(f"{svg} does not show: {', '.join(missing)}")
    print(f"{svg}: an SVG of {sum(1 for _ in root.iter())} elements, showing {', '.join(texts)}")
