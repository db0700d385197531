#!/usr/bin/env python3
"""bench_reads_record.py: the bench reads a lesson's record (bench_record_fixture.json, as
`--record FILE` writes it): each row's numbers from its measured fields, each "% of copy" divided
by the copy of the row's own pixels (an 8-bit row by the 8-bit copy), nothing made up for a table
without a copy, the float copy as the yardstick wherever a table gives it, and a row's local-load
floor and the lesson's local load rates kept; the transfer table shows each row's wall time beside
its events' time ("-" for a row that measured none)."""
import importlib.util
import math
import os

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("course_bench", os.path.join(os.path.dirname(here), "bench",
                                                                           "course_bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

rows, stick = bench.read_record(os.path.join(here, "bench_record_fixture.json"))
by_name = {r["variant"]: r for r in rows}
assert [r["variant"] for r in rows] == ["network float", "network u8", "image sampler"], rows


def near(a, b):
    return a is not None and math.isclose(a, b, rel_tol=1e-12)


f = by_name["network float"]
assert f["table"] == "Median 3x3, 500x500" and f["verified"] is True and f["marks"] == "+", f
assert near(f["kernel_ms"], 0.5) and near(f["end_to_end_ms"], 0.7) and near(f["wall_ms"], 0.8), f
assert near(f["gbps"], 2.0) and near(f["mpix_s"], 500.0) and near(f["pct_of_copy"], 10.0), f
assert near(f["flop_per_byte"], 4.0) and near(f["roofline_ms"], 0.05) and f["max_error"] == 0, f
assert f["bytes"] == 1000000 and f["pixels"] == 250000 and f["copy_gbps"] == 20, f
# Its local loads, local-load floor and bound, and the lesson's local load rates, kept for --record.
assert f["local_loads"] == 125000 and near(f["local_floor_ms"], 0.025) and f["bound"] == "memory", f
assert bench.RECORDED_LOCAL == {"local_float_gloads": 5, "local_float4_gloads": 1}, bench.RECORDED_LOCAL

u8 = by_name["network u8"]
assert near(u8["gbps"], 2.0) and near(u8["pct_of_copy"], 20.0), u8  # of the 8-bit copy's 10 GB/s
assert u8["flop_per_byte"] is None and u8["max_error"] is None and u8["end_to_end_ms"] is None, u8
assert u8["wall_ms"] is None, u8  # a record without the field: not measured
assert u8["verified"] is False and u8["marks"] == "", u8

alone = by_name["image sampler"]  # a table without a copy: no GB/s, % of copy or roofline
assert alone["gbps"] is None and alone["pct_of_copy"] is None and alone["roofline_ms"] is None, alone
assert alone["copy_gbps"] == 0 and near(alone["mpix_s"], 125.0) and alone["marks"] == "*", alone

# The transfer table: the wall time beside the events' end-to-end time, "-" where none was measured.
head, cells, _ = bench.table_cells("transfer", rows)
shown = {c[0]: dict(zip(head, c)) for c in cells}
assert head.index("wall ms") == head.index("end-to-end ms") + 1, head
assert shown["network float"]["wall ms"] == "0.800" and shown["network u8"]["wall ms"] == "-", shown

assert stick == {"pixels": "float", "kernel": "copy_float4", "gbps": 20, "runs": 5, "mib": 2.0}, stick
print("%d rows read; yardstick %s" % (len(rows), stick))

# The yardstick is the float copy wherever one is given, else the first copy; none without copies.
half = {"pixels": "half", "kernel": "copy_ushort8", "gbps": 7, "runs": 3, "buffer_bytes": 2 ** 20}
float_copy = dict(half, pixels="float", kernel="copy_float4", gbps=9)
assert bench.yardstick([half, float_copy])["kernel"] == "copy_float4"
assert bench.yardstick([half]) == {"pixels": "half", "kernel": "copy_ushort8", "gbps": 7, "runs": 3, "mib": 1.0}
assert bench.yardstick([]) is None
print("the float copy is the yardstick where a table gives it")

# 'vs best' compares like with like: an 8-bit peer with the course's fastest 8-bit row, a float
# peer with its fastest float row, even where an 8-bit row is the fastest of all; course rows
# carry their marks.
course_rows = [dict(variant="median float", kernel_ms=2.0, verified=True, bytes=8e6, pixels=1e6, marks="+"),
               dict(variant="median u8", kernel_ms=1.0, verified=True, bytes=2e6, pixels=1e6, marks="*+")]
peers = [dict(variant="peer float", peer=True, kernel_ms=4.0, bytes=8e6, pixels=1e6),
         dict(variant="peer 8-bit", peer=True, kernel_ms=4.0, bytes=2e6, pixels=1e6)]
head, cells, _ = bench.table_cells("median", course_rows + peers)
shown = {c[0]: dict(zip(head, c)) for c in cells}
assert shown["peer float"]["vs best"] == "0.50x" and shown["peer 8-bit"]["vs best"] == "0.25x", shown
assert shown["median u8"]["kernel ms"] == "1.000*+" and shown["peer float"]["kernel ms"] == "4.000", shown
print("'vs best' divides by the course's row on the same pixels")
