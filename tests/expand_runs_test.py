#!/usr/bin/env python3
"""expand_runs_test.py LESSON_02 LESSON_10 LESSON_12 OUTDIR: harness/site/expand_runs.py fills a page in from a run.

Records lesson 02 on a tiny picture (every row then marked +: its bytes fit the cache) into
OUTDIR/runs/tiny/02.json, then expands pages quoting it: a value, a ratio and a table expand; a
missing row fails naming the page, its line and the name; a marked row's time fails unless the
placeholder says `marked`, and then prints with its mark; a student's folder of one device's runs
stands in for every device a page names, its marked values shown with their marks, and the page
says which device it shows. Lesson 12's 8-bit ladder, recorded the same way, gives a row's local
loads, its local-load floor and its bound, and the roofline's local load rates; a row that declares
no local loads has no floor to quote, and a bound is no number to divide. Lesson 10's rows give
their wall ms (the host's clock) beside their end-to-end ms (their events), each as printed, and
their ratio.
"""
import json
import math
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXPAND = os.path.join(HERE, "..", "harness", "site", "expand_runs.py")


def expand(runs, out, page_text, name="page.md"):
    os.makedirs(out, exist_ok=True)
    page = os.path.join(out, name)
    with open(page, "w", encoding="utf-8") as f:
        f.write(page_text)
    done = subprocess.run([sys.executable, EXPAND, "--runs", runs, "--out", os.path.join(out, "expanded"), page],
                          capture_output=True, text=True)
    text = ""
    if done.returncode == 0:
        with open(os.path.join(out, "expanded", name), encoding="utf-8") as f:
            text = f.read()
    return done.returncode, text, done.stderr


