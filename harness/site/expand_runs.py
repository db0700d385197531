#!/usr/bin/env python3
"""expand_runs.py: the pages' measurements, filled in from recorded runs (data/runs/).

A page quotes a recorded run by name instead of typing a number:

    {{h100/05: float4_passes ms}}                    0.3777
    {{h100/05: float4_passes ms / single_pass ms}}   the ratio of two values, 1.80
    {{h100/05: copy_u8 ms marked}}                   a marked row's value, with its mark: 0.0670*+
    {{pocl/02: roofline copy GB/s}}                  the copy bandwidth the tables divide by; also
                                                     copy ms (one copy's time), copy MiB and copy
                                                     group (its work-items a group; 0: not recorded)
    {{h100/12-u8: roofline local float4 Gloads/s}}   local_load_peak.cl's rate of float4 loads from
                                                     local memory, 10^9 a second; also local float
                                                     Gloads/s, local float GB/s, local float4 GB/s
    {{h100/12-u8: single_pass_blocked_u8 bound}}     which floor bounds the row: memory, FMAs or
                                                     local loads
    {{h100/bench-box#2: roofline peer copy GB/s}}    a bench table's: CuPy's copy of the same bytes
    {{pocl/02: device}}                              the device, its platform and driver; also
                                                     command, date (the day) and commit
    {{h100/02: SM clock MHz}}                        a clock the device recorded: SM clock MHz,
                                                     max SM clock MHz, memory clock MHz (NVIDIA);
                                                     or its compute units
    {{table h100/05}}                                a table of the run, as a Markdown table
    {{table h100/07#2}}                              its second table

A chart is drawn from the same runs, as an image's target:

    ![caption]({{chart h100/05}})                    the run's first table as the lesson's bar
                                                     chart (ladder.svg); {{chart h100/09#2}} its
                                                     second table's
    ![caption]({{roofline h100/05}})                 its rows on its roofline (roofline.svg)

harness/tools/record_chart.cpp (course-record-chart, given as --draw) draws it into OUT/charts/,
which the site's Doxyfile adds to its images. Where a student's runs stand in for the course's
and the run has no such table (or no roofline), the page says so in place of the chart.

A figure that is not a measurement names where it comes from instead of a run:

    {{source NVIDIA H100 datasheet: 3.35 TB/s}}      3.35 TB/s [NVIDIA H100 datasheet]: a vendor's
                                                     figure, cited by its key in references.md
    {{set common/report.cpp: 102%}}                  102%: a threshold, target or size the course
                                                     sets itself, in the file named (which holds 102)

`h100/05` is the file data/runs/h100/05.json (written by a lesson's `--record FILE`); `#N` picks
its Nth table when a variant is in several. A row's fields: ms (the median kernel time), min_ms,
max_ms, end-to-end ms, runs, MPix/s, GB/s, % of copy, flop/B, roofline ms, max error, speed-up,
bytes, flops, pixels; local loads (the loads a row declares it makes from local memory), local
floor ms (their time at the roofline's local load rate; fails for a row that declares none) and
bound (text: the largest floor, memory, FMAs or local loads); lesson 12's row pass and column
pass (its --passes table, `#2`); lesson 10's wall ms (a trip on the host's clock, beside its
end-to-end ms from events); and lesson 13's wall ms, idle ms, events ms, eff. and rows (a
device's band) (its MPI table's exchange ms and MB exchanged). A number prints without its unit, as the table printed it
(4 significant digits for times); the page writes the unit after it.

The sweeps a lesson prints before its results table follow it (#1), in the order printed; a
sweep's own columns are fields too, each cell as printed:

    lesson 07  #2 divergence    classes_1 ... classes_64: inside-warp ms, between-warps ms,
                                inside / 1 class, between / 1 class, predicted inside
               #3 latency       items_32 ... items_4096 (work-items per compute unit): GB/s in
                                columns ARITH=0 ... ARITH=128 and "ARITH=0, 4 loads in flight"
               #4 occupancy     kib_1 ... kib_256 (local KiB per group): ms, kernel ms, GB/s,
                                resident groups (limits), resident groups (measured), waves
               #5 work-groups   16x1, 32x8, ..., 32x32_reqd (a shape; skipped ones have no ms):
                                ms, kernel ms, MPix/s, work-items
    lesson 05  #2 strips (--strips)  strip_64, strip_256, ...: ms (measured), predicted ms,
                                no-tail ms, groups, waves, ratio
    lesson 11  #2, #3, ...      each search, as printed (exhaustive, then budgeted, per --op):
                                every compiled candidate as VARIANT_GXxGY_oN_vN[_sN][_rN]
                                (outputs, vector, strip, registers), e.g. vector_passes_16x4_o8_v4:
                                ms, kernel ms, % of copy, build ms
    {{h100/07#2: classes_32 inside / 1 class}}     a sweep's column
    {{h100/11#2: vector_passes_16x4_o8_v4 ms}}      a candidate's median kernel time

A sweep's rows carry the marks the results table would print for their kernel time (ms); a row
of several times (07's #2 and #3) has none of its own.

A missing file, table, row or field fails, naming the page, its line and the placeholder. So does
a time from a row the table marked (`*` too short to time, `+` held by the cache) or a speed-up
within the spread of the runs (`~`), unless the placeholder says `marked`; from a student's run
standing in for the one a placeholder names (below) such a value prints with its mark instead.

Used as:  expand_runs.py --out DIR [--draw TOOL] [--runs RUNS] PAGE.md...   writes DIR/PAGE.md
                                                    for each page, and its charts into DIR/charts/
          expand_runs.py --out DIR [--draw TOOL] [--runs RUNS] DOCS   every DOCS/*.md, and
                                                    DIR/images a link to DOCS/images
          expand_runs.py --check [--runs RUNS] PAGE.md...   only checks every placeholder (a chart's
                                                    run and table, without drawing it)
RUNS is $COURSE_RUNS when set, else data/runs. A RUNS folder other than the course's own (a
student's runs, `./course docs --runs DIR`) may hold one device's files directly (DIR/05.json):
every placeholder then reads them, whatever device it names, and each page that quotes a run says
at its top which device and command it shows.
"""
import argparse
import difflib
import functools
import json
import math
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
COURSE_RUNS = os.path.join(ROOT, "data", "runs")

PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}", re.S)
# An image whose picture is a chart drawn from a run: ![caption]({{chart h100/05}}).
CHART = re.compile(r"!\[([^\]]*)\]\(\{\{(chart|roofline) ([^}]*)\}\}\)")
# course-record-chart's exit status for a record without the table, or a table without a roofline.
NO_SUCH_TABLE = 7
# Fields read from the row's recorded numbers; the rest are its cells as the table printed them.
TIMES = {"ms": "kernel_ms", "min_ms": "min_ms", "max_ms": "max_ms", "end-to-end ms": "end_to_end_ms"}
COUNTS = {"runs": "runs", "bytes": "bytes", "flops": "flops", "pixels": "pixels", "local loads": "local_loads"}
# Times a row's marks do not touch: its floors, computed from its work and the measured roofline.
FLOORS = {"local floor ms": "local_floor_ms"}
# Words: the floor that bounds the row (its roofline ms), quoted as text and never in a ratio.
WORDS = {"bound": "bound"}
PRINTED = {"MPix/s": "MPix/s", "GB/s": "GB/s", "% of copy": "% of copy", "flop/B": "flop/B",
           "roofline ms": "roofline ms", "max error": "max error", "speed-up": "speed-up",
           # lesson 12's own columns (--passes: each pass's median kernel time)
           "row pass": "row pass", "column pass": "column pass",
           # the results table's wall ms where its rows timed their trip on the host's clock (lesson
           # 10's), and lesson 13's own columns
           "wall ms": "wall ms", "idle ms": "idle ms", "events ms": "events ms", "eff.": "eff.", "rows": "rows",
           # and its MPI table's
           "exchange ms": "exchange ms", "MB exchanged": "MB exchanged"}
# Fields that a row's marks (* too short, + cached) make meaningless.
TIMED = {"ms", "min_ms", "max_ms", "MPix/s", "GB/s", "% of copy", "speed-up", "row pass", "column pass", "wall ms",
         "idle ms", "events ms", "eff.", "exchange ms"}
