#!/usr/bin/env python3
"""bench_reads_tables.py LESSON_06 LESSON_11 OUT: the bench runs a lesson with --record and reads
every row of its results tables from the record, names with spaces included, with the numbers the
table shows; and, once lesson 11 has stored a winner, the "tuned ..." row lesson 06 adds for it,
which the bench's --untuned leaves out; and with --rounds, each row's fastest round."""
import contextlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("course_bench", os.path.join(root, "bench", "course_bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
lesson06, lesson11, out_dir = sys.argv[1:4]
bench.BUILD = os.path.dirname(os.path.dirname(os.path.abspath(lesson06)))  # the lessons the test was given

# Lesson 11's cache in a scratch XDG_CACHE_HOME: empty first.
shutil.rmtree(out_dir, ignore_errors=True)
os.environ["XDG_CACHE_HOME"] = os.path.join(out_dir, "cache")
device = bench.describe_device(os.environ.get("COURSE_DEVICE", ""))
SIZE = ["--size", "23x17", "--repeat", "1", "--output-dir", out_dir]


def lesson_06_rows(untuned=False):
    """The rows the bench reads from lesson 06's record, and the lines about lesson 11's winner it
    passes on."""
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        rows, problem = bench.run_lesson("06", SIZE, device, untuned)
    assert problem is None, problem
    prefix = "bench: lesson 06: "
    tuning = [line[len(prefix):] for line in said.getvalue().splitlines() if line.startswith(prefix)]
    return rows, [line for line in tuning if bench.TUNING_LINE.match(line)]


rows, tuning_lines = lesson_06_rows()
names = [r["variant"] for r in rows]
expected = [v + " " + f for f in ("float", "u8") for v in ("insertion_sort", "bitonic_sort", "network_3x3",
                                                            "network_3x3_rows", "shared_sorted_rows",
                                                            "merged_columns")]
expected.append("merged_pairs u8")
expected.sort(key=lambda name: name.endswith(" u8"))  # the float rows first, then the 8-bit ones
assert names == expected, names
assert [line.split(" at ")[0] for line in tuning_lines] == ["no tuned parameters for median 3x3 float",
                                                            "no tuned parameters for median 3x3 u8"], tuning_lines
for r in rows:
    assert r["verified"] and r["kernel_ms"] > 0 and r["end_to_end_ms"] > 0 and r["copy_gbps"] > 0, r
    assert r["table"].startswith("Median 3x3, 23x17"), r["table"]
    assert r["marks"].endswith("+"), r  # 23x17 pixels: in every device's last-level cache
print("%d rows read: %s" % (len(rows), ", ".join(names)))

# The numbers read from the record are those the table printed, to the digits it printed them.
record = os.path.join(out_dir, "06.json")
subprocess.run([lesson06] + SIZE + ["--untuned", "--record", record], capture_output=True, check=True)
with open(record, encoding="utf-8") as f:
    printed = {r["variant"]: r["printed"] for t in json.load(f)["tables"] for r in t["rows"]}


def shows(text, value):
    """Whether TEXT, a number printed to some digits (with its marks), is VALUE rounded to them."""
    number = text.rstrip("%x*+!")
    decimals = len(number.partition(".")[2])
    return abs(float(number) - value) <= 0.5 * 10 ** -decimals * (1 + 1e-9)


columns = {"kernel ms": "kernel_ms", "GB/s": "gbps", "MPix/s": "mpix_s", "% of copy": "pct_of_copy",
           "flop/B": "flop_per_byte", "roofline ms": "roofline_ms", "end-to-end ms": "end_to_end_ms"}
for r in bench.read_record(record)[0]:
    cells = printed[r["variant"]]
    for column, key in columns.items():
        if cells[column] != "-":
            assert r[key] is not None and shows(cells[column], r[key]), (r["variant"], column, cells[column], r[key])
    assert cells["kernel ms"].endswith(r["marks"]) and r["verified"] == (cells["verified"] == "yes"), (r, cells)
print("every row's numbers read as the table printed them, to its digits")

# Lesson 11 stores its winner for the median at this size; lesson 06 then runs it as a row.
subprocess.run([lesson11, "--op", "median", "--size", "23x17", "--repeat", "1", "--strategy", "budgeted",
                "--budget", "2", "--output-dir", out_dir], capture_output=True, text=True, check=True)
rows, tuning_lines = lesson_06_rows()
tuned = [r for r in rows if r["variant"].startswith("tuned ")]
assert len(tuned) == 1 and tuned[0]["verified"] and tuned[0]["kernel_ms"] > 0, rows
assert tuned[0]["variant"].endswith(" float"), tuned
winner_lines = [line for line in tuning_lines if line.startswith("lesson 11's tuned winner for this device")]
assert len(tuning_lines) == 2 and len(winner_lines) == 1, tuning_lines
assert winner_lines[0].endswith("ms") and "verified" in winner_lines[0], tuning_lines
print("with lesson 11's winner: %s" % tuned[0]["variant"])

# The bench's --untuned goes only to the lessons that take it.
assert bench.knows_option(lesson06, "--untuned")
assert not bench.knows_option(lesson06, "--untune")
rows, tuning_lines = lesson_06_rows(untuned=True)
assert [r["variant"] for r in rows] == expected and not tuning_lines, (rows, tuning_lines)

# --rounds: each row keeps its fastest round, in the first round's order; a row any round failed
# to verify stays unverified.
first = [{"lesson": "06", "variant": "a", "kernel_ms": 2.0, "verified": True},
         {"lesson": "06", "variant": "b", "kernel_ms": 1.0, "verified": True},
         {"variant": "OpenCV x", "kernel_ms": 5.0, "peer": True}]
second = [{"lesson": "06", "variant": "b", "kernel_ms": 0.5, "verified": False},
          {"lesson": "06", "variant": "a", "kernel_ms": 1.5, "verified": True},
          {"variant": "OpenCV x", "kernel_ms": 4.0, "peer": True}]
merged = bench.best_rounds([first, second])
assert [(r["variant"], r["kernel_ms"], r.get("verified")) for r in merged] == \
    [("a", 1.5, True), ("b", 0.5, False), ("OpenCV x", 4.0, None)], merged
print("--rounds keeps each row's fastest round")
for wrong in (["--rounds", "0"], ["--rounds", "101"]):
    try:
        bench.parse_args(wrong)
    except bench.UsageError as e:
        assert "--rounds must be from 1 to 100" in str(e), e
    else:
        raise AssertionError("the bench took %s" % wrong)
