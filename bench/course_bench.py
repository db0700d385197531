#!/usr/bin/env python3
"""./course bench: the performance ladder of every operation the course teaches.

Runs the lessons' own programs (the same kernels, not copies) on one device and image size,
reads the verified, event-profiled results they record (--record: their tables as data), times
well-known peers (OpenCV on the CPU and through its OpenCL path, CuPy on an NVIDIA GPU) on the
same data when they are installed, and prints a table per operation (or JSON lines with --json)
plus an SVG chart per device.

Where lesson 11 (autotuning) has stored a winner for the device, operation and size, the lessons
that know it (05, 06, 09) run it too, as a "tuned ..." row verified like the others; the bench passes
on their one line about it. --untuned runs the shipped parameters only.

On a machine shared with other work, --rounds N runs the lessons and the peers N times, taking
turns, and keeps each row's fastest round: a burst of load then slows one round of both sides, not
one side alone.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "harness"))
from cli.course import lessons_of  # noqa: E402  the one reader of lessons/lessons.txt
BUILD = os.environ.get("COURSE_BUILD_DIR", os.path.join(ROOT, "build"))



def read_operations():
    """Which lessons teach each operation, in ladder order, from lessons/lessons.txt: for each
    operation a list of (lesson, variants), variants None for all of the lesson's or the list
    after the operation's name ("conv2d:unrolled_2d,blocked_2d")."""
    ops = {}
    for lesson in lessons_of(ROOT):
        for entry in lesson.bench:
            op, _, variants = entry.partition(":")
            ops.setdefault(op, []).append((lesson.number, variants or None))
    return ops


OPS = read_operations()


class UsageError(Exception):
    pass


def lesson_binary(number):
    path = os.path.join(BUILD, "lessons", "lesson_" + number)
    return path if os.path.exists(path) else None


def lessons_for(op, pixel):
    """The (lesson, variants) that run OP for PIXEL ("f32", "u8" or "f16"), in ladder order: for
    narrow pixels only the lessons whose program takes --type; a lesson listed as "op:narrow" only
    for narrow pixels, with all its rungs for them."""
    chosen = []
    for number, variants in OPS.get(op, []):
        binary = lesson_binary(number)
        if pixel != "f32" and binary and not knows_option(binary, "--type"):
            continue  # its rungs store floats only
        if variants == "narrow":
            if pixel == "f32":
                continue
            variants = None
        chosen.append((number, variants))
    return chosen


def progress(message):
    print("bench: " + message, file=sys.stderr, flush=True)


def describe_device(spec):
    """The device the lessons will pick for SPEC, as (index, name, type)."""
    cmd = [os.path.join(BUILD, "bin", "course-devices")] + (["--device", spec] if spec else [])
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stdout + run.stderr)
        sys.exit(run.returncode)
    m = re.search(r"The course runs on \[(\d+)\] (.*) \((.*), (CPU|GPU|accelerator|other)\)", run.stdout)
    if not m:
        raise RuntimeError("cannot read the device list:\n" + run.stdout)
    return {"index": m.group(1), "name": m.group(2).strip(), "platform": m.group(3), "type": m.group(4)}


def read_record(path):
    """The rows of every results table in a lesson's record (`--record FILE`, harness/runs/record.cpp), and
    the copy yardstick its tables divide by. Each row's numbers come from the measured fields (kernel
    time, bytes, flops, pixels), not from the rounded cells the table printed."""
    with open(path, encoding="utf-8") as f:
        record = json.load(f)
    if record.get("device"):
        RECORDED_DEVICE.update(record["device"])
    rows, copies = [], []
    for table in record["tables"]:
        copy_gbps = (table.get("roofline") or {}).get("copy_gbps") or 0.0
        RECORDED_LOCAL.update({k: v for k, v in (table.get("roofline") or {}).items() if k in LOCAL_RATES and v})
        gflops = (table.get("roofline") or {}).get("fma_gflops") or 0.0
        # The copies the table's rows divide by, by the pixels they copy ("float", "8-bit", "half").
        own = {c["pixels"]: c for c in table.get("copies", [])}
        copies += table.get("copies", [])
        for r in table["rows"]:
            ms, nbytes, flops, pixels = r["kernel_ms"], r["bytes"] or 0, r["flops"] or 0, r["pixels"] or 0
            gbps = nbytes / (ms * 1e6) if ms and nbytes else None
            row_copy = own.get(r.get("copy"), {}).get("gbps") or 0
            rows.append({"table": table["title"], "variant": r["variant"], "kernel_ms": ms, "flops": flops or None,
                         "min_ms": r.get("min_ms"), "max_ms": r.get("max_ms"), "runs": r.get("runs"),
                         "end_to_end_ms": r["end_to_end_ms"], "wall_ms": r.get("wall_ms"), "mpix_s": pixels / (ms * 1e3) if ms else None,
                         "gbps": gbps, "pixels": pixels, "bytes": nbytes, "copy_gbps": copy_gbps,
                         "pct_of_copy": 100 * gbps / row_copy if gbps and row_copy else None,
                         "flop_per_byte": flops / nbytes if flops and nbytes else None,
                         "roofline_ms": r.get("roofline_ms"), "max_error": r["max_error"],
                         "verified": r["verified"], "marks": r["marks"], "printed": r.get("printed", {}),
                         **{k: r[k] for k in LOCAL_FIELDS if r.get(k)}})
    return rows, yardstick(copies)