# The clocks a run's device recorded (on NVIDIA, nvidia-smi's as the run began), and its compute
# units (CL_DEVICE_MAX_COMPUTE_UNITS: an NVIDIA GPU's SMs).
DEVICE_FIELDS = {"SM clock MHz": "sm_clock_mhz", "max SM clock MHz": "max_sm_clock_mhz",
                 "memory clock MHz": "memory_clock_mhz", "max memory clock MHz": "max_memory_clock_mhz",
                 "compute units": "compute_units"}
ROOFLINE = {"copy GB/s": "copy_gbps", "copy median GB/s": "copy_median_gbps", "copy slowest GB/s": "copy_slowest_gbps",
            "copy MiB": "copy_bytes", "copy ms": "copy_ms", "copy group": "copy_group", "FMA GFLOP/s": "fma_gflops",
            # local_load_peak.cl's loads from local memory: 10^9 a second, or their bytes (x 4, x 16)
            "local float Gloads/s": "local_float_gloads", "local float4 Gloads/s": "local_float4_gloads",
            "local float GB/s": "local_float_gloads", "local float4 GB/s": "local_float4_gloads",
            # the bench's tables: CuPy's copy of the same bytes, timed beside the course's yardstick
            "peer copy GB/s": "peer_copy_gbps",
            # the profiling timer's resolution the device reports, in ns
            "timer ns": "timer_ns"}
# Roofline fields read from another's value, times this.
SCALED = {"copy MiB": 2**-20, "local float GB/s": 4, "local float4 GB/s": 16}
FIELDS = sorted(list(TIMES) + list(COUNTS) + list(FLOORS) + list(WORDS) + list(PRINTED), key=len, reverse=True)


class PageError(Exception):
    """A placeholder that cannot be filled in; the message names what is missing."""


def milliseconds(ms):
    """A time as the results table prints it: four significant digits, at most five decimals."""
    digits = min(max(3 - math.floor(math.log10(ms)), 0), 5) if ms > 0 else 3
    return f"{ms:.{digits}f}"


class Runs:
    """The recorded runs under one folder, read once each."""

    def __init__(self, folder):
        self.folder = folder
        self.own = os.path.realpath(folder) == os.path.realpath(COURSE_RUNS)
        self.files = {}

    def path_of(self, ref):
        """The file for `device/name`: RUNS/device/name.json; in a folder of one device's runs
        (not the course's own), RUNS/name.json, else RUNS/NN.json for the lesson NN."""
        device, _, name = ref.partition("/")
        if not device or not name:
            raise PageError(f"'{ref}' is not DEVICE/NAME (for example h100/05)")
        exact = os.path.join(self.folder, device, name + ".json")
        if self.own or os.path.exists(exact):
            return exact
        for candidate in (name, name[:2]):
            path = os.path.join(self.folder, candidate + ".json")
            if os.path.exists(path):
                return path
        # A run the student did not record: the course's own, which the page's note then names.
        course_own = os.path.join(COURSE_RUNS, device, name + ".json")
        return course_own if os.path.exists(course_own) else exact

    def stands_in(self, ref):
        """Whether a student's run stands in for the one `ref` names (DIR/05.json for h100/05)."""
        device, _, name = ref.partition("/")
        path = self.path_of(ref)
        return not self.own and path not in (os.path.join(self.folder, device, name + ".json"),
                                              os.path.join(COURSE_RUNS, device, name + ".json"))

    def load(self, ref):
        path = self.path_of(ref)
        if path not in self.files:
            if not os.path.exists(path):
                known = sorted(os.path.relpath(os.path.join(d, f), self.folder)[:-5]
                               for d, _, fs in os.walk(self.folder) for f in fs if f.endswith(".json"))
                near = difflib.get_close_matches(ref, known, 1)
                raise PageError(f"no recorded run {path}" + (f"; did you mean {near[0]}?" if near else "") +
                                " (record one with the lesson's --record FILE, or harness/tools/record-runs.sh)")
            try:
                with open(path, encoding="utf-8") as f:
                    self.files[path] = json.load(f)
            except (OSError, ValueError) as e:
                raise PageError(f"cannot read the recorded run {path}: {e}")
        return path, self.files[path]


