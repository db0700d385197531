#!/usr/bin/env python3
"""Lesson 05's benchmark against OpenCV, side by side in one run.

Runs the lesson at 2048x2048, radius 8 (float, clamped borders) and times cv2.sepFilter2D on
an image of the same size (float32, BORDER_REPLICATE, 2 threads) before and after it, so both
see the same machine in the same minute. Prints both, the ratio of the fastest variant to
OpenCV, and the ladder from the naive 2D kernel to the fastest variant.

  /usr/bin/python3 lessons/05_unrolling_and_work_per_item/compare_opencv.py [--build DIR] [--device SPEC]
"""
import argparse, os, re, statistics, subprocess, sys, time

try:
    import cv2
    import numpy as np
except ImportError:  # exit 2, as the course does for a missing package
    import sys
    print("lessons/05_unrolling_and_work_per_item/compare_opencv.py needs OpenCV for Python, which is not installed here: "
          "sudo apt-get install python3-opencv (Debian, Ubuntu)", file=sys.stderr)
    sys.exit(2)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def time_opencv(size, radius, sigma, runs):
    image = (np.random.default_rng(5).random((size, size), dtype=np.float32) * 255).astype(np.float32)
    taps = cv2.getGaussianKernel(2 * radius + 1, sigma, cv2.CV_32F)
    blur = lambda: cv2.sepFilter2D(image, cv2.CV_32F, taps, taps, borderType=cv2.BORDER_REPLICATE)
    blur()  # warm-up, like the lesson's
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        blur()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.environ.get("COURSE_BUILD_DIR", os.path.join(ROOT, "build")),
                        help="the build folder holding lessons/lesson_05")
    parser.add_argument("--device", default="", help="passed to the lesson as --device")
    parser.add_argument("--repeat", type=int, default=9, help="timed runs of each side (medians)")
    args = parser.parse_args()
    size, radius, sigma = 2048, 8, 4.0
    cv2.setNumThreads(2)

    before = time_opencv(size, radius, sigma, args.repeat)
    command = [os.path.join(args.build, "lessons", "lesson_05"), "--size", f"{size}x{size}", "--radius", str(radius),
               "--sigma", str(sigma), "--repeat", str(args.repeat), "--output-dir", os.path.join(ROOT, "out", "05_compare")]
    if args.device:
        command += ["--device", args.device]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    after = time_opencv(size, radius, sigma, args.repeat)
    print(run.stdout, end="")
    if run.returncode != 0:
        print(run.stderr, end="", file=sys.stderr)
        sys.exit(run.returncode)

    # The lesson's table: "  name  kernel_ms  end_to_end_ms ..." with "yes" at the end.
    rows = {m.group(1): float(m.group(2)) for m in re.finditer(r"^  (\w+)\s+([0-9.]+)\s+[0-9.]+\s.*yes\s*$", run.stdout, re.M)}
    fastest = min(rows, key=rows.get)
    opencv = statistics.median([before, after])
    print(f"\nOpenCV {cv2.__version__} sepFilter2D, float32, BORDER_REPLICATE, {cv2.getNumThreads()} threads: "
          f"{before:.2f} ms before the lesson, {after:.2f} ms after (using {opencv:.2f} ms)")
    print(f"fastest variant {fastest}: {rows[fastest]:.2f} ms = {rows[fastest] / opencv:.2f}x OpenCV's time "
          f"(goal: at most 0.75x)")
    if "naive_2d" in rows:
        print(f"ladder: naive_2d {rows['naive_2d']:.1f} ms / {fastest} {rows[fastest]:.2f} ms = "
              f"{rows['naive_2d'] / rows[fastest]:.0f}x (goal: at least 50x)")
    sys.exit(0 if rows[fastest] <= 0.75 * opencv else 1)


if __name__ == "__main__":
    main()