RECORDED_DEVICE = {}  # the device as the lessons' records describe it (driver, clocks): for --record
# local_load_peak.cl's rates from the lessons' records, and a row's local loads, its local-load
# floor and the floor that bounds it, kept in the bench's record for the pages to quote.
LOCAL_RATES = ("local_float_gloads", "local_float4_gloads")
LOCAL_FIELDS = ("local_loads", "local_load_bytes", "local_floor_ms", "bound")
RECORDED_LOCAL = {}


def knows_option(binary, option):
    """Whether a lesson's program takes OPTION, from its --help."""
    run = subprocess.run([binary, "--help"], capture_output=True, text=True, cwd=ROOT)
    return re.search(r"^  %s\b" % re.escape(option), run.stdout, re.M) is not None


# The lines a lesson prints about lesson 11's cached winner: which ran, or why none did.
TUNING_LINE = re.compile(r"^(lesson 11's tuned winner|no tuned parameters|ignoring the (tuning cache|cached winner))")


def run_lesson(number, args, device, untuned=False, variants=None):
    """Runs lesson NUMBER on DEVICE (None: the devices ARGS name, --devices, or the lesson's own
    choice) and reads the rows it records."""
    binary = lesson_binary(number)
    if not binary:
        return None, "lesson %s is not built" % number
    cmd = [binary] + (["--device", device["index"]] if device else []) + args + (["--variant", variants] if variants else [])
    if untuned and knows_option(binary, "--untuned"):
        cmd.append("--untuned")
    start = time.time()
    # The lesson records its tables as data (--record): the bench reads them from there.
    with tempfile.TemporaryDirectory(prefix="course-bench-") as scratch:
        record = os.path.join(scratch, "lesson-%s.json" % number)
        run = subprocess.run(cmd + ["--record", record], capture_output=True, text=True, cwd=ROOT)
        rows, stick = read_record(record) if os.path.exists(record) else ([], None)
    for r in rows:
        r["yardstick"] = stick
    for line in run.stdout.splitlines():
        if TUNING_LINE.match(line):
            progress("lesson %s: %s" % (number, line))
    if run.returncode not in (0, 1):
        tail = (run.stdout + run.stderr).strip().splitlines()[-6:]
        return rows, "lesson %s exited %d: %s" % (number, run.returncode, " | ".join(tail))
    progress("lesson %s: %d results in %.1f s" % (number, len(rows), time.time() - start))
    return rows, None


def best_rounds(rounds):
    """The rows of several rounds as one table, in the first round's order: each row from its
    fastest round, and not verified if any round failed to verify it."""
    best, order = {}, []
    for rows in rounds:
        for r in rows:
            key = (r.get("lesson"), r["variant"])
            if key not in best:
                order.append(key)
                best[key] = dict(r)
                continue
            failed = best[key].get("verified") is False or r.get("verified") is False
            if r.get("kernel_ms") and (not best[key].get("kernel_ms") or r["kernel_ms"] < best[key]["kernel_ms"]):
                best[key] = dict(r)
            if failed:
                best[key]["verified"] = False
    return [best[key] for key in order]


# --- peers ----------------------------------------------------------------------------------
def timed(fn, repeat, finish=lambda: None):
    fn()
    finish()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        finish()
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples)


def gaussian_1d(radius, sigma):
    import numpy as np
    i = np.arange(-radius, radius + 1, dtype=np.float64)
    g = np.exp(-i * i / (2 * sigma * sigma))
    return (g / g.sum()).astype(np.float32)


