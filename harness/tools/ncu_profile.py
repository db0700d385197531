#!/usr/bin/env python3
"""ncu_profile.py: what NVIDIA's profiler counts in the course's own compiled kernels.

Nsight Compute (`ncu`) profiles CUDA kernels only, not OpenCL ones. But NVIDIA's OpenCL driver
compiles a kernel to PTX, which `COURSE_SAVE_BINARIES=DIR` keeps, and the CUDA driver loads the
same PTX: this tool launches it through CuPy on the same buffers' shapes and lets `ncu` count
what it executes (instructions, issue slots, warps resident, why warps wait). Each kernel is
verified against OpenCV's filter first and timed by CUDA events beside the OpenCL time, so a
profile is only kept for code that computes the right picture at the speed the lesson measured.
Two things in the PTX are stood in for, both values an OpenCL launch supplies and a CUDA launch
cannot: a `__constant` argument (an address in the constant bank) becomes the address of an array
in the module's constant memory, so the kernel's `ld.const` loads stay as compiled; the driver's
launch registers (%envreg) read the values of one launch of a 2D NDRange (ENVREG below). The
verification against OpenCV checks both stand-ins on every kernel profiled.

  ncu_profile.py profile --log SAVE.log --size 16384x16384 --out DIR [--kernel NAME ...]
      SAVE.log: the stderr of a lesson run with COURSE_SAVE_BINARIES (it names each PTX file and
      its build options). Writes DIR/NAME.json (time, error), DIR/NAME.ncu-rep (ncu's report) and
      DIR/NAME-raw.csv, DIR/NAME-details.csv (its pages as CSV).
  ncu_profile.py record DIR --command CMD --out FILE.json
      Writes a recorded run (data/runs/) from DIR: a row per kernel with the counts a page quotes.
"""
import argparse
import csv
import io
import json
import math
import os
import re
import statistics
import subprocess
import sys

# The kernels this tool knows: the saved program's file stem, the kernel's name, the build options
# that pick it among that file's builds, its pixels. How it is launched comes from its -D values.
KERNELS = {
    "single_pass_blocked": ("single_pass_blocked", "single_pass_blocked", lambda o: "PIXELS_" not in o, "f32"),
    "single_pass_blocked_u8": ("single_pass_blocked", "single_pass_blocked",
                               lambda o: "PIXELS_U8" in o and "MAGIC" not in o, "u8"),
    "single_pass_blocked_f16": ("single_pass_blocked", "single_pass_blocked",
                                lambda o: "PIXELS_F16" in o and "HALF_BITS" not in o, "f16"),
    "single_pass_halfbits_f16": ("single_pass_blocked", "single_pass_blocked",
                                 lambda o: "PIXELS_F16" in o and "HALF_BITS" in o, "f16"),
    "single_pass_magic_u8": ("single_pass_blocked", "single_pass_blocked",
                             lambda o: "PIXELS_U8" in o and "MAGIC" in o, "u8"),
    "single_pass_converted_u8": ("single_pass_converted", "single_pass_converted", lambda o: "PIXELS_U8" in o, "u8"),
    "blocked_2d": ("blocked_2d", "blocked_2d", lambda o: "WEIGHT_LIST" not in o, "f32"),
    "blocked_2d_literal": ("blocked_2d", "blocked_2d", lambda o: "WEIGHT_LIST" in o, "f32"),
    # The box filter's running sums (lesson 12): the scanned row passes and the chunked column pass.
    "running_rows_scan": ("running_sums", "running_rows_scan", lambda o: True, "f32"),
    "running_rows_prefetch": ("running_sums", "running_rows_prefetch", lambda o: True, "f32"),
    "running_columns_chunked": ("running_sums", "running_columns_chunked", lambda o: True, "f32"),
}
COMMON = lambda o: not any(x in o for x in ("COUNT_LIVE", "RESTRICT_POINTERS", "REQUIRED_GROUP", "POISON"))