def main():
    lesson, lesson_10, lesson_12, out = sys.argv[1:5]
    shutil.rmtree(out, ignore_errors=True)
    runs = os.path.join(out, "runs")
    record = os.path.join(runs, "tiny", "02.json")
    subprocess.run([lesson, "--size", "40x30", "--repeat", "1", "--record", record,
                    "--output-dir", os.path.join(out, "pictures")], check=True, capture_output=True, timeout=600)
    with open(record, encoding="utf-8") as f:
        run = json.load(f)
    rows = {r["variant"]: r for r in run["tables"][0]["rows"]}
    problems = []

    def expect(what, text, code, contains, absent=()):
        status, result, error = expand(runs, os.path.join(out, what.replace(" ", "_")), text)
        said = result if status == 0 else error
        if status != code or any(c not in said for c in contains) or any(a in said for a in absent):
            problems.append(f"{what}: exit {status} (expected {code}), expected {contains} in:\n{said}")

    naive = rows["naive"]
    assert "+" in naive["marks"], "a 40x30 picture fits the cache: its rows are marked +"
    expect("a marked row fails", "# T\n\nThe naive kernel takes {{tiny/02: naive ms}} ms.\n", 1,
           ["page.md:3", "{{tiny/02: naive ms}}", "held by the last-level cache"])
    expect("a marked row quoted as marked", "# T\n\nIt takes {{tiny/02: naive ms marked}} ms.\n", 0,
           [f"It takes {naive['printed']['kernel ms']} ms."])
    expect("a missing row fails", "# T\n\nIt takes {{tiny/02: naiv ms marked}} ms.\n", 1,
           ["page.md:3", "no row 'naiv'", "did you mean 'naive'"])
    expect("a missing run fails", "# T\n\n{{tiny/03: naive ms marked}}\n", 1, ["page.md:3", "no recorded run"])
    expect("a field that is not timed", "# T\n\nError {{tiny/02: naive max error}}.\n", 0,
           [f"Error {naive['printed']['max error']}."])
    ratio = naive["kernel_ms"] / rows["swapped_axes"]["kernel_ms"]
    copy_ms = run["roofline"]["copy_ms"]
    expect("the copy's time", "# T\n\nA copy takes {{tiny/02: roofline copy ms}} ms.\n", 0,
           [f"A copy takes {copy_ms:.{min(max(3 - math.floor(math.log10(copy_ms)), 0), 5)}f} ms."])
    expect("the timer's resolution", "# T\n\nIts timer ticks in {{tiny/02: roofline timer ns}} ns.\n", 0,
           [f"ticks in {run['roofline']['timer_ns']:.0f} ns."])
    # A clock the device recorded (nvidia-smi's, on NVIDIA); PoCL records none, and quoting it fails.
    clocked = dict(run, device=dict(run["device"], sm_clock_mhz=1980, memory_clock_mhz=2619))
    with open(os.path.join(runs, "tiny", "02-clocked.json"), "w", encoding="utf-8") as f:
        json.dump(clocked, f)
    expect("a recorded clock", "# T\n\n{{tiny/02-clocked: SM clock MHz}} and {{tiny/02-clocked: memory clock MHz}} MHz.\n",
           0, ["1980 and 2619 MHz."])
    expect("an unrecorded clock fails", "# T\n\n{{tiny/02: SM clock MHz}} MHz.\n", 1, ["records no SM clock MHz"])
    # A bench table's roofline also holds CuPy's copy of the same bytes; a lesson's does not.
    bench = dict(run, tables=[dict(run["tables"][0], roofline=dict(run["roofline"], peer_copy_gbps=2950.0))])
    with open(os.path.join(runs, "tiny", "bench-x.json"), "w", encoding="utf-8") as f:
        json.dump(bench, f)
    expect("the peer's copy", "# T\n\n{{tiny/bench-x#1: roofline peer copy GB/s}}, "
           "{{tiny/bench-x#1: roofline copy GB/s / roofline peer copy GB/s}}x\n", 0,
           [f"2950.0, {run['roofline']['copy_gbps'] / 2950.0:.2f}x"])
    expect("a lesson's run has no peer's copy", "# T\n\n{{tiny/02: roofline peer copy GB/s}}\n", 1,
           ["page.md:3", "recorded no peer copy GB/s"])
    # A ratio carries the marks of both its rows (a 40x30 kernel may also be too short to time, *).
    both = "".join(dict.fromkeys(naive["marks"] + rows["swapped_axes"]["marks"]))
    expect("a ratio", "# T\n\n{{tiny/02: naive ms / swapped_axes ms marked}}x\n", 0, [f"{ratio:.2f}{both}x"])
    expect("a table", "# T\n\n{{table tiny/02}}\n", 0,
           ["| variant | kernel ms |", "`naive`", run["command"]], ["{{"])
    expect("the run's device and command", "# T\n\n{{tiny/02: device}}: `{{tiny/02: command}}`\n", 0,
           [f"{run['device']['name']} (", f"`{run['command']}`"])
    # A figure that is not a measurement: a vendor's, cited by its reference, or one the course
    # sets, in the file that sets it; a wrong reference or file, or a file without the figure, fails.
    expect("a vendor's figure", "# T\n\nHBM3 at {{source NVIDIA H100 datasheet: 3.35 TB/s}}.\n", 0,
           ["HBM3 at 3.35 TB/s [NVIDIA H100 datasheet]."])
    expect("an unknown reference", "# T\n\n{{source NVIDIA H100 datasheets: 3.35 TB/s}}\n", 1,
           ["page.md:3", "no reference [NVIDIA H100 datasheets]"])
    expect("a figure the course sets", "# T\n\nAbove {{set tests/expand_runs_test.py: 2950%}}.\n", 0,
           ["Above 2950%."])
    absent = str(10**7 + 12345)  # a number this file does not hold as written
    expect("a set figure its file does not hold", f"# T\n\n{{{{set tests/expand_runs_test.py: {absent}%}}}}\n", 1,
           ["page.md:3", f"holds no {absent}"])
    expect("a set figure in no file", "# T\n\n{{set tests/no_such_file.py: 3%}}\n", 1, ["no file tests/no_such_file.py"])
    expect("an unmatched placeholder is left alone", "# T\n\nplain text, no placeholder\n", 0, ["plain text"])
    # Lesson 12's single pass declares its local loads: (STEPS + 2R) / (4 STEPS) float4s an output,
    # 0.75 at the default R = 8 and STEPS = 8.
    narrow_record = os.path.join(runs, "tiny", "12-u8.json")
    subprocess.run([lesson_12, "--type", "u8", "--size", "40x30", "--repeat", "1", "--record", narrow_record,
                    "--output-dir", os.path.join(out, "pictures-12")], check=True, capture_output=True, timeout=600)
    with open(narrow_record, encoding="utf-8") as f:
        narrow = json.load(f)
    single = {r["variant"]: r for r in narrow["tables"][0]["rows"]}["single_pass_blocked_u8"]
    floor = single["local_floor_ms"]
    rate = narrow["roofline"]["local_float4_gloads"]
    assert floor > 0 and rate > 0, "PoCL times local_load_peak.cl"
    expect("a row's local-load floor and loads", "# T\n\n{{tiny/12-u8: single_pass_blocked_u8 local floor ms}} ms, "
           "{{tiny/12-u8: single_pass_blocked_u8 local loads / single_pass_blocked_u8 pixels}} float4s, "
           "{{tiny/12-u8: single_pass_blocked_u8 bound}}\n", 0,
           [f"{floor:.{min(max(3 - math.floor(math.log10(floor)), 0), 5)}f} ms, 0.75 float4s, {single['bound']}\n"])
    expect("the local load rates", "# T\n\n{{tiny/12-u8: roofline local float4 Gloads/s}} G, "
           "{{tiny/12-u8: roofline local float4 GB/s}} GB/s, {{tiny/12-u8: roofline local float Gloads/s}}\n", 0,
           [f"{rate:.1f} G, {16 * rate:.1f} GB/s, {narrow['roofline']['local_float_gloads']:.1f}\n"])
    expect("a row without local loads has no floor", "# T\n\n{{tiny/12-u8: copy_u8 local floor ms}}\n", 1,
           ["page.md:3", "recorded no local floor ms", "declares no local loads"])
    expect("a bound is not divided", "# T\n\n{{tiny/12-u8: single_pass_blocked_u8 bound / copy_u8 ms marked}}\n", 1,
           ["page.md:3", "not words"])
    # Lesson 10's wall ms: the whole trip on the host's clock, as the table printed it, beside the
    # events' end-to-end ms; a time of a marked row, like its kernel time.
    transfer_record = os.path.join(runs, "tiny", "10.json")
    subprocess.run([lesson_10, "--size", "40x30", "--repeat", "1", "--frames", "2", "--record", transfer_record,
                    "--output-dir", os.path.join(out, "pictures-10")], check=True, capture_output=True, timeout=600)
    with open(transfer_record, encoding="utf-8") as f:
        transfer = {r["variant"]: r for r in json.load(f)["tables"][0]["rows"]}
    pinned, stream = transfer["float pinned"], transfer["stream, 3 queues"]
    wall_ratio = float(pinned["printed"]["wall ms"]) / pinned["end_to_end_ms"]
    expect("a row's wall time", "# T\n\n{{tiny/10: float pinned wall ms marked}} ms against "
           "{{tiny/10: float pinned end-to-end ms}} ms, {{tiny/10: float pinned wall ms / float pinned end-to-end ms "
           "marked}}x; {{tiny/10: stream, 3 queues wall ms marked}} ms a frame\n", 0,
           [f"{pinned['printed']['wall ms']}{pinned['marks']} ms against {pinned['printed']['end-to-end ms']} ms, "
            f"{wall_ratio:.2f}{pinned['marks']}x; {stream['printed']['wall ms']}{stream['marks']} ms a frame\n"])
    expect("a marked row's wall time fails", "# T\n\n{{tiny/10: float pinned wall ms}}\n", 1,
           ["page.md:3", "held by the last-level cache", "no conclusion rests on its wall ms"])
    # A student's folder of one device's runs (DIR/02.json) answers for every device a page names.
    student = os.path.join(out, "student")
    os.makedirs(student)
    shutil.copy(record, os.path.join(student, "02.json"))
    status, text, error = expand(student, os.path.join(out, "student_page"),
                                 "# T\n\nOn the H100: {{h100/02: naive max error}}, {{h100/02: naive ms}} ms.\n")
    # Its rows are marked +: quoted where the page expects the course's unmarked run, the time
    # shows its mark rather than failing the student's site.
    marked = f"{naive['printed']['kernel ms'].rstrip('*+')}{naive['marks']} ms."
    if status != 0 or run["device"]["name"] not in text or f"{naive['printed']['max error']}," not in text \
            or marked not in text:
        problems.append(f"a student's runs: exit {status}, expected '{marked}'\n{text}{error}")
    for p in problems:
        print("wrong:", p)
    if not problems:
        print("ok: values, ratios, a peer's copy, local-load floors, wall times, tables and cited figures expand; a missing "
              "name and a marked row fail, naming the page")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
