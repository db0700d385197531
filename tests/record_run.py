#!/usr/bin/env python3
"""record_run.py [--wall] OUTDIR LESSON ARGS...: LESSON ARGS --record OUTDIR/new/run.json writes a whole record.

The record is valid JSON holding the command (without --record), the commit, a UTC date, the
device (name, vendor, driver, clock), the roofline (where a table divides by a copy: its copy, and
its local-memory load rates, above 0 where the FMA peak is), and every
table the lesson printed with every row it printed, each under a name of its own, with its named
fields and marks; the folder it names is made, and no temporary file is left beside it.

With --wall, every row of every table also timed its whole trip on the host's clock: its wall_ms
is at least 0.9 times its end_to_end_ms (the host cannot see the trip end before the device ends
it; the tenth allows for the two clocks' steps), its table printed a "wall ms" column beside
"end-to-end ms" with a note saying what each is, and no line the lesson printed is wider than 80
columns.
"""
import json
import os
import re
import shutil
import subprocess
import sys

ROW_FIELDS = {"variant": str, "kernel_ms": float, "min_ms": float, "max_ms": float, "runs": int,
              "end_to_end_ms": (float, type(None)), "wall_ms": (float, type(None)), "bytes": float, "flops": float, "pixels": float,
              "max_error": float, "verified": bool, "baseline": str, "marks": str, "printed": dict,
              "copy": (str, type(None)), "roofline_ms": (float, type(None)), "bound": (str, type(None)),
              "local_loads": float, "local_load_bytes": int, "local_floor_ms": float}
COPY_KERNELS = {"float": "copy_float4", "8-bit": "copy_uchar16", "half": "copy_ushort8"}


def printed_rows(stdout, title):
    """How many rows the table titled TITLE printed: the lines after its header's rule, up to its notes."""
    lines = stdout.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(title) and i + 2 < len(lines) and re.fullmatch(r"  -+", lines[i + 2]):
            count = 0
            for row in lines[i + 3:]:
                if not row.startswith("  ") or row.startswith("    "):
                    break
                count += 1
            return count
    return 0


def wall_problems(stdout, table):
    """What is wrong with TABLE's wall times (--wall): a row without one, or one below its events' time,
    a table printed without the column or its note, a line wider than 80 columns."""
    problems = []
    for row in table["rows"]:
        wall, events = row.get("wall_ms"), row.get("end_to_end_ms")
        if not isinstance(wall, (int, float)) or not isinstance(events, (int, float)):
            problems.append(f"row {row['variant']}: wall_ms {wall!r}, end_to_end_ms {events!r}")
        elif wall < 0.9 * events:
            problems.append(f"row {row['variant']}: wall_ms {wall} below 0.9 x its events' {events} ms")
    lines = stdout.splitlines()
    heads = [lines[i + 1] for i, line in enumerate(lines[:-1]) if line.startswith(table["title"])]
    if not heads or not re.search(r"end-to-end ms +wall ms", heads[0]):
        problems.append(f"table '{table['title']}' printed no 'wall ms' beside 'end-to-end ms': {heads}")
    if not any("wall ms" in note and "end-to-end ms" in note for note in table.get("notes", [])):
        problems.append(f"table '{table['title']}' has no note saying what end-to-end ms and wall ms are")
    problems += [f"wider than 80 columns: {line!r}" for line in lines if len(line) > 80]
    return problems