def defines(options):
    return dict(re.findall(r"-D\s*(\w+)=([^\s]+)", options))


def find_ptx(log, name):
    """The PTX file and options of `name`'s build in a COURSE_SAVE_BINARIES log."""
    stem, _, wanted, _ = KERNELS[name]
    for line in open(log, errors="replace"):
        m = re.match(r"compiled code of (\S+) \(options: (.*)\) saved to (\S+\.ptx)", line.strip())
        if m and os.path.basename(m.group(1)).startswith(stem + ".") and wanted(m.group(2)) and COMMON(m.group(2)):
            return m.group(3), m.group(2)
    return None, None


def geometry(name, d, width, height):
    """(grid, block) as the lesson launches it: global sizes rounded up to whole groups."""
    up = lambda a, b: (a + b - 1) // b
    if name in ("running_rows_scan", "running_rows_prefetch"):  # a group of SCAN_GROUP work-items a row
        return (1, height, 1), (int(d["SCAN_GROUP"]), 1, 1)
    if name == "running_columns_chunked":  # 64 neighbouring columns a group, SEGMENT rows a work-item
        return (up(width, 64), up(height, int(d["SEGMENT"])), 1), (64, 1, 1)
    if name.startswith("blocked_2d"):
        group, items = (64, 1), (up(width, 4 * int(d["FLOAT4S"])), up(height, int(d["STRIP"])))
    else:
        group = (int(d["GROUP_W"]), int(d["GROUP_H"]))
        per_item = 8 if "converted" in name else 4
        items = (up(width, per_item), up(height, int(d["STRIP"])) * group[1])
    return (up(items[0], group[0]), up(items[1], group[1]), 1), (group[0], group[1], 1)


def weights_1d(radius):
    sigma = max(radius / 2.0, 0.5)
    w = [math.exp(-(k * k) / (2 * sigma * sigma)) for k in range(-radius, radius + 1)]
    return [v / sum(w) for v in w]


def constant_in_module(ptx):
    """OpenCL passes a `__constant` argument as an address in the constant bank, which a CUDA
    launch cannot give: the kernel instead takes the address of an array of the module's constant
    memory (filled by the host), so that its loads stay the same `ld.const`. Returns the PTX, that
    array's name and the argument's width in bits (None, 0 when the kernel has no such argument)."""
    m = re.search(r"\.param\s+\.(u32|u64)\s+\.ptr\s+\.const\s+(?:\.align\s+\d+\s+)?(\w+)", ptx)
    if not m:
        return ptx, None, 0
    name = "course_constant_argument"
    ptx = re.sub(r"(\.address_size\s+\d+\s*\n)", r"\1.const .align 16 .b8 " + name + "[8192];\n", ptx, count=1)
    ptx, n = re.subn(r"ld\.param\.(u32|u64|b32|b64)\s+(%\w+),\s*\[" + m.group(2) + r"\];",
                     lambda x: f"mov.u64 {x.group(2)}, {name};" if x.group(1)[1:] == "64" else
                     f"{{ .reg .b64 %course_c; mov.u64 %course_c, {name}; cvt.u32.u64 {x.group(2)}, %course_c; }}",
                     ptx)
    return ptx, (name if n else None), int(m.group(1)[1:])  # none: the kernel never reads it


# OpenCL's launch values that NVIDIA's PTX reads from driver registers, for a launch as the
# lessons make it, read from how the PTX uses them (NVIDIA documents no meaning): %envreg0-2 added
# to the group's id and 3-5 to the work-item's id, so offsets, 0 in one launch with no global
# offset; %envreg9 where get_work_dim() is called, 2. The verification against OpenCV's result
# checks the reading; any other register stops the tool.
ENVREG = {0: 0, 1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 9: 2}


