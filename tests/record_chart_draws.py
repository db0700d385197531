#!/usr/bin/env python3
"""record_chart_draws.py TOOL OUTDIR: course-record-chart (TOOL) draws a recorded run's table as
its lesson drew it, and the site draws its charts with it.

On recorded runs of data/runs (a linear and a logarithmic axis, float and 8-bit copies, a record
older than the rows' copies): every row of the table is a bar, labelled with its variant, whose
time and marks are the record's (three significant digits, as the chart writes them), and every
bar's length is its kernel time (on a logarithmic axis its logarithm) at one scale; --roofline places the verified
rows on the roofline. A table the record lacks exits 7, a file that is not a run record (cut
short, another format, marks its roofline does not give) exits 6, a missing file exits 2, each
with a message naming it and no chart written. expand_runs.py --draw draws a page's
![caption]({{chart h100/02}}) into OUT/charts/ and links it; a student's run without the chart's
table gets a sentence in its place, the course's own runs fail the page."""
import json
import math
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RUNS = os.path.join(ROOT, "data", "runs")
EXPAND = os.path.join(ROOT, "harness", "site", "expand_runs.py")
SVG = "{http://www.w3.org/2000/svg}"
tool, out = sys.argv[1:3]
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
problems = []


def time_text(ms):
    """A time as the chart writes it: three significant digits (ladder_chart.cpp's time_text)."""
    decimals = min(max(2 - math.floor(math.log10(ms)), 0), 5) if ms > 0 else 2
    return f"{ms:.{decimals}f} ms"


def draw(run, *extra):
    name = os.path.relpath(run, RUNS)[:-5] if run.startswith(RUNS) else os.path.basename(run)[:-5]
    target = os.path.join(out, name.replace("/", "_") + "".join(extra).replace("-", "_") + ".svg")
    done = subprocess.run([tool, "--run", run, "--out", target, *extra], capture_output=True, text=True)
    return done, target


def bars(svg):
    """(label, bar width, the time written after it) for each row, in the chart's order."""
    elements = list(ElementTree.parse(svg).getroot())
    found = []
    for i, e in enumerate(elements):
        if e.tag == SVG + "text" and e.get("text-anchor") == "end" and e.get("font-size") == "12":
            rect = next((x for x in elements[i + 1:] if x.tag == SVG + "rect"), None)
            time = next((x for x in elements[i + 1:] if x.tag == SVG + "text" and x.find(SVG + "tspan") is not None), None)
            found.append((e.text, float(rect.get("width")), time.text))
    return found


for name in ("h100/02", "h100/06-w3", "pocl/02", "h100/11"):
    run = os.path.join(RUNS, name + ".json")
    table = json.load(open(run, encoding="utf-8"))["tables"][0]
    done, svg = draw(run)
    if done.returncode != 0:
        problems.append(f"{name}: exit {done.returncode}: {done.stderr}")
        continue
    shown = bars(svg)
    expected = [(r["variant"] if len(r["variant"]) <= 40 else r["variant"][:37] + "...",
                 time_text(r["kernel_ms"]) + r["marks"]) for r in table["rows"]]
    if [(label, time) for label, _, time in shown] != expected:
        problems.append(f"{name}: the bars {[(l, t) for l, _, t in shown]} are not the record's rows {expected}")
    # One scale: each bar's length is its time (on a logarithmic axis its logarithm) times one factor,
    # from 0 on a linear axis.
    log = "logarithmic" in " ".join(e.text or "" for e in ElementTree.parse(svg).getroot().iter())
    x = [math.log10(r["kernel_ms"]) if log else r["kernel_ms"] for r in table["rows"]]
    w = [width for _, width, _ in shown]
    a = (w[x.index(max(x))] - w[x.index(min(x))]) / (max(x) - min(x))
    b = w[x.index(max(x))] - a * max(x)
    if any(abs(wi - (a * xi + b)) > 0.5 for wi, xi in zip(w, x)) or (not log and abs(b) > 0.5):
        problems.append(f"{name}: the bars' lengths {w} are not the record's times {x} on one scale")
    print(f"{name}: {len(shown)} bars, each the record's time and marks, on a {'logarithmic' if log else 'linear'} axis")