def split_ref(ref):
    """'h100/07#2' -> ('h100/07', 2); 'h100/05' -> ('h100/05', None)."""
    m = re.fullmatch(r"\s*([^#\s]+)\s*(?:#(\d+))?\s*", ref)
    if not m:
        raise PageError(f"'{ref}' is not DEVICE/NAME or DEVICE/NAME#TABLE")
    return m.group(1), int(m.group(2)) if m.group(2) else None


def tables_of(run, path, number):
    tables = run.get("tables", [])
    if number is None:
        return tables
    if not 1 <= number <= len(tables):
        raise PageError(f"{path} has {len(tables)} table(s), not a table #{number}")
    return [tables[number - 1]]


def find_row(run, path, number, variant):
    found = [row for table in tables_of(run, path, number) for row in table["rows"] if row["variant"] == variant]
    if not found:
        names = [row["variant"] for table in tables_of(run, path, number) for row in table["rows"]]
        near = difflib.get_close_matches(variant, names, 1)
        raise PageError(f"no row '{variant}' in {path}" + (f"; did you mean '{near[0]}'?" if near else "") +
                        f" (rows: {', '.join(dict.fromkeys(names))})")
    if len({json.dumps(r, sort_keys=True) for r in found}) > 1:
        raise PageError(f"'{variant}' is a row of several tables of {path}: name one, as {{{{DEVICE/NAME#N: ...}}}}")
    return found[0]


def columns_of(run, path, number):
    """The columns the tables of a run printed (a sweep's own, such as 'inside-warp ms')."""
    return {head for table in tables_of(run, path, number) for row in table["rows"] for head in row.get("printed", {})}


def split_field(text, columns=()):
    """'float4_passes ms' -> ('float4_passes', 'ms'): the longest field name the text ends with,
    a row's named fields or, for a table of a lesson's own columns, a column it printed."""
    for field in sorted(set(FIELDS) | set(columns), key=len, reverse=True):
        if text.endswith(" " + field):
            return text[: -len(field) - 1].strip(), field
    raise PageError(f"'{text}' names no field; a row's fields: {', '.join(sorted(FIELDS))}" +
                    (f"; or a column of its table: {', '.join(sorted(columns))}" if columns else ""))


def value(runs, ref, term, allow_marked):
    """One term, 'VARIANT FIELD': (its number, its text as printed, the marks it carries)."""
    ref, number = split_ref(ref)
    path, run = runs.load(ref)
    term = term.strip()
    if term.startswith("roofline "):
        field = term[len("roofline "):]
        if field not in ROOFLINE:
            raise PageError(f"'{field}' is not a roofline field ({', '.join(ROOFLINE)})")
        roof = tables_of(run, path, number)[0]["roofline"] if number else run.get("roofline")
        v = (roof or {}).get(ROOFLINE[field])
        if not v:
            raise PageError(f"{path} recorded no {field}")
        v = v * SCALED.get(field, 1)
        return v, milliseconds(v) if field == "copy ms" else f"{v:.0f}" if field in ("timer ns", "copy group") else f"{v:.1f}", ""
    columns = columns_of(run, path, number)
    variant, field = split_field(term, columns)
    row = find_row(run, path, number, variant)
    marks = row.get("marks", "") if field in TIMED else ""
    if field not in FIELDS:  # a column of the lesson's own, its cell as printed
        text = row.get("printed", {}).get(field, "").rstrip("x%")
        try:
            v = float(text)
        except ValueError:
            raise PageError(f"row '{variant}' of {path} printed no {field} ('{text}')")
    elif field in TIMES:
        v = row.get(TIMES[field])
        if v is None:
            raise PageError(f"row '{variant}' of {path} recorded no {field}")
        text = milliseconds(v)
    elif field in COUNTS:
        v = row.get(COUNTS[field])
        text = f"{v:g}" if isinstance(v, float) else str(v)
    elif field in FLOORS or field in WORDS:
        v = row.get(FLOORS.get(field) or WORDS[field])
        if not v:
            raise PageError(f"row '{variant}' of {path} recorded no {field}" +
                            (" (it declares no local loads, or the device timed none)" if field in FLOORS else ""))
        text = milliseconds(v) if field in FLOORS else v
    else:
        text = row.get("printed", {}).get(PRINTED[field], "")
        if field == "speed-up" and text.endswith("~"):
            marks, text = marks + "~", text[:-1]
        text = text.rstrip("x%")
        try:
            v = float(text)
        except ValueError:
            raise PageError(f"row '{variant}' of {path} printed no {field} ('{text}')")
    # A student's run (`./course docs --runs DIR`) standing in for the course's own, under text
    # written for that: a mark there is shown with the value, not refused, and the page's note says
    # whose numbers they are.
    if marks and not allow_marked and not runs.stands_in(ref):
        meaning = {"*": "too short to time", "+": "held by the last-level cache",
                   "~": "within the spread of the timed runs"}
        raise PageError(f"row '{variant}' of {path} is marked {marks} (" +
                        "; ".join(meaning[m] for m in marks) + "): no conclusion rests on its " + field +
                        "; quote it as such with 'marked' at the placeholder's end, or quote another run")
    return v, text, marks