def peer_rows(op, width, height, param, repeat, device, pixel="f32"):
    """Times the peers that are installed; returns rows shaped like the lessons' ones. With
    pixel "u8" the blur's peers filter 8-bit pictures into 8-bit results."""
    rows = []
    try:
        import numpy as np
        import cv2
    except ImportError:
        progress("OpenCV for Python is not installed: no CPU peers (Debian: python3-opencv)")
        return rows
    rng = np.random.default_rng(1)
    image = (rng.random((height, width), dtype=np.float32) * 255).astype(np.float32)
    threads = os.cpu_count() or 1
    cv2.setNumThreads(threads)
    pixels = float(width * height)
    calls = []
    if op == "sepconv" and pixel == "u8":
        image = image.round().astype(np.uint8)
        k = gaussian_1d(param, max(0.5, param / 2.0))
        calls.append(("OpenCV sepFilter2D 8-bit", 2 * 2 * pixels,
                      lambda src: cv2.sepFilter2D(src, cv2.CV_8U, k, k, borderType=cv2.BORDER_REPLICATE)))
    elif op == "sepconv" and pixel == "f32":
        k = gaussian_1d(param, max(0.5, param / 2.0))
        calls.append(("OpenCV sepFilter2D", 2 * 2 * 4 * pixels,
                      lambda src: cv2.sepFilter2D(src, cv2.CV_32F, k, k, borderType=cv2.BORDER_REPLICATE)))
    elif op == "conv2d":
        k = gaussian_1d(param, max(0.5, param / 2.0))
        k2 = np.outer(k, k).astype(np.float32)
        calls.append(("OpenCV filter2D", 2 * 4 * pixels,
                      lambda src: cv2.filter2D(src, cv2.CV_32F, k2, borderType=cv2.BORDER_REPLICATE)))
    elif op == "box":
        calls.append(("OpenCV blur", 2 * 2 * 4 * pixels,
                      lambda src: cv2.blur(src, (2 * param + 1, 2 * param + 1), borderType=cv2.BORDER_REPLICATE)))
    elif op == "median" and param in (3, 5):
        calls.append(("OpenCV medianBlur", 2 * 4 * pixels, lambda src: cv2.medianBlur(src, param)))
        # And on 8-bit levels, as the lesson's u8 rows filter them (OpenCV's own code for bytes).
        calls.append(("OpenCV medianBlur 8-bit", 2 * pixels, lambda src: cv2.medianBlur(src, param),
                      image.round().astype(np.uint8)))
    elif op == "warp":
        # The lesson warps RGBA8 pictures: so does the peer, with the same matrix.
        image = (rng.random((height, width, 4)) * 255).astype(np.uint8)
        if param == "homography":
            h = np.array([[0.9, 0.1, 20], [-0.1, 0.95, 30], [0.00002, 0.00001, 1]], dtype=np.float64)
            calls.append(("OpenCV warpPerspective", 2 * 4 * pixels,
                          lambda src: cv2.warpPerspective(src, h, (width, height),
                                                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                                          borderMode=cv2.BORDER_CONSTANT)))
        else:
            m = np.array([[0.9, 0.2, 10.0], [-0.15, 0.95, 20.0]], dtype=np.float64)
            calls.append(("OpenCV warpAffine", 2 * 4 * pixels,
                          lambda src: cv2.warpAffine(src, m, (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                                     borderMode=cv2.BORDER_CONSTANT)))
    for name, nbytes, fn, *own in calls:  # a call's own pixels after its function, else the image
        pixels_in = own[0] if own else image
        ms = timed(lambda: fn(pixels_in), repeat)
        rows.append({"variant": "%s (CPU, %d threads)" % (name, threads), "kernel_ms": ms, "bytes": nbytes,
                     "pixels": pixels, "peer": True, "max_error": None, "verified": None})
        if cv2.ocl.haveOpenCL():
            try:
                cv2.ocl.setUseOpenCL(True)
                src = cv2.UMat(pixels_in)
                ocl_name = cv2.ocl.Device.getDefault().name().strip() or "OpenCV's default OpenCL device"
                ms = timed(lambda: fn(src), repeat, cv2.ocl.finish)
                rows.append({"variant": "%s (OpenCL UMat on %s)" % (name, ocl_name.strip()), "kernel_ms": ms,
                             "bytes": nbytes, "pixels": pixels, "peer": True, "max_error": None, "verified": None})
            except Exception as e:  # the OpenCL path is optional: report and go on
                progress("OpenCV's OpenCL path failed for %s: %s" % (name, str(e).splitlines()[0]))
            finally:
                cv2.ocl.setUseOpenCL(False)
    if device["type"] == "GPU" and "NVIDIA" in (device["platform"] + device["name"]).upper():
        rows += cupy_rows(op, width, height, param, repeat, pixel)
    return rows


def cupy_rows(op, width, height, param, repeat, pixel="f32"):
    try:
        import cupy as cp
        import cupyx.scipy.ndimage as ndi
    except ImportError:
        return []
    image = cp.random.random((height, width), dtype=cp.float32) * 255
    pixels = float(width * height)
    start, end = cp.cuda.Event(), cp.cuda.Event()

    def gpu_ms(fn):
        fn()
        cp.cuda.Stream.null.synchronize()
        samples = []
        for _ in range(repeat):
            start.record()
            fn()
            end.record()
            end.synchronize()
            samples.append(cp.cuda.get_elapsed_time(start, end))
        return statistics.median(samples)

    rows = []
    if op == "sepconv" and pixel != "f32":
        # CuPy filters 8-bit and half pictures in their own type (its kernels compute in float).
        image = image.astype(cp.uint8 if pixel == "u8" else cp.float16)
        k = cp.asarray(gaussian_1d(param, max(0.5, param / 2.0)))
        ms = gpu_ms(lambda: ndi.convolve1d(ndi.convolve1d(image, k, axis=1, mode="nearest"), k, axis=0, mode="nearest"))
        rows.append({"variant": "CuPy ndimage.convolve1d x2 %s (GPU)" % pixel, "kernel_ms": ms,
                     "bytes": 4 * image.itemsize * pixels, "pixels": pixels, "peer": True, "max_error": None,
                     "verified": None})
    elif op == "sepconv":
        k = cp.asarray(gaussian_1d(param, max(0.5, param / 2.0)))
        ms = gpu_ms(lambda: ndi.convolve1d(ndi.convolve1d(image, k, axis=1, mode="nearest"), k, axis=0, mode="nearest"))
        rows.append({"variant": "CuPy ndimage.convolve1d x2 (GPU)", "kernel_ms": ms, "bytes": 4 * 4 * pixels,
                     "pixels": pixels, "peer": True, "max_error": None, "verified": None})
    elif op == "box":
        ms = gpu_ms(lambda: ndi.uniform_filter(image, size=2 * param + 1, mode="nearest"))
        rows.append({"variant": "CuPy ndimage.uniform_filter (GPU)", "kernel_ms": ms, "bytes": 4 * 4 * pixels,
                     "pixels": pixels, "peer": True, "max_error": None, "verified": None})
    elif op == "median":
        ms = gpu_ms(lambda: ndi.median_filter(image, size=param, mode="nearest"))
        rows.append({"variant": "CuPy ndimage.median_filter (GPU)", "kernel_ms": ms, "bytes": 2 * 4 * pixels,
                     "pixels": pixels, "peer": True, "max_error": None, "verified": None})
    return rows


# --- the copy yardstick, and CuPy's copy beside it -----------------------------------------
def yardstick(copies):
    """The copy a lesson's tables divide by, from the copies its record gives: the float copy where
    a table gives it, else the first copy given; None when none is."""
    found = [{"pixels": c["pixels"], "kernel": c["kernel"], "gbps": c["gbps"], "runs": c["runs"],
              "mib": c["buffer_bytes"] / 2 ** 20} for c in copies]
    return next((c for c in found if c["pixels"] == "float"), found[0] if found else None)


PEER_COPIES = {}  # bytes -> (GB/s, runs): CuPy's copy, measured once per size


def cupy_copy(nbytes, runs=10):
    """A device-to-device copy of NBYTES by CuPy (cudaMemcpyAsync), timed with CUDA events: the
    fastest of RUNS after a warm-up, as (GB/s of bytes read plus written, runs); None without
    CuPy."""
    try:
        import cupy as cp
    except ImportError:
        return None
    if nbytes not in PEER_COPIES:
        source, target = cp.empty(nbytes, dtype=cp.uint8), cp.empty(nbytes, dtype=cp.uint8)
        source.fill(1)
        start, end = cp.cuda.Event(), cp.cuda.Event()
        target.data.copy_from_device_async(source.data, nbytes)  # the warm-up
        cp.cuda.Stream.null.synchronize()
        samples = []
        for _ in range(runs):
            start.record()
            target.data.copy_from_device_async(source.data, nbytes)
            end.record()
            end.synchronize()
            samples.append(cp.cuda.get_elapsed_time(start, end))
        PEER_COPIES[nbytes] = (2 * nbytes / (min(samples) * 1e6), runs)
    return PEER_COPIES[nbytes]


def yardstick_lines(stick, device):
    """The lines under a bench table about the copy its "% of copy" divides by and, on an NVIDIA
    GPU where CuPy is installed, a peer's copy of the same bytes."""
    if not stick:
        return []
    lines = ["  yardstick: the lessons' %s copy (%s), %.1f GB/s," % (stick["pixels"], stick["kernel"], stick["gbps"]),
             "    the fastest of %d runs of 2 x %.1f MiB after a warm-up" % (stick["runs"], stick["mib"])]
    if device["type"] == "GPU" and "NVIDIA" in (device["platform"] + device["name"]).upper():
        peer = cupy_copy(int(stick["mib"] * 2 ** 20))
        if peer:
            lines += ["  peer: CuPy's device-to-device copy of the same 2 x %.1f MiB, %.1f GB/s," % (stick["mib"], peer[0]),
                      "    the fastest of %d runs (CUDA events): the yardstick is %.1f%% of it" % (
                          peer[1], 100 * stick["gbps"] / peer[0])]
    return lines


# --- output ---------------------------------------------------------------------------------
def fmt(v, digits=3):
    return "-" if v is None else ("%.*f" % (digits, v))


def pixel_bytes(row):
    """The bytes a row moves for each pixel (reads and writes): which pixels it filters."""
    return row["bytes"] / row["pixels"] if row.get("bytes") and row.get("pixels") else None


def table_cells(op, rows):
    """A bench table as its header and cells, as print_table prints them and --record keeps them;
    and the course's fastest verified kernel time, which 'vs best' divides (of the course's rows on
    the same pixels as the peer: 8-bit rows against an 8-bit peer, float against float). A course
    row's kernel time carries the lesson's marks (* too short to time, + held by the cache)."""
    head = ["variant", "lesson", "kernel ms", "MPix/s", "GB/s", "% of copy", "flop/B", "roofline ms", "max error",
            "verified", "vs best"]
    # A lesson's copy row (copy_u8: the speed limit of its pixels) filters nothing: never the best.
    course = [r for r in rows if not r.get("peer") and r.get("verified") and not r["variant"].startswith("copy_")]
    best = min((r["kernel_ms"] for r in course), default=None)
    best_of = {}  # the fastest course row's time, by the bytes a pixel it moves
    for r in course:
        best_of[pixel_bytes(r)] = min(best_of.get(pixel_bytes(r), r["kernel_ms"]), r["kernel_ms"])
    table = []
    if op == "multi":
        # Lesson 13's own columns: the split against the best device alone.
        head = ["variant", "lesson", "kernel ms", "wall ms", "speed-up", "eff.", "verified"]
        best = None
        for r in rows:
            cells = r.get("printed", {})
            table.append([r["variant"], r.get("lesson", "peer"), fmt(r["kernel_ms"]) + (r.get("marks") or ""),
                          cells.get("wall ms") or "-", cells.get("speed-up") or "-", cells.get("eff.") or "-",
                          "-" if r.get("verified") is None else ("yes" if r["verified"] else "NO")])
        return head, table, best
    if op == "transfer":
        # What a program with its frames in host memory waits for: upload, kernels and download,
        # from their events and on the host's clock.
        head = ["variant", "lesson", "kernel ms", "end-to-end ms", "wall ms", "frames/s", "MPix/s end to end",
                "verified"]
        best = None
        for r in rows:
            e2e = r.get("end_to_end_ms")
            table.append([r["variant"], r.get("lesson", "peer"), fmt(r["kernel_ms"]), fmt(e2e), fmt(r.get("wall_ms")),
                          fmt(1e3 / e2e if e2e else None, 1),
                          fmt(r["pixels"] / (e2e * 1e3) if e2e and r.get("pixels") else None, 1),
                          "-" if r.get("verified") is None else ("yes" if r["verified"] else "NO")])
    for r in rows if op != "transfer" else []:
        ratio = "-"
        same = best_of.get(pixel_bytes(r)) if len(best_of) > 1 else best
        if r.get("peer") and same:
            ratio = "%.2fx" % (same / r["kernel_ms"])  # < 1: the course's best is faster
        marks = "" if r.get("peer") else (r.get("marks") or "")
        table.append([r["variant"], r.get("lesson", "peer"), fmt(r["kernel_ms"]) + marks, fmt(r.get("mpix_s"), 1),
                      fmt(r.get("gbps"), 1), fmt(r.get("pct_of_copy"), 0), fmt(r.get("flop_per_byte"), 2),
                      fmt(r.get("roofline_ms"), 4),
                      "-" if r.get("max_error") is None else "%.2g" % r["max_error"],
                      "-" if r.get("verified") is None else ("yes" if r["verified"] else "NO"), ratio])
    return head, table, best


def print_table(op, rows, device, width, height, param_name, param):
    what = "" if param_name == "-" else ", %s %s" % (param_name, param)
    print("\n%s on %s, %dx%d%s" % (op, device["name"], width, height, what))
    head, table, best = table_cells(op, rows)
    if not table:
        print("  (no results)")
        return
    widths = [max([len(h)] + [len(t[i]) for t in table]) for i, h in enumerate(head)]
    line = lambda cells: "  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    print(line(head))
    print("  " + "-" * (sum(widths) + 2 * (len(widths) - 1)))
    for t in table:
        print(line(t))
    for note in table_notes(op, rows, best):
        print(textwrap.fill(note, 80, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False))


def table_notes(op, rows, best):
    """What a bench table's columns mean, under it (printed, and kept by --record)."""
    if op == "multi":
        return ["speed-up: the best single device's kernel time over the split's (its slowest device's); "
                "eff. = speed-up / devices; wall ms: the host's clock, first upload to the result gathered"]
    if op == "transfer":
        return ["'end-to-end ms' = one frame's upload + kernels + download, the sum of their event times "
                "(the stream rows: the stream's span / its frames); 'wall ms' = the same on the host's clock, "
                "the first enqueue to the finish (the stream rows: a whole run / its frames); "
                "frames/s = 1000 / end-to-end ms"]
    notes = []
    if any(r.get("roofline_ms") for r in rows):
        notes.append("'roofline ms' = the least time the row's bytes and operations allow on this device, "
                     "from the lesson's table")
    if best:
        notes.append("'vs best' = the course's fastest verified kernel time on the same pixels (8-bit against "
                     "8-bit, float against float) / the peer's time (below 1.00x: the course is faster)")
    if any(r.get("marks") for r in rows if not r.get("peer")):
        notes.append("kernel ms marked * is under the course's 100 timer ticks (too short to time), + moves no "
                     "more than the last-level cache taken for the device (it may time the cache): no conclusion rests on "
                     "them")
    return notes


def git_output(*args):
    run = subprocess.run(["git", "-C", ROOT] + list(args), capture_output=True, text=True)
    return run.stdout.strip() if run.returncode == 0 else ""


def write_record(path, argv, device, tables):
    """The bench's tables as a recorded run (the format of the lessons' --record, harness/runs/record.cpp),
    so that pages quote the peers and the ladders by name: {{h100/bench-box#3: OpenCV blur ... ms}}.
    TABLES: (op, title, rows, yardstick) for each table printed. Written whole or not at all."""
    commit = git_output("rev-parse", "HEAD") or "unknown"
    shown = []  # the command without where it wrote its files, as the lessons record theirs
    for i, arg in enumerate(argv):
        if arg in ("--record", "--chart-dir") or (i and argv[i - 1] in ("--record", "--chart-dir")) \
                or arg.startswith(("--record=", "--chart-dir=")):
            continue
        shown.append(arg)
    record = {"format": 1, "command": " ".join(["./course", "bench"] + shown), "commit": commit,
              "dirty": commit != "unknown" and bool(git_output("status", "--porcelain", "--untracked-files=no")),
              "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "device": dict(RECORDED_DEVICE) or {"name": device["name"], "platform": device["platform"],
                                                 "type": device["type"]},
              "tables": []}
    for op, title, rows, stick in tables:
        head, cells, best = table_cells(op, rows)
        roofline = {}
        if stick:
            roofline = {"copy_gbps": stick["gbps"], "copy_runs": stick["runs"],
                        "copy_bytes": int(stick["mib"] * 2 ** 20), "copy_pixels": stick["pixels"]}
            roofline.update(RECORDED_LOCAL)
            peer = PEER_COPIES.get(int(stick["mib"] * 2 ** 20))
            if peer:
                roofline["peer_copy_gbps"] = peer[0]
        out_rows = []
        for r, printed in zip(rows, cells):
            out_rows.append({"variant": r["variant"], "lesson": r.get("lesson", "peer"), "peer": bool(r.get("peer")),
                             "kernel_ms": r.get("kernel_ms"), "end_to_end_ms": r.get("end_to_end_ms"),
                             "wall_ms": r.get("wall_ms"),
                             "min_ms": r.get("min_ms"), "max_ms": r.get("max_ms"), "runs": r.get("runs"),
                             "bytes": r.get("bytes"), "flops": r.get("flops"), "pixels": r.get("pixels"),
                             "max_error": r.get("max_error"), "verified": r.get("verified"),
                             "marks": r.get("marks") or "", "printed": dict(zip(head, printed)),
                             **{k: r[k] for k in LOCAL_FIELDS if r.get(k)}})
        record["tables"].append({"title": title, "roofline": roofline, "rows": out_rows,
                                 "notes": table_notes(op, rows, best)})
    # The run's own roofline, as a lesson's: its first table's (each table keeps its own).
    record["roofline"] = next((t["roofline"] for t in record["tables"] if t["roofline"]), {})
    folder = os.path.dirname(os.path.abspath(path))  # it exists: parse_args checked
    with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, suffix=".tmp", encoding="utf-8") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    os.replace(f.name, path)


