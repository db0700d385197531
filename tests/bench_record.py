#!/usr/bin/env python3
"""bench_record.py BUILD OUT: ./course bench --record FILE writes its tables as a recorded run, in
the format of the lessons' --record, so that a page quotes the bench's rows by name through
harness/site/expand_runs.py; a --record that cannot be written is refused before anything runs; and
--op multi records lesson 13's split with its speed-up and efficiency."""
import json
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build, out_dir = (os.path.abspath(a) for a in sys.argv[1:3])
os.makedirs(os.path.join(out_dir, "runs", "here"), exist_ok=True)
record = os.path.join(out_dir, "runs", "here", "bench-median.json")
if os.path.exists(record):
    os.remove(record)
env = dict(os.environ, COURSE_BUILD_DIR=build)
bench = [sys.executable, os.path.join(root, "bench", "course_bench.py")]

refused = subprocess.run(bench + ["--op", "median", "--record", os.path.join(out_dir, "no", "such", "x.json")],
                         capture_output=True, text=True, env=env)
assert refused.returncode == 2 and "--record takes a file" in refused.stderr, refused

run = subprocess.run(bench + ["--op", "median", "--window", "3", "--size", "23", "--repeat", "1", "--untuned",
                              "--chart-dir", out_dir, "--record", record],
                     capture_output=True, text=True, env=env, cwd=out_dir)
assert run.returncode == 0, run.stdout + run.stderr
with open(record, encoding="utf-8") as f:
    data = json.load(f)
assert data["command"].startswith("./course bench --op median"), data["command"]
assert data["device"].get("driver_version"), data["device"]  # the device as the lessons recorded it
(table,) = data["tables"]
assert table["title"] == "median (window 3)", table["title"]
assert table["roofline"]["copy_gbps"] > 0 and table["roofline"]["copy_pixels"] == "float", table["roofline"]
# The lessons' local load rates (local_load_peak.cl), for a page to quote beside the bench's rows:
# PoCL's timer times them (rusticl's may give such short kernels no time, and then no rate).
if data["device"].get("platform", "").startswith("Portable Computing Language"):
    assert table["roofline"].get("local_float4_gloads", 0) > 0, table["roofline"]
rows = {r["variant"]: r for r in table["rows"]}
row = rows["merged_columns u8"]
assert row["lesson"] == "06" and row["verified"] and row["marks"].endswith("+"), row  # 23x23: cached
assert row["printed"]["kernel ms"] == "%.3f" % row["kernel_ms"] + row["marks"], row  # printed with its marks
# The printed table shows the same cells.
assert any(line.split()[:3] == ["merged_columns", "u8", "06"] and row["printed"]["kernel ms"] in line.split()
           for line in run.stdout.splitlines()), run.stdout

# A page quotes it: a cached row only as marked, and its copy yardstick.
page = os.path.join(out_dir, "page.md")
with open(page, "w", encoding="utf-8") as f:
    f.write("merged {{here/bench-median: merged_columns u8 ms marked}} ms, copy "
            "{{here/bench-median: roofline copy GB/s}} GB/s\n")
expand = [sys.executable, os.path.join(root, "harness", "site", "expand_runs.py"), "--runs", os.path.join(out_dir, "runs")]
done = subprocess.run(expand + ["--out", os.path.join(out_dir, "site"), page], capture_output=True, text=True)
assert done.returncode == 0, done.stderr
with open(os.path.join(out_dir, "site", "page.md"), encoding="utf-8") as f:
    text = f.read()
assert "+ ms" in text and "%.1f GB/s" % table["roofline"]["copy_gbps"] in text, text
with open(page, "w", encoding="utf-8") as f:
    f.write("{{here/bench-median: merged_columns u8 ms}}\n")
refused = subprocess.run(expand + ["--check", page], capture_output=True, text=True)
assert refused.returncode != 0 and "marked" in refused.stderr, refused

# --op multi: lesson 13's split over its own choice of devices (the CPU in two here), its columns.
multi = os.path.join(out_dir, "runs", "here", "bench-multi.json")
run = subprocess.run(bench + ["--op", "multi", "--size", "37", "--repeat", "1", "--steps", "1", "--chart-dir", out_dir,
                              "--record", multi], capture_output=True, text=True, env=env, cwd=out_dir)
assert run.returncode == 0, run.stdout + run.stderr
with open(multi, encoding="utf-8") as f:
    (table,) = json.load(f)["tables"]
split = {r["variant"]: r for r in table["rows"]}
for name in ("even", "proportional", "1 steps, host halos"):
    assert split[name]["verified"] and split[name]["printed"]["speed-up"].rstrip("~").endswith("x"), split.get(name)
assert "speed-up" in run.stdout and "eff." in run.stdout, run.stdout
print("bench --record: %d rows recorded and quoted; --op multi: %d rows" % (len(rows), len(split)))