@functools.lru_cache(maxsize=None)
def course_file(path):
    """The text of one of the course's files, read once however many placeholders cite it."""
    with open(path, encoding="utf-8") as f:
        return f.read()


def cited(kind, where, text):
    """'{{source KEY: TEXT}}' and '{{set FILE: TEXT}}': TEXT, once its source is found."""
    numbers = re.findall(r"\d+(?:\.\d+)?", text)
    if not numbers:
        raise PageError(f"'{text}' holds no figure: write it without a placeholder")
    if kind == "source":
        if f"**[{where}]**" not in course_file(os.path.join(ROOT, "docs", "references.md")):
            raise PageError(f"no reference [{where}] in docs/references.md")
        return f"{text} [{where}]"
    path = os.path.join(ROOT, where)
    if not os.path.isfile(path):
        raise PageError(f"no file {where} in the course (a path from its root)")
    held = course_file(path)
    missing = [n for n in numbers if not re.search(r"(?<![\d.])" + re.escape(n) + r"(?![\d])", held)]
    if missing:
        raise PageError(f"{where} holds no {', '.join(missing)}: name the file that sets it")
    return text


def expand_value(runs, inner):
    """The text for '{{REF: TERM}}', '{{REF: TERM / TERM}}', either with 'marked' at its end."""
    ref, colon, expression = inner.partition(":")
    if not colon:
        raise PageError("a placeholder is {{DEVICE/NAME: VARIANT FIELD}} or {{table DEVICE/NAME}}")
    expression = expression.strip()
    kind, _, where = ref.strip().partition(" ")
    if kind in ("source", "set") and where:
        return cited(kind, where.strip(), expression)
    if expression in ("device", "command", "date", "commit") or expression in DEVICE_FIELDS:
        path, run = runs.load(split_ref(ref)[0])
        d = run.get("device") or {}
        if expression in DEVICE_FIELDS:  # a clock as the run's device recorded it
            if not d.get(DEVICE_FIELDS[expression]):
                if runs.stands_in(ref):  # a student's device that records no such clock (PoCL's)
                    return "(not recorded)"
                raise PageError(f"{path} records no {expression}")
            return str(d[DEVICE_FIELDS[expression]])
        if expression == "device":
            return f"{d.get('name', 'unknown')} ({d.get('platform', '')} {d.get('driver_version', '')})"
        return run[expression][:10] if expression == "date" else run[expression]
    allow_marked = expression.endswith(" marked")
    if allow_marked:
        expression = expression[: -len(" marked")]
    terms = split_ratio(runs, ref, expression)
    if len(terms) == 1:
        v, text, marks = value(runs, ref, terms[0], allow_marked)
        return text + marks
    if len(terms) != 2:
        raise PageError("a ratio is two terms, 'A ms / B ms'")
    (a, _, marks_a), (b, _, marks_b) = (value(runs, ref, t, allow_marked) for t in terms)
    if isinstance(a, str) or isinstance(b, str):
        raise PageError("a ratio divides numbers, not words")
    if b == 0:
        raise PageError(f"the ratio divides by zero ({terms[1].strip()})")
    return f"{a / b:.2f}" + "".join(dict.fromkeys(marks_a + marks_b))