def write_chart(path, sections):
    """A horizontal bar chart of MPix/s per variant, one block per operation."""
    bar_h, gap, left, width = 18, 6, 360, 420
    lines = []
    y = 30
    for title, rows in sections:
        lines.append('<text x="10" y="%d" font-weight="bold">%s</text>' % (y, title))
        y += 10
        top = max([r.get("mpix_s") or 0 for r in rows] + [1])
        for r in rows:
            v = r.get("mpix_s") or 0
            w = max(1, int(width * v / top))
            color = "#999" if r.get("peer") else ("#2a7" if r.get("verified") else "#c33")
            label = r["variant"] if len(r["variant"]) < 52 else r["variant"][:50] + "..."
            lines.append('<text x="%d" y="%d" text-anchor="end" font-size="12">%s</text>' % (left - 6, y + 13, esc(label)))
            lines.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>' % (left, y, w, bar_h, color))
            lines.append('<text x="%d" y="%d" font-size="11">%.0f MPix/s</text>' % (left + w + 4, y + 13, v))
            y += bar_h + gap
        y += 20
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">' % (left + width + 120, y),
           '<rect width="100%" height="100%" fill="white"/>'] + lines + ["</svg>"]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(svg) + "\n")
    os.replace(tmp, path)


def write_sweep_chart(path, title, rows):
    """Kernel time against radius, both axes logarithmic, one line per variant: a flat line is a
    cost that does not grow with the radius."""
    import math
    left, top, w, h = 80, 50, 560, 300
    radii = sorted({r["radius"] for r in rows})
    lines = {}
    for r in rows:
        if r.get("kernel_ms") and (r.get("peer") or r.get("verified")):
            name = r["variant"] if r.get("peer") else "%s (lesson %s)" % (r["variant"], r["lesson"])
            lines.setdefault((bool(r.get("peer")), name), []).append((r["radius"], r["kernel_ms"]))
    times = [ms for pts in lines.values() for _, ms in pts] or [1.0]
    low, high = math.floor(math.log10(min(times))), math.ceil(math.log10(max(times)))
    high = max(high, low + 1)
    first = math.log2(max(1, min(radii)))
    span = math.log2(max(max(radii), 2)) - first
    x_of = lambda radius: left + w * (math.log2(max(radius, 1)) - first) / span
    y_of = lambda ms: top + h - h * (math.log10(ms) - low) / (high - low)
    out = ['<text x="10" y="24" font-weight="bold">%s</text>' % esc(title),
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (left, top + h, left + w, top + h),
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (left, top, left, top + h),
           '<text x="%d" y="%d" text-anchor="middle" font-size="12">radius R (2R+1 taps a pass)</text>'
           % (left + w / 2, top + h + 36)]
    for radius in radii:
        out.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="11">%d</text>' % (x_of(radius), top + h + 16, radius))
    for e in range(low, high + 1):
        out.append('<text x="%d" y="%.1f" text-anchor="end" font-size="11">%g ms</text>' % (left - 6, y_of(10 ** e) + 4, 10 ** e))
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (left, y_of(10 ** e), left + w, y_of(10 ** e)))
    colors = ["#2a7", "#c33", "#36c", "#c80", "#999", "#777", "#bbb"]
    for i, ((peer, name), pts) in enumerate(sorted(lines.items())):  # the lessons' lines first
        pts.sort()
        color = colors[i % len(colors)]
        dash = ' stroke-dasharray="5,4"' if peer else ""
        out.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>'
                   % (color, dash, " ".join("%.1f,%.1f" % (x_of(x), y_of(y)) for x, y in pts)))
        for x, y in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (x_of(x), y_of(y), color))
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>'
                   % (left + w + 20, top + 20 * i + 6, left + w + 40, top + 20 * i + 6, color, dash))
        out.append('<text x="%d" y="%d" font-size="12">%s</text>' % (left + w + 46, top + 20 * i + 10, esc(name)))
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">'
           % (left + w + 440, top + h + 60), '<rect width="100%" height="100%" fill="white"/>'] + out + ["</svg>"]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(svg) + "\n")
    os.replace(path + ".tmp", path)


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slug(s):
    return re.sub(r"[^A-Za-z0-9]+", "-", s).strip("-").lower()[:60]