def main():
    wall = sys.argv[1] == "--wall"
    out, command = sys.argv[1 + wall], sys.argv[2 + wall:]
    shutil.rmtree(out, ignore_errors=True)
    path = os.path.join(out, "new", "run.json")
    done = subprocess.run(command + ["--record", path, "--output-dir", os.path.join(out, "pictures")],
                          capture_output=True, text=True, timeout=600)
    problems = []
    if done.returncode != 0:
        problems.append(f"the lesson exited {done.returncode}:\n{done.stdout}{done.stderr}")
    elif not os.path.exists(path):
        problems.append(f"no record at {path}")
    else:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)  # a half-written file fails here
        left = [n for n in os.listdir(os.path.dirname(path)) if n != "run.json"]
        if left:
            problems.append(f"left beside the record: {left}")
        if not record["command"].startswith("./course run ") or "--record" in record["command"]:
            problems.append(f"command: {record['command']!r}")
        if not re.fullmatch(r"[0-9a-f]{40}|unknown", record["commit"]):
            problems.append(f"commit: {record['commit']!r}")
        if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", record["date"]):
            problems.append(f"date: {record['date']!r}")
        device = record["device"] or {}
        for key in ("name", "vendor", "driver_version", "max_clock_mhz"):
            if not device.get(key) and device.get(key) != 0:
                problems.append(f"device has no {key}: {device}")
        divides = any("% of copy" in row.get("printed", {}) for t in record["tables"] for row in t["rows"])
        roof = record["roofline"] or {}
        # The local-memory load rates: above 0 wherever the timer timed the FMA peak (a device whose
        # timer gives such short kernels no time has neither).
        timed = roof.get("fma_gflops", 0) > 0
        if divides and not (roof.get("copy_gbps", 0) > 0 and all(
                isinstance(roof.get(k), (int, float)) and (roof[k] > 0 or not timed and roof[k] == 0)
                for k in ("local_float_gloads", "local_float4_gloads"))):
            problems.append(f"roofline: {roof}")
        if not record["tables"]:
            problems.append("no table")
        for table in record["tables"]:
            printed = [line for line in done.stdout.splitlines() if line.startswith(table["title"])]
            if not printed:
                problems.append(f"table '{table['title']}' is not one the lesson printed")
            if not table["rows"]:
                problems.append(f"table '{table['title']}' has no row")
            # Every row printed is recorded, each under a name of its own (a page quotes it by that name).
            shown = printed_rows(done.stdout, table["title"])
            if shown != len(table["rows"]):
                problems.append(f"table '{table['title']}': {shown} rows printed, {len(table['rows'])} recorded")
            names = [row.get("variant") for row in table["rows"]]
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                problems.append(f"table '{table['title']}': rows named alike: {twice}")
            # The copies the rows divide by: each named by its pixels, with its kernel and bandwidth.
            copies = {c.get("pixels"): c for c in table.get("copies", [])}
            for name, c in copies.items():
                if COPY_KERNELS.get(name) != c.get("kernel") or not c.get("gbps", 0) > 0 or not c.get("runs"):
                    problems.append(f"table '{table['title']}': copy {c}")
            for row in table["rows"]:
                if row.get("copy") is not None and (row["copy"] not in copies or row.get("roofline_ms") is None):
                    problems.append(f"row {row['variant']}: copy {row.get('copy')!r} is not one of {list(copies)}")
            if wall:
                problems += wall_problems(done.stdout, table)
            for row in table["rows"]:
                for field, kind in ROW_FIELDS.items():
                    value = row.get(field, "missing")
                    if float in (kind if isinstance(kind, tuple) else (kind,)) and isinstance(value, int) \
                            and not isinstance(value, bool):
                        value = float(value)
                    if not isinstance(value, kind):
                        problems.append(f"row {row.get('variant')}: {field} = {value!r}")
                if row.get("marks") not in ("", "*", "+", "*+"):
                    problems.append(f"row {row['variant']}: marks {row.get('marks')!r}")
                if not row.get("printed", {}).get("kernel ms", "").endswith(row.get("marks", "?")):
                    problems.append(f"row {row['variant']}: marks differ from the printed kernel ms")
                if row.get("printed", {}).get("variant", "?") not in done.stdout:
                    problems.append(f"row {row['variant']} is not in the printed table")
        print(f"{path}: {len(record['tables'])} table(s), "
              f"{sum(len(t['rows']) for t in record['tables'])} rows, device {device.get('name')}")
    for p in problems:
        print("wrong:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
