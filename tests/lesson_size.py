#!/usr/bin/env python3
"""lesson_size.py ROOT: lesson 05 stays a lesson a student finishes in a sitting. Its host code
(lessons/05_*/ .cpp and .hpp, its exercise's check included) and its page keep to two thirds of
what they were when lesson 12 took the narrow pixels and the running sums out of it (1,495 lines
of host code in 16 files, a 973-line page)."""
import glob
import os
import sys

root = sys.argv[1]
limits = {"host code": (glob.glob(os.path.join(root, "lessons", "05_*", "*.[ch]pp")), 1495 * 2 // 3),
          "page": (glob.glob(os.path.join(root, "docs", "05_*.md")), 973 * 2 // 3)}
failed = False
for what, (files, limit) in limits.items():
    lines = sum(len(open(f, encoding="utf-8").read().splitlines()) for f in files)
    ok = 0 < lines <= limit
    failed |= not ok
    print(f"lesson 05's {what}: {lines} lines ({'within' if ok else 'over'} its {limit})")
sys.exit(1 if failed else 0)
