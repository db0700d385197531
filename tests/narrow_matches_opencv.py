#!/usr/bin/env python3
"""Lesson 12's 8-bit blur against OpenCV's: narrow_matches_opencv.py LESSON_12 OUT_DIR

Writes a random 8-bit gray picture of an odd width, runs lesson 12 with --type u8 on it at
several radii, and compares each 8-bit rung's picture with cv2.sepFilter2D(..., CV_8U, ...,
BORDER_REPLICATE) of the same picture and weights: no pixel may differ by more than one level.
Exits 77 (skipped) when python3-opencv is not installed."""
import os
import subprocess
import sys

try:
    import cv2
    import numpy as np
except ImportError:
    print("skipped: python3-opencv is not installed (Debian: apt-get install python3-opencv)")
    sys.exit(77)

lesson, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(31)
# Noise with some smooth structure, so both bright and dark levels and every rounding case occur.
picture = (rng.random((67, 211)) * 160 + np.linspace(0, 95, 211)[None, :]).round().astype(np.uint8)
source = os.path.join(out, "noise.png")
cv2.imwrite(source, picture)
failed = False
for radius in (1, 4, 8, 16):
    sigma = max(0.5, radius / 2.0)
    folder = os.path.join(out, "r%d" % radius)
    run = subprocess.run([lesson, "--type", "u8", "--input", source, "--radius", str(radius), "--sigma", str(sigma),
                          "--filter", "gaussian", "--repeat", "1", "--output-dir", folder],
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        sys.exit(1)
    i = np.arange(-radius, radius + 1, dtype=np.float64)
    k = np.exp(-i * i / (2 * sigma * sigma))
    k = (k / k.sum()).astype(np.float32)
    expected = cv2.sepFilter2D(picture, cv2.CV_8U, k, k, borderType=cv2.BORDER_REPLICATE).astype(int)
    for rung in ("float4_passes_u8", "single_pass_blocked_u8"):
        got = cv2.imread(os.path.join(folder, rung + ".png"), cv2.IMREAD_GRAYSCALE).astype(int)
        diff = np.abs(got - expected)
        y, x = np.unravel_index(np.argmax(diff), diff.shape)
        print("radius %2d, %-24s max difference from OpenCV %d level(s), %d pixels differ (worst at x=%d y=%d: "
              "%d against %d)" % (radius, rung, diff.max(), np.count_nonzero(diff), x, y, got[y, x], expected[y, x]))
        failed = failed or diff.max() > 1
sys.exit(1 if failed else 0)