def split_ratio(runs, ref, expression):
    """'A ms / B ms' -> ['A ms', 'B ms']; a column named with ' / ' ('classes_32 inside / 1 class')
    stays one term, unless the expression splits into two terms that each end with a field."""
    pieces = expression.split(" / ")
    name, number = split_ref(ref)
    path, run = runs.load(name)
    columns = columns_of(run, path, number)
    if len(pieces) <= 2 and not any(" / " in c for c in columns):
        return pieces

    def is_term(text):
        try:
            return text.strip().startswith("roofline ") or bool(split_field(text.strip(), columns))
        except PageError:
            return False

    for k in range(1, len(pieces)):
        left, right = " / ".join(pieces[:k]), " / ".join(pieces[k:])
        if is_term(left) and is_term(right):
            return [left, right]
    return [expression]


def expand_table(runs, ref):
    """A recorded table as a Markdown table: its cells as the lesson printed them, then its notes."""
    ref, number = split_ref(ref)
    path, run = runs.load(ref)
    tables = tables_of(run, path, number or 1)
    if not tables:
        raise PageError(f"{path} holds no table")
    table = tables[0]
    head = list(table["rows"][0]["printed"]) if table["rows"] else []
    lines = [f"{table['title']} (`{run['command']}`):", "", "| " + " | ".join(head) + " |",
             "| " + " | ".join("---" for _ in head) + " |"]
    for row in table["rows"]:
        cells = [row["printed"].get(h, "") for h in head]
        cells[0] = f"`{cells[0]}`"
        lines.append("| " + " | ".join(c.replace("|", "\\|").replace("*", "\\*") for c in cells) + " |")
    if table.get("notes"):
        lines.append("")
        lines += ["- " + re.sub(r"^\+", r"\\+", note.replace("*", "\\*").replace("~", "\\~")) for note in table["notes"]]
    return "\n".join(lines)


class Charts:
    """Draws the charts the pages name with TOOL (course-record-chart) into FOLDER, each once; a
    page links one as LINK/NAME."""

    def __init__(self, tool, folder, link):
        self.tool, self.folder, self.link = tool, folder, link
        self.drawn = {}

    def draw(self, path, number, kind, name):
        """(the tool's exit status, what it said on stderr) for table NUMBER of the run PATH."""
        target = os.path.join(self.folder, name)
        if not self.tool:
            raise PageError("the page shows a chart: give --draw TOOL (course-record-chart) to draw it")
        if target not in self.drawn:
            os.makedirs(self.folder, exist_ok=True)
            command = [self.tool, "--run", path, "--table", str(number), "--out", target]
            try:
                done = subprocess.run(command + (["--roofline"] if kind == "roofline" else []),
                                      capture_output=True, text=True)
            except OSError as e:
                raise PageError(f"cannot run {self.tool} to draw the chart: {e}")
            self.drawn[target] = (done.returncode, " ".join(done.stderr.split()))
        return self.drawn[target]


def expand_chart(runs, caption, kind, ref, charts):
    """'![CAPTION]({{chart REF}})' (or {{roofline REF}}): the image of the chart drawn from REF's
    table, or, where a student's run lacks that table, a sentence saying so."""
    ref, number = split_ref(ref)
    number = number or 1
    path, run = runs.load(ref)
    tables = run.get("tables", [])
    table = tables[number - 1] if 1 <= number <= len(tables) else None
    roof = ((table or {}).get("roofline") or run.get("roofline") or {})
    lacks = (f"has no table #{number}" if table is None else f"has no rows in table #{number}" if not table.get("rows")
             else "records no copy bandwidth or multiply-add rate for a roofline"
             if kind == "roofline" and not (roof.get("copy_gbps") and roof.get("fma_gflops")) else "")
    name = f"run_{ref.replace('/', '_')}_{number}_{'ladder' if kind == 'chart' else kind}.svg"
    if not lacks and charts:
        status, said = charts.draw(path, number, kind, name)
        if status == NO_SUCH_TABLE:
            lacks = said
        elif status != 0:
            raise PageError(f"{os.path.basename(charts.tool)} could not draw the chart (exit {status}): {said}")
    if not lacks:
        return f"![{caption}]({os.path.join(charts.link if charts else 'charts', name)})"
    if os.path.realpath(path).startswith(os.path.realpath(COURSE_RUNS) + os.sep):
        raise PageError(f"no chart: {path} {lacks}")
    return f"*(No chart \"{caption}\" here: the run {path} {lacks}.)*"