# --- main -----------------------------------------------------------------------------------
def parse_args(argv):
    p = argparse.ArgumentParser(prog="./course bench", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="examples:\n  ./course bench --op sepconv --size 2048\n"
                                       "  ./course bench --op sepconv --type u8,f16   # 8-bit and half pixels\n"
                                       "  ./course bench --op box --radius 1,4,16,64  # running sums against the direct passes\n"
                                       "  ./course bench --op median --untuned   # without lesson 11's winners\n"
                                       "  ./course bench --op multi --size 16384   # every GPU, or the CPU in two\n"
                                       "  ./course bench --device nvidia --json > results.jsonl\n"
                                       "  ./course bench --op box --record data/runs/h100/bench-box.json")
    p.add_argument("--device", default=os.environ.get("COURSE_DEVICE", ""), help="device SPEC, as for the lessons")
    p.add_argument("--op", default="all", help="%s, several separated by commas, or all (default all)"
                                               % ", ".join(OPS))
    p.add_argument("--size", type=int, help="square image side (default: 8192 on a GPU, 2048 otherwise)")
    p.add_argument("--width", type=int)
    p.add_argument("--height", type=int)
    p.add_argument("--radius", help="filter radii, comma-separated: conv2d and sepconv 0 to 16 (default 8), "
                                    "the box sweep 0 to 64 (default 1,2,4,8,16,32,64)")
    p.add_argument("--window", default="3,5", help="median windows, comma-separated (default 3,5)")
    p.add_argument("--type", default="f32",
                   help="pixels of the sepconv ladder, comma-separated: f32 (every rung), u8 or f16 (the lessons' "
                        "rungs that store 8-bit levels or halves, with the copy of the same pixels) (default f32)")
    p.add_argument("--devices", metavar="SPEC,SPEC",
                   help="the devices --op multi splits over, each as --device takes it (default: every GPU when "
                        "there are two or more, else the CPU cut in two)")
    p.add_argument("--steps", type=int, default=10,
                   help="--op multi: steps of the iterated blur, halos exchanged between them (default 10)")
    p.add_argument("--repeat", type=int, default=5, help="timed runs per variant, median reported (default 5)")
    p.add_argument("--rounds", type=int, default=1,
                   help="run the lessons and the peers this many times, taking turns, and keep each row's "
                        "fastest round (default 1)")
    p.add_argument("--untuned", action="store_true",
                   help="the lessons' shipped parameters only, without lesson 11's cached winners")
    p.add_argument("--json", action="store_true", help="print one JSON object per result instead of tables")
    p.add_argument("--record", metavar="FILE",
                   help="also write the tables to FILE as JSON, with the command, commit, date and device, "
                        "as the lessons' --record does (pages quote such runs: data/runs/)")
    p.add_argument("--chart-dir", default=os.path.join("out", "bench"), help="where the SVG chart goes")
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        sys.exit(0 if e.code == 0 else 2)
    ops = list(OPS) if args.op == "all" else args.op.split(",")
    for op in ops:
        if op not in OPS:
            raise UsageError("--op takes %s (several separated by commas) or all, not '%s'" % (", ".join(OPS), op))
    if args.record and (os.path.isdir(args.record) or not os.path.isdir(os.path.dirname(os.path.abspath(args.record)))):
        raise UsageError("--record takes a file in a folder that exists, not '%s'" % args.record)
    args.types = args.type.split(",")
    if any(t not in ("f32", "u8", "f16") for t in args.types):
        raise UsageError("--type takes f32, u8 or f16, several separated by commas, not '%s'" % args.type)
    try:
        args.radii = [int(r) for r in args.radius.split(",")] if args.radius else None
    except ValueError:
        raise UsageError("--radius takes whole numbers separated by commas, like 1,2,4")
    if args.radii and any(not 0 <= r <= (64 if ops == ["box"] else 16) for r in args.radii):
        raise UsageError("--radius must be from 0 to 16 (from 0 to 64 with --op box alone)")
    if not 1 <= args.repeat <= 1000:
        raise UsageError("--repeat must be from 1 to 1000")
    if not 0 <= args.steps <= 1000:
        raise UsageError("--steps must be from 0 to 1000")
    if not 1 <= args.rounds <= 100:
        raise UsageError("--rounds must be from 1 to 100")
    try:
        windows = [int(w) for w in args.window.split(",")]
    except ValueError:
        raise UsageError("--window takes odd numbers separated by commas, like 3,5")
    if any(w < 3 or w % 2 == 0 or w > 15 for w in windows):
        raise UsageError("--window sizes must be odd, from 3 to 15")
    for name in ("size", "width", "height"):
        v = getattr(args, name)
        if v is not None and not 1 <= v <= 16384:
            raise UsageError("--%s must be from 1 to 16384" % name)
    return args, ops, windows


