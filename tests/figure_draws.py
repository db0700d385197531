#!/usr/bin/env python3
"""figure_draws.py SVG TEXT... -- COMMAND...: runs COMMAND (a lesson that draws a figure), which
must exit 0 and write SVG, a well-formed SVG document whose text includes every TEXT."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

split = sys.argv.index("--")
svg, texts, command = sys.argv[1], sys.argv[2:split], sys.argv[split + 1:]
if os.path.exists(svg):
    os.remove(svg)
done = subprocess.run(command, capture_output=True, text=True)
if done.returncode != 0:
    sys.exit(f"the command exited {done.returncode}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
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