def launch_registers(ptx):
    def value(m):
        if int(m.group(2)) not in ENVREG:
            raise SystemExit(f"the PTX reads %envreg{m.group(2)}, which this tool cannot stand in for")
        return f"mov.b32 {m.group(1)}, {ENVREG[int(m.group(2))]};"
    return re.sub(r"mov\.b32\s+(%\w+),\s*%envreg(\d+);", value, ptx)


def launch(args):
    """Loads the PTX, runs it on a random picture, verifies, times; prints one JSON line."""
    import cupy as cp
    import numpy as np
    import cv2

    width, height = map(int, args.size.split("x"))
    d = defines(args.options)
    radius = int(d.get("RADIUS", args.radius))  # the running sums take it as an argument
    patched, weights_symbol, bits = constant_in_module(launch_registers(open(args.ptx).read()))
    path = os.path.join(args.work, args.name + ".ptx")
    open(path, "w").write(patched)
    module = cp.RawModule(path=path)
    kernel = module.get_function(KERNELS[args.name][1])
    cp.random.seed(1)
    pixels = KERNELS[args.name][3]
    if pixels == "u8":
        src = cp.random.randint(0, 256, (height, width), dtype=cp.int32).astype(cp.uint8)
    else:
        src = cp.random.random((height, width), dtype=cp.float32).astype(cp.float16 if pixels == "f16" else cp.float32)
    w1 = np.array(weights_1d(radius), dtype=np.float32)
    box = args.name.startswith("running_")
    if box:  # the box filter's pass: a mean of 2R + 1 pixels along the row or down the column
        size = (2 * radius + 1, 1) if "rows" in args.name else (1, 2 * radius + 1)
        reference = lambda host: cv2.blur(host, size, borderType=cv2.BORDER_REPLICATE)
        weights = None
    elif args.name.startswith("blocked_2d"):
        listed = d.get("WEIGHT_LIST")
        w2 = (np.array([float(v.rstrip("f")) for v in listed.split(",")], dtype=np.float32).reshape(2 * radius + 1, -1)
              if listed else np.outer(w1, w1).astype(np.float32))
        weights = cp.asarray(w2.ravel())
        reference = lambda host: cv2.filter2D(host, cv2.CV_32F, w2, borderType=cv2.BORDER_REPLICATE)
    else:
        weights = cp.asarray(w1)
        reference = lambda host: cv2.sepFilter2D(host, cv2.CV_32F, w1, w1, borderType=cv2.BORDER_REPLICATE)
    dst = cp.zeros_like(src)
    if weights_symbol:  # the kernel reads them from the module's constant array, as OpenCL's bank
        cp.ndarray(weights.shape, cp.float32, module.get_global(weights_symbol)).set(cp.asnumpy(weights))
    if bits:  # the argument itself is no longer read
        weights = np.uint32(0) if bits == 32 else np.uint64(0)
    grid, block = geometry(args.name, d, width, height)
    arguments = ((src, dst, np.int32(width), np.int32(height), np.int32(radius)) if box else
                 (src, dst, weights, np.int32(width), np.int32(height)))
    call = lambda: kernel(grid, block, arguments)
    call()  # the warm-up (ncu --launch-skip 1 profiles the next launch)
    times = []
    for _ in range(args.repeat):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        call()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    limit = 1e-3 if box else {"u8": 1.0, "f16": 4e-3, "f32": 1e-4}[pixels]  # running sums drift
    if args.repeat < 2:  # under the profiler: the timed run has verified the same launch
        return 0
    out = cp.asnumpy(dst).astype(np.float32)
    error = float(np.max(np.abs(out - reference(cp.asnumpy(src).astype(np.float32)))))
    print(json.dumps({"kernel": args.name, "ms": statistics.median(times), "min_ms": min(times),
                      "max_ms": max(times), "runs": len(times), "max_error": error,
                      "verified": error <= limit, "grid": grid, "block": block,
                      "pixels": width * height, "options": args.options}))
    return 0 if error <= limit else 1