def main(argv):
    try:
        args, ops, windows = parse_args(argv)
    except UsageError as e:
        print("error: " + str(e), file=sys.stderr)
        return 2
    device = describe_device(args.device)
    default = 8192 if device["type"] == "GPU" else 2048
    width = args.width or args.size or default
    height = args.height or args.size or default
    if device["type"] == "GPU" and width * height * 4 < 64 * 2 ** 20:
        progress("warning: a %dx%d float image (%.0f MB) fits in a large GPU's last-level cache (50 MB on an H100): "
                 "the figures then measure the cache, not memory; use --size 8192 (4096 at least)"
                 % (width, height, width * height * 4 / 1e6))
    all_rows, sections, problems, recorded = [], [], [], []
    common = ["--size", "%dx%d" % (width, height), "--repeat", str(args.repeat),
              "--output-dir", os.path.join(tempfile.gettempdir(), "course-bench-out")]
    plan = []
    for op in ops:
        if op == "median":
            plan += [(op, "window", w, ["--window", str(w)]) for w in windows]
        elif op == "sepconv":
            plan += [(op, "radius", r, ["--radius", str(r), "--filter", "gaussian"] + (["--type", t] if t != "f32" else []))
                     for t in args.types for r in args.radii or [8]]
        elif op == "conv2d":
            plan += [(op, "radius", r, ["--radius", str(r), "--filter", "gaussian"]) for r in args.radii or [8]]
        elif op == "box":
            # The running sums against the direct passes: where the change of algorithm wins.
            plan += [(op, "radius", r, ["--radius", str(r), "--filter", "box"])
                     for r in args.radii or [1, 2, 4, 8, 16, 32, 64]]
        elif op == "multi":
            # One filter split over several devices (lesson 13): its own choice of devices (every GPU
            # when there are two or more, else the CPU in two) unless --devices names them.
            plan.append((op, "-", "-", ["--steps", str(args.steps)] + (["--devices", args.devices] if args.devices else [])))
        elif op == "warp":
            # An explicit matrix makes lesson 09 warp the image at the requested size (its
            # default run uses the 2010 thesis's (docs/references.md) small image sizes).
            plan.append((op, "map", "affine", ["--affine", "0.9,0.2,10,-0.15,0.95,20"]))
            plan.append((op, "map", "homography", ["--homography", "0.9,0.1,20,-0.1,0.95,30,0.00002,0.00001,1"]))
        else:
            plan.append((op, "-", "-", []))
    for op, pname, pvalue, extra in plan:
        pixel = extra[extra.index("--type") + 1] if "--type" in extra else "f32"
        narrow = pixel != "f32"
        rounds = []
        for round_number in range(1, args.rounds + 1):
            if args.rounds > 1:
                progress("%s: round %d of %d" % (op, round_number, args.rounds))
            rows = []
            for number, variants in lessons_for(op, pixel):
                progress("%s: lesson %s on %s, %dx%d ..." % (op, number, device["name"], width, height))
                got, problem = run_lesson(number, common + extra, None if op == "multi" else device, args.untuned,
                                          variants)
                if problem:
                    problems.append(problem)
                    progress(problem)
                for r in got or []:
                    r["lesson"] = number
                    rows.append(r)
            if op in ("conv2d", "sepconv", "median", "warp", "box"):
                progress("%s: peers ..." % op)
                peers = peer_rows(op, width, height, pvalue, args.repeat, device, pixel)
                copy = next((r["copy_gbps"] for r in rows if r.get("copy_gbps")), 0)
                for r in peers:
                    r["mpix_s"] = r["pixels"] / (r["kernel_ms"] * 1e3)
                    r["gbps"] = r["bytes"] / (r["kernel_ms"] * 1e6)
                    r["copy_gbps"] = copy
                    r["pct_of_copy"] = 100 * r["gbps"] / copy if copy else None
                rows += peers
            rounds.append(rows)
        rows = best_rounds(rounds)
        for r in rows:
            r.update({"op": op, "device": device["name"], "width": width, "height": height})
            if pname != "-":
                r[pname] = pvalue
        all_rows += rows
        label = op + (" " + pixel if narrow else "")
        if narrow:
            for r in rows:
                r["type"] = pixel
        title = label if pname == "-" else "%s (%s %s)" % (label, pname, pvalue)
        sections.append((title, rows))
        stick = next((r["yardstick"] for r in rows if r.get("yardstick")), None)
        recorded.append((op, title, rows, stick))
        if args.json:
            for r in rows:
                print(json.dumps(r))
        else:
            print_table(label, rows, device, width, height, pname, pvalue)
            for line in yardstick_lines(stick, device):
                print(line)
    chart = os.path.join(args.chart_dir, "%s-%s-%dx%d.svg" % (slug(device["name"]), slug(args.op), width, height))
    write_chart(chart, sections)
    box = [r for r in all_rows if r["op"] == "box"]
    if len({r["radius"] for r in box}) > 1:
        sweep = os.path.join(args.chart_dir, "%s-box-sweep-%dx%d.svg" % (slug(device["name"]), width, height))
        write_sweep_chart(sweep, "Box filter on %s, %dx%d: kernel time against radius" % (device["name"], width, height),
                          box)
        progress("box sweep chart written to " + sweep)
    progress("chart written to " + chart)
    for p in problems:
        progress("problem: " + p)
    if args.record:
        write_record(args.record, argv, device, recorded)
        progress("tables recorded in " + args.record)
    unverified = [r for r in all_rows if r.get("verified") is False]
    if unverified:
        progress("%d results did not verify" % len(unverified))
    return 1 if unverified or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
