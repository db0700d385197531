#!/usr/bin/env python3
"""build_slides.py: every lesson's deck of slides, from its own source docs/slides/NN_name.md.

usage: build_slides.py [--root DIR] [--out DIR] [--draw TOOL] [--no-check] [DECK ...]

A DECK is a lesson number (03), or the path of a deck's Markdown; none means every
docs/slides/*.md. Each deck becomes OUT/NN_name.html (pandoc's dzslides, one file that works
offline), OUT/NN_name-notes.html (every slide's text with its speaker notes, for the lectern)
and, where it passes the check, OUT/NN_name.pdf. A deck holds no measured numbers (a time, a
rate, a speed-up): it points at the page's charts, drawn from recorded runs.

A deck is pandoc's slide Markdown (a slide per `## ` heading, speaker notes in `::: notes`),
with two additions the builder expands:
  <!-- exercise task=2 hints=1-2 -->
      the slides of the lesson's exercise, taken from lessons/NN_*/exercise.md (the file
      `./course hint NN` prints from): its title and the task's blocks named by `task` (the
      blocks between blank lines after the title, counted from 1; default from the one that
      starts with "Open" to the one that names `./course check`), then a slide of the hints
      named by `hints` (default the first three, or as many as the file has).
  ![caption](../images/figure.svg){viewbox="X Y W H"}
      a part of a page's figure, enlarged so that its labels can be read when projected; a chart
      a page draws from a run is named as the page names it, ![caption]({{chart h100/02}}),
      and drawn from the same run by TOOL (course-record-chart; default ROOT/build/bin's).
A measurement a slide must quote comes from a recorded run, as on the pages: a placeholder such
as {{h100/05: blocked_2d ms}}, filled in by harness/site/expand_runs.py ($COURSE_RUNS, else
data/runs), which fails the build on a name it cannot find.

The check opens a copy of each deck in headless Chromium at 1280x720 (check.html) and fails a
slide that overflows, holds text cut or ending in "...", an image that does not load, or text
smaller than 18 px, including the labels inside SVG figures as drawn. Exit 0: every deck built
and passed; 1: a slide failed (each is named); 2: a deck could not be built.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SVG = "{http://www.w3.org/2000/svg}"
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "site"))
import expand_runs  # noqa: E402  (the pages' placeholders: one expansion for pages and decks)


class BuildError(Exception):
    """A deck that cannot be built (exit 2)."""


def say(line=""):
    print(line, flush=True)


def complain(message):
    """A message on stderr, wrapped to 80 columns."""
    print(textwrap.fill(message, 80, subsequent_indent="  ", break_on_hyphens=False), file=sys.stderr)


def fit(text, width):
    """text shortened to width columns for a report line (the slides themselves are never cut)."""
    return text if len(text) <= width else text[:width - 1] + "~"


# --- the exercise's slides -----------------------------------------------------------------
def numbers(spec, what, deck):
    """'1-2' or '1,3' as a list of numbers."""
    out = []
    for part in spec.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part.strip())
        if not m:
            raise BuildError(f"{deck}: {what}={spec} is not a list of numbers such as 1-2 or 1,3")
        first = int(m.group(1))
        out.extend(range(first, int(m.group(2) or first) + 1))
    return out


def exercise_parts(path):
    """(title, task blocks, hints) of an exercise.md, split as ./course hint splits it: the
    task is everything before the first '## Hint' line, each hint runs to the next one."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    pieces = re.split(r"^## (Hint[^\n]*)\n", text, flags=re.M)
    task = pieces[0]
    hints = [(pieces[i].strip(), pieces[i + 1].strip()) for i in range(1, len(pieces) - 1, 2)]
    m = re.match(r"# (.*)\n", task)
    title = m.group(1).strip() if m else "Exercise"
    body = task[m.end():] if m else task
    blocks = [b.strip("\n") for b in re.split(r"\n\s*\n", body) if b.strip()]
    return title, blocks, hints


FROM_EXERCISE, END_EXERCISE = "<!-- from exercise.md -->", "<!-- end of exercise.md -->"