done, svg = draw(os.path.join(RUNS, "h100/05.json"), "--roofline")
texts = " ".join(e.text or "" for e in ElementTree.parse(svg).getroot().iter()) if done.returncode == 0 else ""
if "arithmetic intensity" not in texts or "single_pass_blocked" not in texts or "GFLOP/s (fma_peak.cl)" not in texts:
    problems.append(f"h100/05 --roofline: exit {done.returncode}, no roofline with its rows: {done.stderr}{texts[:300]}")


def refused(what, run, code, words, *extra):
    done, svg = draw(run, *extra)
    said = done.stdout + done.stderr
    if done.returncode != code or any(w not in " ".join(said.split()) for w in words) or os.path.exists(svg):
        problems.append(f"{what}: exit {done.returncode} (expected {code}), expected {words} and no "
                        f"{os.path.basename(svg)}, got:\n{said}")
    elif any(len(line) > 80 for line in said.splitlines()):
        problems.append(f"{what}: a line wider than 80 columns:\n{said}")


text = open(os.path.join(RUNS, "h100/02.json"), encoding="utf-8").read()
record = json.loads(text)


def written(name, content):
    path = os.path.join(out, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(content if isinstance(content, str) else json.dumps(content))
    return path


refused("a table the record lacks", os.path.join(RUNS, "h100/02.json"), 7, ["not a table #3"], "--table", "3")
refused("a record cut short", written("cut.json", text[:len(text) // 2]), 6, ["cut.json", "line "])
refused("another format", written("format2.json", dict(record, format=2)), 6, ["format2.json", "not a run of format 1"])
unmarked = json.loads(text)
unmarked["tables"][0]["rows"][1]["marks"] = "+"
refused("marks its roofline does not give", written("marks.json", unmarked), 6, ["marks.json", "constant_weights"])
no_roof = json.loads(text)
no_roof["tables"][0]["roofline"]["fma_gflops"] = 0
no_roof["roofline"]["fma_gflops"] = 0
refused("a roofline without a multiply-add rate", written("noroof.json", no_roof), 7, ["no copy bandwidth"],
        "--roofline")
refused("a record that is not there", os.path.join(out, "none.json"), 2, ["none.json"])


def expand(runs, page_text, code, words):
    page = written("page.md", page_text)
    site = os.path.join(out, "site")
    done = subprocess.run([sys.executable, EXPAND, "--runs", runs, "--draw", tool, "--out", site, page],
                          capture_output=True, text=True)
    said = open(os.path.join(site, "page.md"), encoding="utf-8").read() if done.returncode == 0 else done.stderr
    if done.returncode != code or any(w not in said for w in words):
        problems.append(f"expand_runs.py: exit {done.returncode} (expected {code}), expected {words} in:\n{said}")
    return site


site = expand(RUNS, "# T\n\n![The ladder]({{chart h100/02}})\n", 0, ["![The ladder](charts/run_h100_02_1_ladder.svg)"])
if [t for _, _, t in bars(os.path.join(site, "charts", "run_h100_02_1_ladder.svg"))] != \
        [time_text(r["kernel_ms"]) for r in record["tables"][0]["rows"]]:
    problems.append("expand_runs.py drew another chart than h100/02's table")
expand(RUNS, "# T\n\n![The ladder]({{chart h100/02#2}})\n", 1, ["page.md:3", "has no table #2"])
student = os.path.join(out, "student")
os.makedirs(student)
shutil.copy(os.path.join(RUNS, "h100/02.json"), os.path.join(student, "02.json"))
expand(student, "# T\n\n![The ladder]({{chart h100/02#2}})\n", 0, ['No chart "The ladder" here', "has no table #2"])

for problem in problems:
    print("FAIL:", problem)
if not problems:
    print("ok: each chart is its record's table; a missing table or a broken record exits 7 or 6, drawing nothing")
sys.exit(1 if problems else 0)
