#!/usr/bin/python3
"""Lesson 06's speed check: OpenCV's medianBlur beside the lesson's fastest 3x3 median.

Times cv2.medianBlur on a 2048x2048 float32 image (3x3, two threads, median of --repeat runs
after a warm-up), then runs lesson 06 on a 2048x2048 float image and reads the kernel time
of each 3x3 variant from its results table (event-profiled, median of its --repeat runs).
Both run on the same CPU, taking turns for --rounds rounds; each side keeps its best round,
so a burst of other work on the machine does not decide the comparison.

usage: /usr/bin/python3 lessons/06_median_sorting_networks/compare_opencv.py [--build DIR]
       [--size N] [--repeat N] [--rounds N] [--threads N] [--device SPEC]
"""
import argparse
import os
import re
import subprocess
import sys
import time

try:
    import cv2
    import numpy as np
except ImportError:  # exit 2, as the course does for a missing package
    import sys
    print("lessons/06_median_sorting_networks/compare_opencv.py needs OpenCV for Python, which is not installed here: "
          "sudo apt-get install python3-opencv (Debian, Ubuntu)", file=sys.stderr)
    sys.exit(2)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def time_opencv(size, repeat, threads):
    cv2.setNumThreads(threads)
    # A median network does the same work whatever the values, so random data times it fairly.
    image = np.random.default_rng(1).uniform(0, 255, (size, size)).astype(np.float32)
    cv2.medianBlur(image, 3)  # warm-up: allocations, thread pool
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        cv2.medianBlur(image, 3)
        runs.append((time.perf_counter() - start) * 1e3)
    return float(np.median(runs))


def time_lesson(build, size, repeat, device):
    lesson = os.path.join(build, "lessons", "lesson_06")
    if not os.path.exists(lesson):
        sys.exit(f"compare_opencv: {lesson} is not built (./course setup, or --build DIR)")
    command = [lesson, "--size", f"{size}x{size}", "--window", "3", "--format", "float", "--repeat", str(repeat),
               "--output-dir", os.path.join(build, "compare-opencv")]
    if device:
        command += ["--device", device]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"compare_opencv: lesson 06 exited {done.returncode}:\n{done.stdout}{done.stderr}")
    rows = {}
    for line in done.stdout.splitlines():
        match = re.match(r"\s+(\w+) float\s+([0-9.]+)\s.*\byes$", line)
        if match:
            rows[match.group(1)] = float(match.group(2))
    if not rows:
        sys.exit("compare_opencv: found no verified row in the lesson's table:\n" + done.stdout)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.environ.get("COURSE_BUILD_DIR", os.path.join(ROOT, "build")))
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--device", default="")
    args = parser.parse_args()

    opencv_ms, rows = float("inf"), {}
    for _ in range(args.rounds):
        opencv_ms = min(opencv_ms, time_opencv(args.size, args.repeat, args.threads))
        for name, ms in time_lesson(args.build, args.size, args.repeat, args.device).items():
            rows[name] = min(rows.get(name, float("inf")), ms)
    best = min(rows, key=rows.get)
    print(f"3x3 median of a {args.size}x{args.size} float32 image: median of {args.repeat} runs, best of {args.rounds} rounds")
    print(f"  {'cv2.medianBlur (' + str(args.threads) + ' threads, OpenCV ' + cv2.__version__ + ')':<40} {opencv_ms:9.3f} ms")
    for name, ms in rows.items():
        print(f"  {'lesson 06 ' + name:<40} {ms:9.3f} ms  ({ms / opencv_ms:.2f}x OpenCV's time)")
    ratio = rows[best] / opencv_ms
    verdict = "within" if ratio <= 1.5 else "NOT within"
    print(f"fastest variant {best}: {ratio:.2f}x OpenCV's time, {verdict} the 1.5x target")
    return 0 if ratio <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
