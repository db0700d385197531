#!/usr/bin/env python3
"""bench_lessons_for.py BUILD: ./course bench runs each ladder with the lessons lessons.txt names
for it: the float blur with lessons 04 and 05, the 8-bit and half blur with lesson 12 alone (its
"sepconv:narrow" entry, all its narrow rungs), the box filter with lesson 12's float rungs. Prints
what differs; exit 1 on any."""
import os
import sys

os.environ["COURSE_BUILD_DIR"] = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench"))
import course_bench  # noqa: E402

expected = {
    ("sepconv", "f32"): [("04", None), ("05", None)],
    ("sepconv", "u8"): [("12", None)],
    ("sepconv", "f16"): [("12", None)],
    ("box", "f32"): [("12", "float4_passes,running_sums,running_sums_tiled,running_sums_scan,running_sums_prefetch,running_sums_ring")],
}
wrong = 0
for (op, pixel), lessons in expected.items():
    got = course_bench.lessons_for(op, pixel)
    if got != lessons:
        print("--op %s --type %s runs %s, not %s" % (op, pixel, got, lessons))
        wrong += 1
print("%d ladders run other lessons than lessons.txt names" % wrong)
sys.exit(1 if wrong else 0)
