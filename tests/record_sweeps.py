#!/usr/bin/env python3
"""record_sweeps.py OUTDIR [--table N:TITLE:NAMES]... -- LESSON ARGS...: a lesson's sweeps are in its record.

Runs LESSON ARGS --record OUTDIR/runs/test/run.json and checks that the record's first table is
the lesson's results table (so a page's {{DEVICE/NN: ...}} still finds its rows there) and that
its table N has a title starting with TITLE and rows named NAMES (comma-separated, in order,
each a pattern where * stands for any text; ending with "..." where more rows may follow, as a
device allows more shapes), each with every cell it printed. Then each cell that holds a number
is quoted as a page quotes it, {{test/run#N: NAME COLUMN}} (harness/site/expand_runs.py), and
must read back as printed, and a ratio of two rows' cells as the ratio of the two.
"""
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness", "site"))
import expand_runs  # noqa: E402


def main():
    out, args = sys.argv[1], sys.argv[2:]
    split = args.index("--")
    wanted, command = [], args[split + 1:]
    for i in range(0, split, 2):
        if args[i] != "--table":
            sys.exit(f"usage: {sys.argv[0]} OUTDIR [--table N:TITLE:NAMES]... -- LESSON ARGS...")
        number, title, names = args[i + 1].split(":", 2)
        wanted.append((int(number), title, names.split(",")))
    shutil.rmtree(out, ignore_errors=True)
    runs = os.path.join(out, "runs")
    path = os.path.join(runs, "test", "run.json")
    done = subprocess.run(command + ["--record", path, "--output-dir", os.path.join(out, "pictures")],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0 or not os.path.exists(path):
        print(f"the lesson exited {done.returncode} (record: {os.path.exists(path)}):\n{done.stdout}{done.stderr}")
        return 1
    with open(path, encoding="utf-8") as f:
        record = json.load(f)
    tables = record["tables"]
    problems = []
    if not tables or not tables[0]["title"].startswith("Lesson "):
        problems.append(f"the first table is not the results table: {[t['title'] for t in tables]}")
    quoted = 0

    def quote(inner, expected):
        """Expands {{INNER}} as a page would; 1 when it reads EXPECTED (its marks aside), else 0."""
        try:
            text = expand_runs.expand_value(expand_runs.Runs(runs), inner)
        except expand_runs.PageError as e:
            problems.append(f"{{{{{inner}}}}}: {e}")
            return 0
        if text.rstrip("*+~") != expected:
            problems.append(f"{{{{{inner}}}}} gave {text!r}, not {expected!r} as printed")
            return 0
        return 1
    for number, title, names in wanted:
        if number > len(tables):
            problems.append(f"no table #{number}: {[t['title'] for t in tables]}")
            continue
        table = tables[number - 1]
        if not table["title"].startswith(title):
            problems.append(f"table #{number} is '{table['title']}', not '{title}...'")
        got = [row["variant"] for row in table["rows"]]
        more = names[-1] == "..."
        patterns = names[:-1] if more else names
        if len(got) < len(patterns) or (len(got) > len(patterns) and not more) or \
                not all(fnmatch.fnmatchcase(n, p) for n, p in zip(got, patterns)):
            problems.append(f"table #{number} ({table['title']}): rows {got}, not {names}")
        for row in table["rows"]:
            if set(row.get("printed", {})) != set(table["rows"][0].get("printed", {})) or not row["printed"]:
                problems.append(f"table #{number}, row {row['variant']}: cells {row.get('printed')}")
            # Every number it printed, quoted by the row's name and the column's.
            for column, cell in row.get("printed", {}).items():
                if not re.fullmatch(r"-?\d+(\.\d+)?[x%]?", cell):
                    continue
                quoted += quote(f"test/run#{number}: {row['variant']} {column} marked", cell.rstrip("x%"))
        # A ratio of two rows' cells, also where the column's name holds " / " (inside / 1 class).
        numeric = sorted(c for c, cell in (table["rows"] or [{}])[0].get("printed", {}).items()
                         if re.fullmatch(r"[\d.]+[x%]?", cell))
        for column in numeric:
            pair = [r for r in table["rows"] if re.fullmatch(r"[\d.]+[x%]?", r["printed"].get(column, ""))
                    and float(r["printed"][column].rstrip("x%")) > 0][:2]
            if len(pair) < 2 or (" / " not in column and column != numeric[0]):
                continue
            a, b = (float(r["printed"][column].rstrip("x%")) for r in pair)
            quoted += quote(f"test/run#{number}: {pair[0]['variant']} {column} / {pair[1]['variant']} {column} marked",
                            f"{a / b:.2f}")
    for p in problems:
        print("wrong:", p)
    if not problems:
        print(f"{path}: {len(tables)} tables; {len(wanted)} sweep(s) as expected, {quoted} cells quoted back")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
