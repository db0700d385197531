#!/usr/bin/env python3
"""bench_peer_copy.py LESSON_06 OUT: the bench reads the copy yardstick from a lesson's record
(the copies its tables divide by), prints it under its own tables, and beside it, on an NVIDIA GPU where CuPy
imports, CuPy's device-to-device copy of the same bytes, the fastest of its runs; where CuPy does
not import, or the device is another, nothing about a peer; and OpenCV's median of floats and of
8-bit pixels, where OpenCV imports."""
import importlib.util
import json
import os
import subprocess
import sys
import types

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("course_bench", os.path.join(root, "bench", "course_bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
lesson06, out_dir = sys.argv[1:3]

# The yardstick of a real run: lesson 06's float and 8-bit rows, each group with its own copy.
env = dict(os.environ, COURSE_TABLE="full", COURSE_COPY_MIB="2")
record = os.path.join(out_dir, "06.json")
out = subprocess.run([lesson06, "--size", "23x17", "--repeat", "1", "--untuned", "--output-dir", out_dir,
                      "--record", record], capture_output=True, text=True, check=True, env=env).stdout
rows, stick = bench.read_record(record)
assert stick and stick["pixels"] == "float" and stick["kernel"] == "copy_float4", (stick, out)
assert stick["gbps"] > 0 and stick["mib"] == 2.0 and 3 <= stick["runs"] <= 10, stick
joined = " ".join(out.split())
assert "of the float copy (copy.cl's copy_float4), %.1f GB/s" % stick["gbps"] in joined, out
assert "% of copy of insertion_sort u8, " in joined, out
# The 8-bit rows divide by the 8-bit copy the table names, the float rows by the float copy.
with open(record, encoding="utf-8") as f:
    copies = {c["pixels"]: c for t in json.load(f)["tables"] for c in t["copies"]}
assert copies["8-bit"]["kernel"] == "copy_uchar16" and copies["float"]["gbps"] == stick["gbps"], copies
u8 = next(r for r in rows if r["variant"] == "insertion_sort u8")
assert abs(u8["pct_of_copy"] - 100 * u8["gbps"] / copies["8-bit"]["gbps"]) < 1e-9, u8
print("yardstick read: %s" % stick)

# A fake CuPy: each copy lasts 1.0 ms, but the third 0.5 ms; the peer is the fastest of them.
fake = types.ModuleType("cupy")
times = iter([1.0, 1.0, 0.5] + [1.0] * 20)
copied = []


class Memory:
    def copy_from_device_async(self, source, nbytes):
        copied.append(nbytes)


class Array:
    data = Memory()

    def fill(self, value):
        pass


class Event:
    def record(self):
        pass

    def synchronize(self):
        pass


fake.uint8 = "uint8"
fake.empty = lambda n, dtype: Array()
fake.cuda = types.SimpleNamespace(Event=Event, get_elapsed_time=lambda a, b: next(times),
                                  Stream=types.SimpleNamespace(null=types.SimpleNamespace(synchronize=lambda: None)))
nvidia = {"index": "0", "name": "NVIDIA H100 80GB HBM3", "platform": "NVIDIA CUDA", "type": "GPU"}
sys.modules["cupy"] = fake
lines = bench.yardstick_lines(stick, nvidia)
text = "\n".join(lines)
assert all(len(line) <= 80 for line in lines), text
assert len(lines) == 4 and lines[0].startswith("  yardstick: the lessons' float copy (copy_float4)"), text
expected = 2 * 2 * 2 ** 20 / (0.5 * 1e6)  # 2 x 2 MiB in the fastest run's 0.5 ms
assert "peer: CuPy's device-to-device copy of the same 2 x 2.0 MiB, %.1f GB/s," % expected in text, text
assert "the fastest of 10 runs (CUDA events): the yardstick is %.1f%% of it" % (100 * stick["gbps"] / expected) in text
assert copied == [2 * 2 ** 20] * 11, copied  # a warm-up, then 10 timed runs, of the same bytes
print("\n".join(lines))

# The same size again: measured once.
assert bench.yardstick_lines(stick, nvidia) == lines and len(copied) == 11

# Another device, or no CuPy: the yardstick alone, nothing about a peer.
pocl = {"index": "0", "name": "cpu-haswell", "platform": "Portable Computing Language", "type": "CPU"}
assert len(bench.yardstick_lines(stick, pocl)) == 2
bench.PEER_COPIES.clear()
sys.modules["cupy"] = None  # import cupy raises ImportError
alone = bench.yardstick_lines(stick, nvidia)
assert len(alone) == 2 and "peer" not in "\n".join(alone), alone
assert bench.yardstick([]) is None and bench.yardstick_lines(None, nvidia) == []
print("no CuPy, or not an NVIDIA GPU: no peer line")

# The median's OpenCV peers, where OpenCV imports: medianBlur on floats and on 8-bit levels, the
# lesson's two pixel types, each moving its own bytes.
try:
    import cv2  # noqa: F401
except ImportError:
    print("no OpenCV: no median peers to check")
else:
    peers = {r["variant"].split(" (")[0]: r for r in bench.peer_rows("median", 64, 48, 3, 1, pocl)}
    assert peers["OpenCV medianBlur"]["bytes"] == 2 * 4 * 64 * 48, peers
    assert peers["OpenCV medianBlur 8-bit"]["bytes"] == 2 * 64 * 48, peers
    assert all(r["kernel_ms"] > 0 for r in peers.values()), peers
    print("median peers: " + ", ".join(sorted(peers)))
