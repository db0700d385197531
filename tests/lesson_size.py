#!/usr/bin/env python3
"""lesson_size.py ROOT [--common]: lesson 05 stays a lesson a student finishes in a sitting. Its host
code (lessons/05_*/ .cpp and .hpp, its exercise's check included) and its page keep to two thirds
of what they were when lesson 12 took the narrow pixels and the running sums out of it (1,495 lines
of host code in 16 files, a 973-line page).

With --common: common/ stays the small helper a student reads beside a lesson (device and program
setup, timing, images, errors, the results table): its .cpp and .hpp (common/filters/, a library of
its own, apart) keep to 2,200 lines; what a student need not read lives in harness/."""
import glob
import os
import sys

root = sys.argv[1]
if "--common" in sys.argv[2:]:
    limits = {"common/'s .cpp and .hpp": (glob.glob(os.path.join(root, "common", "*.[ch]pp")), 2200)}
else:
    limits = {"lesson 05's host code": (glob.glob(os.path.join(root, "lessons", "05_*", "*.[ch]pp")), 1495 * 2 // 3),
              "lesson 05's page": (glob.glob(os.path.join(root, "docs", "05_*.md")), 973 * 2 // 3)}
failed = False
for what, (files, limit) in limits.items():
    lines = sum(len(open(f, encoding="utf-8").read().splitlines()) for f in files)
    ok = 0 < lines <= limit
    failed |= not ok
    print(f"{what}: {lines} lines ({'within' if ok else 'over'} its {limit})")
sys.exit(1 if failed else 0)
