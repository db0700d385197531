#!/usr/bin/env python3
"""ncu_profile_test.py ROOT WORK: harness/tools/ncu_profile.py without a GPU. Its stand-ins in the
PTX (a `__constant` argument made the address of the module's constant array, the launch
registers of a one-launch 2D NDRange) and its record, from a profiler's table written here, which
a page then quotes by name through expand_runs.py."""
import json
import os
import subprocess
import sys

root, work = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(root, "harness", "tools"))
import ncu_profile  # noqa: E402

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


PTX = """.version 8.8
.target sm_90
.address_size 64

.entry k(
\t.param .u64 .ptr .global .align 1 k_param_0,
\t.param .u64 .ptr .const .align 4 k_param_2,
\t.param .u32 k_param_3
)
{
\tld.param.u64 \t%rd78, [k_param_2];
\tmov.b32 \t%r49, %envreg0;
\tmov.b32 \t%r32, %envreg9;
\tld.const.f32 \t%f241, [%rd78+4];
}
"""
ptx, symbol, bits = ncu_profile.constant_in_module(ncu_profile.launch_registers(PTX))
check(symbol and bits == 64, "the __constant argument was not found")
check(f".const .align 16 .b8 {symbol}[" in ptx, "no constant array declared in the module")
check(f"mov.u64 %rd78, {symbol};" in ptx and "[k_param_2]" not in ptx.split("{", 1)[1],
      "the argument's load was not replaced by the array's address")
check("ld.const.f32 \t%f241, [%rd78+4];" in ptx, "the kernel's constant loads changed")
check("mov.b32 %r49, 0;" in ptx and "mov.b32 %r32, 2;" in ptx and "envreg" not in ptx,
      "the launch registers were not given a one-launch 2D NDRange's values")
try:
    ncu_profile.launch_registers("\tmov.b32 \t%r1, %envreg7;\n")
    check(False, "an unknown launch register was accepted")
except SystemExit:
    pass
literal = PTX.replace("\tld.param.u64 \t%rd78, [k_param_2];\n", "")
check(ncu_profile.constant_in_module(literal)[1] is None, "an argument the kernel never reads got an array")

# A profiled kernel: its timing line and a table as `ncu --csv --page raw` writes it.
profiled = os.path.join(work, "profiled")
os.makedirs(profiled, exist_ok=True)
metrics = {"device__attribute_display_name": "NVIDIA H100 80GB HBM3", "gpu__time_duration.sum": "899,104",
           "smsp__inst_executed.sum": "629,698,560", "smsp__issue_active.avg.pct_of_peak_sustained_active": "67.48",
           "sm__warps_active.avg.per_cycle_active": "15.70", "launch__registers_per_thread": "128",
           "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio": "1.33"}
with open(os.path.join(profiled, "single_pass_blocked_u8-raw.csv"), "w") as f:
    f.write(",".join(f'"{k}"' for k in metrics) + "\n" + ",".join('""' for _ in metrics) + "\n" +
            ",".join(f'"{v}"' for v in metrics.values()) + "\n")
with open(os.path.join(profiled, "single_pass_blocked_u8.json"), "w") as f:
    f.write(json.dumps({"kernel": "single_pass_blocked_u8", "ms": 0.906, "min_ms": 0.897, "max_ms": 0.908, "runs": 5,
                        "max_error": 0.5, "verified": True, "pixels": 16384 * 16384}) + "\n")
runs = os.path.join(work, "runs", "gpu")
os.makedirs(runs, exist_ok=True)
subprocess.run([sys.executable, os.path.join(root, "harness", "tools", "ncu_profile.py"), "record", profiled,
                "--command", "ncu_profile.py profile", "--out", os.path.join(runs, "ncu.json"),
                "--size", "16384x16384"], check=True, stdout=subprocess.DEVNULL)
row = json.load(open(os.path.join(runs, "ncu.json")))["tables"][0]["rows"][0]["printed"]
check(row.get("instructions an output") == "75.1", f"instructions an output: {row.get('instructions an output')}")
check(row.get("issue floor ms") == "0.6067", f"issue floor ms: {row.get('issue floor ms')}")
check(row.get("stalled long scoreboard") == "1.33", "the stall reason is missing")
page = os.path.join(work, "page.md")
with open(page, "w") as f:
    f.write("It issued in {{gpu/ncu: single_pass_blocked_u8 issue slots busy %}}% of the cycles, "
            "{{gpu/ncu: single_pass_blocked_u8 instructions an output}} instructions an output.\n")
out = os.path.join(work, "expanded")
subprocess.run([sys.executable, os.path.join(root, "harness", "site", "expand_runs.py"), "--runs",
                os.path.join(work, "runs"), "--out", out, page], check=True, stdout=subprocess.DEVNULL)
text = open(os.path.join(out, "page.md")).read()
check("67.5% of the cycles, 75.1 instructions" in text, f"the page reads: {text.strip()}")
for f in failures:
    print("FAIL:", f)
print("ok: ncu_profile.py's PTX stand-ins and its record" if not failures else f"{len(failures)} failed")
sys.exit(1 if failures else 0)