def profile(args):
    os.makedirs(args.out, exist_ok=True)
    failed = 0
    for name in args.kernel or list(KERNELS):
        ptx, options = find_ptx(args.log, name)
        if not ptx:
            print(f"{name}: no saved PTX in {args.log}, skipped")
            continue
        text = open(ptx).read()
        with open(os.path.join(args.out, "ptx-notes.txt"), "a") as notes:
            lines = [l for l in text.splitlines() if ".param" in l or "ld.const" in l or "envreg" in l]
            notes.write(f"== {name}: {ptx}\n" + "\n".join(lines[:24]) + "\n")
        me = [sys.executable, os.path.abspath(__file__), "launch", "--name", name, "--ptx", ptx, "--options", options,
              "--size", args.size, "--work", args.out, "--radius", str(args.radius)]
        timed = subprocess.run(me + ["--repeat", "5"], capture_output=True, text=True)
        print(timed.stdout.strip() or timed.stderr.strip()[-2000:])
        if timed.returncode != 0:
            failed += 1
            continue
        open(os.path.join(args.out, name + ".json"), "w").write(timed.stdout)
        rep = os.path.join(args.out, name)
        ncu = ["ncu", "--set", "full", "--clock-control", "none", "--launch-skip", "1", "--launch-count", "1",
               "-k", "regex:^" + KERNELS[name][1] + "$", "-f", "-o", rep] + me + ["--repeat", "1"]
        run = subprocess.run(ncu, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{name}: ncu failed:\n{(run.stdout + run.stderr)[-3000:]}")
            failed += 1
            continue
        for page in ("raw", "details"):
            text = subprocess.run(["ncu", "-i", rep + ".ncu-rep", "--csv", "--page", page, "--print-units", "base"],
                                  capture_output=True, text=True).stdout
            open(f"{rep}-{page}.csv", "w").write(text)
        print(f"{name}: profiled")
    return 1 if failed else 0


# What a row quotes: its printed name and ncu's raw metric.
QUOTED = [
    ("issue slots busy %", "smsp__issue_active.avg.pct_of_peak_sustained_active"),
    ("warps an SM", "sm__warps_active.avg.per_cycle_active"),
    ("eligible warps a scheduler", "smsp__warps_eligible.avg.per_cycle_active"),
    ("registers", "launch__registers_per_thread"),
    ("groups an SM by registers", "launch__occupancy_limit_registers"),
    ("groups an SM by local memory", "launch__occupancy_limit_shared_mem"),
    ("DRAM %", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"),
    ("FMA pipe %", "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active"),
    ("ALU pipe %", "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active"),
    ("LSU pipe %", "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active"),
    ("L2 hit %", "lts__t_sector_hit_rate.pct"),
]
# Why warps that could issue did not, in warps a scheduler per instruction issued.
STALLS = ["long_scoreboard", "short_scoreboard", "barrier", "wait", "not_selected", "math_pipe_throttle",
          "mio_throttle", "no_instruction", "dispatch_stall", "branch_resolving", "lg_throttle"]


def record(args):
    rows = []
    device = None
    for name in KERNELS:
        timing = os.path.join(args.dir, name + ".json")
        raw = os.path.join(args.dir, name + "-raw.csv")
        if not (os.path.exists(timing) and os.path.exists(raw)):
            continue
        t = json.loads(open(timing).read().strip().splitlines()[-1])
        table = list(csv.reader(io.StringIO(open(raw).read())))
        head = table[0]
        values = dict(zip(head, table[-1]))
        device = device or values.get("device__attribute_display_name", "NVIDIA GPU")
        num = lambda k: float(values[k].replace(",", "")) if values.get(k, "") not in ("", "n/a") else None
        printed = {"kernel": name}
        for label, metric in QUOTED:
            v = num(metric)
            if v is not None:
                printed[label] = f"{v:.3g}"
        ns, inst, busy = num("gpu__time_duration.sum"), num("smsp__inst_executed.sum"), num(QUOTED[0][1])
        printed["profiled ms"] = f"{ns / 1e6:.4g}"
        # Instructions a work-item executes for each output pixel (a warp's instruction is 32 lanes').
        printed["instructions an output"] = f"{inst * 32 / t['pixels']:.3g}"
        # Bytes read from and written to DRAM for each output pixel (a float pass that reads each
        # pixel once and writes it once moves 8).
        for label, metric in (("DRAM bytes read an output", "dram__bytes_read.sum"),
                              ("DRAM bytes written an output", "dram__bytes_write.sum")):
            v = num(metric)
            if v is not None:
                printed[label] = f"{v / t['pixels']:.3g}"
        # The kernel's time had every scheduler issued an instruction every cycle: the issue floor.
        printed["issue floor ms"] = f"{ns / 1e6 * busy / 100:.4g}"
        for reason in STALLS:
            v = num(f"smsp__average_warps_issue_stalled_{reason}_per_issue_active.ratio")
            if v is not None:
                printed["stalled " + reason.replace("_", " ")] = f"{v:.2f}"
        rows.append({"variant": name, "kernel_ms": t["ms"], "min_ms": t["min_ms"], "max_ms": t["max_ms"],
                     "runs": t["runs"], "end_to_end_ms": None, "bytes": 0, "flops": 0, "pixels": t["pixels"],
                     "max_error": t["max_error"], "verified": t["verified"], "baseline": "", "marks": "",
                     "copy": None, "roofline_ms": None, "bound": None, "local_loads": 0, "local_load_bytes": 4,
                     "local_floor_ms": 0, "printed": printed})
    if not rows:
        print(f"no profiled kernel in {args.dir}")
        return 1
    zero = {k: 0 for k in ("copy_gbps", "copy_median_gbps", "copy_slowest_gbps", "copy_runs", "copy_bytes", "copy_ms",
                           "fma_gflops", "local_float_gloads", "local_float4_gloads", "cache_bytes",
                           "reported_cache_bytes", "timer_ns")}
    zero["shortest_ms"] = 0.02
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    out = {"format": 1, "command": args.command, "commit": commit, "dirty": False,
           "date": args.date, "device": {"name": device, "platform": "CUDA (the OpenCL driver's PTX)",
                                         "type": "profile", "driver_version": args.driver,
                                         "profiler": args.profiler, "sm_clock_mhz": args.sm_clock,
                                         "memory_clock_mhz": args.memory_clock},
           "roofline": None,
           "tables": [{"title": f"Nsight Compute on the OpenCL kernels' PTX, {args.size}", "roofline": zero,
                       "copies": [],
                       "rows": rows}]}
    open(args.out, "w").write(json.dumps(out, indent=2) + "\n")
    print(f"wrote {args.out}: {len(rows)} kernels")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    a = sub.add_parser("profile")
    a.add_argument("--log", required=True)
    a.add_argument("--size", default="16384x16384")
    a.add_argument("--out", required=True)
    a.add_argument("--kernel", action="append", choices=list(KERNELS))
    a.add_argument("--radius", type=int, default=8, help="for kernels that take it as an argument")
    b = sub.add_parser("launch")
    for k in ("name", "ptx", "options", "size", "work"):
        b.add_argument("--" + k, required=True)
    b.add_argument("--repeat", type=int, default=5)
    b.add_argument("--radius", type=int, default=8)
    c = sub.add_parser("record")
    c.add_argument("dir")
    c.add_argument("--command", required=True)
    c.add_argument("--out", required=True)
    c.add_argument("--date", default="")
    c.add_argument("--driver", default="")
    c.add_argument("--profiler", default="")
    c.add_argument("--size", default="")
    c.add_argument("--sm-clock", type=int, default=0)
    c.add_argument("--memory-clock", type=int, default=0)
    args = p.parse_args()
    return {"profile": profile, "launch": launch, "record": record}[args.what](args)


if __name__ == "__main__":
    sys.exit(main())
