#!/usr/bin/env python3
"""bench_reads_tables.py LESSON_06: the bench reads every row of the results table a lesson prints,
names with spaces and lines printed after the table included, with the numbers the table shows."""
import importlib.util
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("course_bench", os.path.join(root, "bench", "course_bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

out = subprocess.run([sys.argv[1], "--size", "23x17", "--repeat", "1", "--output-dir", sys.argv[2]],
                     capture_output=True, text=True, check=True).stdout
rows = bench.parse_tables(out)
names = [r["variant"] for r in rows]
expected = [v + " " + f for f in ("float", "u8") for v in ("insertion_sort", "bitonic_sort", "network_3x3",
                                                            "shared_sorted_rows")]
assert names == expected, names
for r in rows:
    assert r["verified"] and r["kernel_ms"] > 0 and r["end_to_end_ms"] > 0 and r["copy_gbps"] > 0, r
    assert r["table"].startswith("Median 3x3, 23x17"), r["table"]
print("%d rows read: %s" % (len(rows), ", ".join(names)))