def exercise_slides(root, number, args, deck):
    found = [d for d in sorted(os.listdir(os.path.join(root, "lessons")))
             if d.startswith(number + "_") and os.path.isfile(os.path.join(root, "lessons", d, "exercise.md"))]
    if not found:
        raise BuildError(f"{deck}: asks for exercise {number}, and lessons/ has no {number}_*/exercise.md")
    source = f"lessons/{found[0]}/exercise.md"
    title, blocks, hints = exercise_parts(os.path.join(root, source))
    opts = dict(re.findall(r"(\w+)=(\S+)", args))
    if "task" in opts:
        chosen = numbers(opts["task"], "task", deck)
    else:
        first = next((i for i, b in enumerate(blocks) if b.startswith("Open")), 0)
        last = next((i for i in range(first, len(blocks)) if "./course check" in blocks[i]), first)
        chosen = list(range(first + 1, last + 2))
    # By default the first three, or as many as there are (a handout may keep fewer).
    wanted = numbers(opts["hints"], "hints", deck) if "hints" in opts else list(range(1, min(3, len(hints)) + 1))
    for n in chosen:
        if not 1 <= n <= len(blocks):
            raise BuildError(f"{deck}: task={opts.get('task')}: {source} has {len(blocks)} blocks")
    for n in wanted:
        if not 1 <= n <= len(hints):
            raise BuildError(f"{deck}: hints={opts.get('hints')}: {source} has {len(hints)} hints")
    out = [FROM_EXERCISE, f"## {title} {{.exercise}}", ""]
    for n in chosen:
        out += [blocks[n - 1], ""]
    out += ["::: notes", f"The whole task: {source}; the hints one at a time: ./course hint {number}.", ":::", ""]
    if not wanted:
        return "\n".join(out + [END_EXERCISE])
    out += [f"## {title.split(':')[0]}: hints {{.exercise}}", ""]
    for n in wanted:
        name, text = hints[n - 1]
        out += [f"**{name}.** {text}", ""]
    more = len(hints) - len(wanted)
    out += ["::: notes", f"{more} more hint{'s' if more != 1 else ''} in {source}." if more > 0
            else f"These are all the hints of {source}.", ":::", "", END_EXERCISE]
    return "\n".join(out)


# --- figures ------------------------------------------------------------------------------
ZOOM_BOX = (1184, 500)  # px: the room under a slide's title and above a one-line caption


def zoomed_figure(path, viewbox, out_dir):
    """A copy of the SVG at path showing only the region viewbox ('X Y W H'), drawn as large
    as ZOOM_BOX allows."""
    try:
        x, y, w, h = (float(v) for v in viewbox.replace(",", " ").split())
    except ValueError:
        raise BuildError(f"viewbox=\"{viewbox}\" is not four numbers X Y W H") from None
    ET.register_namespace("", SVG[1:-1])
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    tree = ET.parse(path)
    svg = tree.getroot()
    svg.set("viewBox", f"{x:g} {y:g} {w:g} {h:g}")
    scale = min(ZOOM_BOX[0] / w, ZOOM_BOX[1] / h)  # as large as a slide with a title shows it
    svg.set("width", f"{w * scale:.0f}")
    svg.set("height", f"{h * scale:.0f}")
    name = os.path.splitext(os.path.basename(path))[0] + "_" + "_".join(f"{v:g}" for v in (x, y, w, h)) + ".svg"
    target = os.path.join(out_dir, name)
    tree.write(target, encoding="utf-8", xml_declaration=False)
    return target


IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)(\{[^}]*\})?")
# A time, a rate or a speed-up typed into a deck: measured numbers belong to the page's recorded
# runs and charts, which a deck points at instead.
MEASURED = re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|GB/s|MB/s|MPix/s|GFLOP/s|frames/s)(?![\w/])|\b\d+\.\d+x\b")


