#!/usr/bin/env python3
"""ptx_minmax.py TOOL OUTDIR: course-ptx-minmax counts the min and max per output in the PTX that
clang-15 makes of lesson 06's 3x3 merged medians, and records them as a run a page quotes.

Each kernel (merged_columns' three tiles of floats, 4x2, 8x2 and 16x2, and merged_pairs' min.u16x2
and max.u16x2 through inline PTX) counts more than none, its "per output" is (min + max) / outputs,
and its code holds twice what one work-item runs (the merged variants write their tile twice: for
tiles inside the image and at its edges); the record is valid JSON whose device is the
compiler, whose command repeats the run, and whose rows a page's placeholder expands from. A
compiler that is not installed exits 77 naming the package, as the whole test does where clang-15
or libclc-15 is missing.
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXPAND = os.path.join(HERE, "..", "harness", "site", "expand_runs.py")
SKIPPED = 77


def run(command):
    return subprocess.run(command, capture_output=True, text=True, timeout=600)


def main():
    tool, out = sys.argv[1], sys.argv[2]
    shutil.rmtree(out, ignore_errors=True)
    problems = []

    # A compiler that is not there: skipped, naming what to install, with nothing recorded.
    missing = os.path.join(out, "missing.json")
    done = run([tool, "--compiler", "no-such-clang", "--record", missing])
    if done.returncode != SKIPPED or "apt-get install no-such-clang" not in done.stdout + done.stderr:
        problems.append(f"a missing compiler exited {done.returncode}:\n{done.stdout}{done.stderr}")
    if os.path.exists(missing):
        problems.append("a missing compiler left a record")

    path = os.path.join(out, "runs", "clang-ptx", "median-minmax.json")
    done = run([tool, "--variant", "merged_columns,merged_pairs", "--window", "3", "--record", path])
    if done.returncode == SKIPPED:
        print(done.stdout + done.stderr, end="")
        return SKIPPED
    if done.returncode != 0:
        print(f"course-ptx-minmax exited {done.returncode}:\n{done.stdout}{done.stderr}")
        return 1
    with open(path, encoding="utf-8") as f:
        record = json.load(f)  # a half-written file fails here
    if record["device"].get("type") != "compiler" or "clang" not in record["device"].get("driver_version", ""):
        problems.append(f"device: {record['device']}")
    if not record["command"].startswith("build/bin/course-ptx-minmax ") or "--record" in record["command"]:
        problems.append(f"command: {record['command']!r}")
    rows = {row["variant"]: row["printed"] for row in record["tables"][0]["rows"]}
    names = [f"merged_columns {along}x2 3x3" for along in (4, 8, 16)] + ["merged_pairs 16x2 3x3"]
    if sorted(rows) != sorted(names):
        problems.append(f"rows: {sorted(rows)}, not {names}")
    for name in names:
        cells = rows.get(name, {})
        try:
            lo, hi, code, outputs = (int(cells[c]) for c in ("min", "max", "in code", "outputs"))
            per_output = float(cells["per output"])
        except (KeyError, ValueError):
            problems.append(f"{name}: cells {cells}")
            continue
        if lo <= 0 or hi <= 0 or per_output <= 0:
            problems.append(f"{name}: counted {lo} min and {hi} max, {per_output} per output")
        if abs(per_output - (lo + hi) / outputs) > 0.01:
            problems.append(f"{name}: {per_output} per output is not ({lo} + {hi}) / {outputs}")
        if code != 2 * (lo + hi):
            problems.append(f"{name}: {code} in its code, not twice the {lo + hi} one work-item runs")

    # A page quotes the record by name.
    page = os.path.join(out, "page.md")
    with open(page, "w", encoding="utf-8") as f:
        f.write("{{clang-ptx/median-minmax: merged_columns 8x2 3x3 per output}} per output.\n")
    done = run([sys.executable, EXPAND, "--runs", os.path.join(out, "runs"), "--out", os.path.join(out, "site"), page])
    expanded = os.path.join(out, "site", "page.md")
    text = open(expanded, encoding="utf-8").read() if os.path.exists(expanded) else ""
    want = rows.get("merged_columns 8x2 3x3", {}).get("per output", "?")
    if done.returncode != 0 or "\n" + want + " per output." not in text:
        problems.append(f"the placeholder expanded to {text!r} (exit {done.returncode}: {done.stderr.strip()})")

    for p in problems:
        print(p)
    if not problems:
        print("ok: " + ", ".join(rows[n]["per output"] for n in names) + " min and max per output (" +
              ", ".join(n.split()[1] if n.startswith("merged_columns") else "pairs" for n in names) + ")")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