def expand_page(runs, path, text, charts=None, charts_only=False):
    """The page with every placeholder filled in (CHARTS_ONLY: only its charts), its charts drawn
    by CHARTS (None: only checked); raises PageError naming the page and line."""
    used = {}

    def fill_chart(match):
        line = text.count("\n", 0, match.start()) + 1
        try:
            result = expand_chart(runs, match.group(1), match.group(2), match.group(3), charts)
            file, run = runs.load(split_ref(match.group(3))[0])
            used[file] = run
            return result
        except PageError as e:
            raise PageError(f"{path}:{line}: {{{{{match.group(2)} {match.group(3)}}}}}: {e}")

    text = CHART.sub(fill_chart, text)
    if charts_only:
        return text

    def fill(match):
        inner = " ".join(match.group(1).split())  # a placeholder may run over two lines
        line = text.count("\n", 0, match.start()) + 1
        try:
            if inner.startswith("table "):
                result = expand_table(runs, inner[len("table "):])
                ref = split_ref(inner[len("table "):])[0]
            elif inner.split(" ", 1)[0] in ("source", "set"):
                return expand_value(runs, inner)
            else:
                result = expand_value(runs, inner)
                ref = split_ref(inner.partition(":")[0])[0]
            file, run = runs.load(ref)
            used[file] = run
            return result
        except PageError as e:
            raise PageError(f"{path}:{line}: {{{{{inner}}}}}: {e}")

    expanded = PLACEHOLDER.sub(fill, text)
    if used and not runs.own:
        # A student's runs: the page says whose numbers it shows, under its title.
        shown = "; ".join(dict.fromkeys(f"{r['device']['name']} ({r['device'].get('driver_version', '')}), "
                                        f"recorded {r['date'][:10]} with `{r['command']}`"
                                        for r in used.values() if r.get("device")))
        note = (f"\n> The measurements on this page come from these runs, those of `{runs.folder}` where it "
                f"holds the lesson's: {shown}. The text around them was written for the course's own runs.\n")
        title_end = expanded.find("\n") + 1 if expanded.startswith("#") else 0
        expanded = expanded[:title_end] + note + expanded[title_end:]
    return expanded


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pages", nargs="+", help="the pages (Markdown) to expand")
    parser.add_argument("--runs", default=os.environ.get("COURSE_RUNS") or COURSE_RUNS,
                        help="the folder of recorded runs (default: $COURSE_RUNS, else data/runs)")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--out", help="write the expanded pages into this folder")
    where.add_argument("--check", action="store_true", help="only check that every placeholder expands")
    parser.add_argument("--draw", metavar="TOOL", help="course-record-chart, which draws the charts the pages show "
                        "(needed with --out where a page shows one)")
    args = parser.parse_args()
    if not os.path.isdir(args.runs):
        print(f"expand_runs.py: no folder of recorded runs '{args.runs}'", file=sys.stderr)
        return 2
    runs = Runs(args.runs)
    charts = None
    if args.out:  # this build's charts only: none left from another runs folder
        charts = Charts(args.draw, os.path.join(args.out, "charts"), "charts")
        shutil.rmtree(charts.folder, ignore_errors=True)
        os.makedirs(charts.folder)
    failed, pages = [], []
    for page in args.pages:
        if os.path.isdir(page):
            pages += sorted(os.path.join(page, n) for n in os.listdir(page) if n.endswith(".md"))
            images = os.path.join(os.path.abspath(page), "images")
            if args.out and os.path.isdir(images):
                os.makedirs(args.out, exist_ok=True)
                link = os.path.join(args.out, "images")
                if os.path.islink(link) or os.path.exists(link):
                    os.remove(link)
                os.symlink(images, link)
        else:
            pages.append(page)
    for page in pages:
        with open(page, encoding="utf-8") as f:
            text = f.read()
        try:
            expanded = expand_page(runs, os.path.relpath(page), text, charts)
        except PageError as e:
            failed.append(str(e))
            continue
        if args.out:
            os.makedirs(args.out, exist_ok=True)
            target = os.path.join(args.out, os.path.basename(page))
            temporary = target + ".tmp"
            with open(temporary, "w", encoding="utf-8") as f:
                f.write(expanded)
            os.replace(temporary, target)
    for message in failed:
        print(f"error: {message}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