def expand(root, deck_path, figures_dir, tool=None):
    """The deck's Markdown for pandoc, and the problems found on the way as (slide, message):
    an image that does not exist is named with its slide here, before pandoc refuses it, and so
    is a measured number typed into the deck. A chart drawn from a run ({{chart h100/02}}) is
    drawn by TOOL into FIGURES_DIR/charts first."""
    deck = os.path.relpath(deck_path, root)
    deck = deck_path if deck.startswith("..") else deck
    number = os.path.basename(deck_path)[:2]
    with open(deck_path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"^<!-- exercise([^>]*)-->[ \t]*$", lambda m: exercise_slides(root, number, m.group(1), deck),
                  text, flags=re.M)
    base = os.path.dirname(os.path.abspath(deck_path))
    runs = expand_runs.Runs(os.environ.get("COURSE_RUNS") or expand_runs.COURSE_RUNS)
    charts_dir = os.path.join(figures_dir, "charts")
    charts = expand_runs.Charts(tool or os.path.join(root, "build", "bin", "course-record-chart"), charts_dir, charts_dir)
    try:  # the charts first: the lines below zoom into them as into any figure
        text = expand_runs.expand_page(runs, deck, text, charts, charts_only=True)
    except expand_runs.PageError as e:
        raise BuildError(str(e)) from None
    problems, lines, slide, title = [], [], 1, "title"
    typed = True  # a line of the deck itself, not of the exercise's text
    for line in text.split("\n"):
        typed = typed if line not in (FROM_EXERCISE, END_EXERCISE) else line == END_EXERCISE
        if line.startswith("## "):
            slide += 1
            title = re.sub(r"\s*\{[^}]*\}\s*$", "", line[3:]).strip()

        def image(m):
            path = os.path.normpath(os.path.join(base, m.group(2)))
            attrs = m.group(3) or ""
            if not os.path.isfile(path):
                problems.append((f"slide {slide}, {title}", f"image {m.group(2)} does not exist"))
                return m.group(0)
            zoom = re.search(r'viewbox="([^"]*)"', attrs)
            if zoom:
                try:
                    path = zoomed_figure(path, zoom.group(1), figures_dir)
                except BuildError as e:
                    raise BuildError(f"{deck}: slide {slide}: {e}") from None
                attrs = re.sub(r'\s*viewbox="[^"]*"', "", attrs)
                attrs = "" if attrs.replace(" ", "") == "{}" else attrs
            return f"![{m.group(1)}]({path}){attrs}"

        for number in MEASURED.findall(IMAGE.sub("", line)) if typed else []:
            problems.append((f"slide {slide}, {title}", f"a measured number, '{number}': point at the page's chart"))
        lines.append(IMAGE.sub(image, line))
    try:
        markdown = expand_runs.expand_page(runs, deck, "\n".join(lines))
    except expand_runs.PageError as e:
        raise BuildError(str(e)) from None
    return markdown, slide, problems


# --- pandoc and Chromium ------------------------------------------------------------------
def browser_command():
    for name in (os.environ.get("COURSE_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return [name, "--headless", "--disable-gpu"] + (["--no-sandbox"] if os.geteuid() == 0 else [])
    return None


def pandoc(markdown, target, extra, folder):
    embed = ["--self-contained"]
    help_text = subprocess.run(["pandoc", "--help"], capture_output=True, text=True).stdout
    if "--embed-resources" in help_text:  # pandoc 3 renamed it (and warns about the old name)
        embed = ["--embed-resources", "--standalone"]
    command = ["pandoc", "-f", "markdown-smart", "-t", "dzslides", "--slide-level=2", "--wrap=none", *embed,
               "-H", os.path.join(HERE, "style.html"), *extra, "-o", target, markdown]
    done = subprocess.run(command, capture_output=True, text=True, cwd=folder)
    if done.returncode != 0:
        raise BuildError(f"{os.path.basename(markdown)}: pandoc: " + (done.stderr.strip() or f"exit {done.returncode}"))


def run_browser(browser, arguments):
    """Headless Chromium with a profile of its own, so that decks can be checked side by side."""
    with tempfile.TemporaryDirectory(prefix="slides-chromium-") as profile:
        return subprocess.run(browser + ["--user-data-dir=" + profile] + arguments,
                              capture_output=True, text=True, timeout=300)


def check(browser, html):
    """The check's report lines, from the copy of the deck with check.html added."""
    done = run_browser(browser, ["--window-size=1280,720", "--virtual-time-budget=10000",
                                 "--allow-file-access-from-files", "--dump-dom", "file://" + html])
    m = re.search(r'<pre id="slide-check">(.*?)</pre>', done.stdout, flags=re.S)
    if not m:
        return None
    text = m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    return [line for line in text.split("\n") if line.strip()]


def build(root, deck_path, out, browser, say, tool=None):
    """Builds one deck, telling what it found through say; returns True when it passed."""
    name = os.path.splitext(os.path.basename(deck_path))[0]
    figures = os.path.join(out, "figures")
    os.makedirs(figures, exist_ok=True)
    markdown, count, problems = expand(root, deck_path, figures, tool)
    if problems:
        say(f"  {name}: {count} slides, some cannot be built:")
        last = None
        for where, what in problems:
            if where != last:
                say(f"    {fit(where, 74)}:")
                last = where
            say(f"      {fit(what, 74)}")
        return False
    source = os.path.join(out, "check", name + ".md")
    os.makedirs(os.path.dirname(source), exist_ok=True)
    with open(source, "w", encoding="utf-8") as f:
        f.write(markdown)
    final = os.path.join(out, name + ".html")
    # The deck's own images are found from its folder, as they are written in it.
    folder = os.path.dirname(os.path.abspath(deck_path))
    try:
        pandoc(source, final + ".tmp", [], folder)
        os.replace(final + ".tmp", final)
    finally:
        if os.path.exists(final + ".tmp"):
            os.remove(final + ".tmp")
    checked = os.path.join(out, "check", name + ".html")
    pandoc(source, checked, ["-A", os.path.join(HERE, "check.html")], folder)
    notes = os.path.join(out, name + "-notes.html")
    with open(source[:-3] + "-notes.md", "w", encoding="utf-8") as f:
        f.write(IMAGE.sub(lambda m: f"*[figure: {m.group(1) or 'untitled'}]*", markdown))
    done = subprocess.run(["pandoc", "-f", "markdown-smart", "-t", "html5", "--standalone",
                           "-H", os.path.join(HERE, "notes.html"), "-o", notes, source[:-3] + "-notes.md"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise BuildError(f"{name}: pandoc: " + done.stderr.strip())
    if browser is None:
        say(f"  {name}: {count} slides (the 1280x720 check skipped: no Chromium)")
        return True
    report = check(browser, checked)
    if report is None or not report[0].startswith("SLIDES "):
        say(f"  {name}: {count} slides; the check did not run in {browser[0]}")
        return False
    failures = [line[len("FAIL "):] for line in report[1:] if line.startswith("FAIL ")]
    slides = report[0].split()[1]
    if failures:
        say(f"  {name}: {slides} slides, some fail at 1280x720:")
        last = None
        for line in failures:
            number, title, what = (line.split("\t") + ["", ""])[:3]
            if number != last:
                say(f"    slide {number}, {fit(title, 60)}:")
                last = number
            say(f"      {fit(what, 74)}")
        return False
    pdf = os.path.join(out, name + ".pdf")
    run_browser(browser, ["--no-pdf-header-footer", "--print-to-pdf=" + pdf, "file://" + final])
    made = os.path.exists(pdf) and os.path.getsize(pdf) > 0
    say(f"  {name}: {slides} slides, each fits 1280x720{'; PDF too' if made else ''}")
    return True


def decks_named(root, names):
    folder = os.path.join(root, "docs", "slides")
    every = sorted(f for f in os.listdir(folder) if f.endswith(".md")) if os.path.isdir(folder) else []
    if not names:
        if not every:
            raise BuildError("there are no decks in docs/slides/")
        return [os.path.join(folder, f) for f in every]
    out = []
    for n in names:
        if n.endswith(".md"):
            if not os.path.isfile(n):
                raise BuildError(f"there is no deck {n}")
            out.append(os.path.abspath(n))
            continue
        if not re.fullmatch(r"\d{1,2}", n):
            raise BuildError(f"'{n}' is neither a lesson number (03) nor a deck (docs/slides/03_name.md)")
        found = [f for f in every if f.startswith(f"{int(n):02d}_")]
        if not found:
            raise BuildError(f"lesson {int(n):02d} has no deck docs/slides/{int(n):02d}_*.md")
        out.append(os.path.join(folder, found[0]))
    return out


def main(argv):
    parser = argparse.ArgumentParser(prog="build_slides.py", description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(HERE)), help="the course's folder")
    parser.add_argument("--out", help="where the slides go (default ROOT/build/slides)")
    parser.add_argument("--no-check", action="store_true", help="build without the Chromium check")
    parser.add_argument("--draw", metavar="TOOL", help="course-record-chart, which draws the charts from the runs "
                        "(default ROOT/build/bin/course-record-chart)")
    parser.add_argument("decks", nargs="*", metavar="DECK")
    args = parser.parse_args(argv)
    root = os.path.abspath(args.root)
    out = os.path.abspath(args.out or os.path.join(root, "build", "slides"))
    try:
        decks = decks_named(root, args.decks)
        if shutil.which("pandoc") is None:
            raise BuildError("the slides need pandoc (Debian: apt-get install pandoc)")
        os.makedirs(out, exist_ok=True)
    except (BuildError, OSError) as e:
        complain(f"slides: {e}")
        return 2
    browser = None if args.no_check else browser_command()

    def one(deck):
        lines = []
        try:
            return build(root, deck, out, browser, lines.append, args.draw), lines, None
        except BuildError as e:  # names the deck itself
            return False, lines, f"slides: {e}"
        except (OSError, ET.ParseError, subprocess.TimeoutExpired) as e:
            return False, lines, f"slides: {os.path.basename(deck)}: {e}"

    passed, broken = True, False
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        for ok, lines, error in pool.map(one, decks):  # in the decks' order
            for line in lines:
                say(line)
            if error:
                complain(error)
                broken = True
            passed = passed and ok
    if broken:
        return 2
    shown = os.path.relpath(out, root) if not os.path.relpath(out, root).startswith("..") else out
    say(f"The slides are in {shown}/ (open NN_name.html in a browser; arrow keys move;")
    say("NN_name-notes.html: the speaker notes).")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
