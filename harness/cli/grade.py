"""./course grade: checks exercises in exercises/, in one student's folder (--from DIR) or in every
student's folder of a class (--roster DIR), and records nothing as passed. The results go to the
screen and, as asked, to JUnit, JSON and CSV (formats.py writes them)."""
import hashlib
import json
import os
import re
import signal
import subprocess
import time

from . import check, formats, schedule, setup
from .course import ROOT, absolute_path, content_hash, die, exercise, exercises, guard_layer_command, say

GRADE_DIR = os.path.join(ROOT, "out", "grade")
POINTS = os.path.join(ROOT, "teaching", "points.json")
OPTIONS_WITH_VALUE = ("--from", "--roster", "--junit", "--json", "--csv", "--time-limit", "--device", "--schedule",
                      "--classroom")


def parse(args):
    """The options of grade, checked, as a dict."""
    options = {"numbers": [], "from": "", "roster": "", "junit": "", "json": "", "csv": "", "time-limit": "120",
               "device": "", "again": False, "schedule": "", "classroom": ""}
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in OPTIONS_WITH_VALUE:
            if i + 1 >= len(args) or args[i + 1].startswith("--"):
                die(2, f"{arg} needs a value ('./course grade --help')")
            options[arg[2:]] = args[i + 1]
            i += 2
            continue
        if arg == "--again":
            options["again"] = True
        elif arg.startswith("-"):
            die(2, f"grade does not take '{arg}' ('./course grade --help' shows its options)")
        else:
            options["numbers"].append(arg)
        i += 1
    limit = options["time-limit"]
    if not (limit.isdigit() and limit.isascii() and 1 <= int(limit) <= 86400):
        die(2, f"--time-limit takes whole seconds, 1 to 86400 (not '{limit}')")
    options["time-limit"] = int(limit)
    if options["from"] and options["roster"]:
        die(2, "grade takes --from DIR (one student) or --roster DIR (a class), not both")
    if options["again"] and not options["roster"]:
        die(2, "--again goes with --roster (a class graded before)")
    if options["roster"] and (options["junit"] or options["json"] or options["classroom"]):
        die(2, "with --roster each student's JUnit and JSON go to out/grade/ID/; --csv names the class's table")
    if options["schedule"] and options["numbers"]:
        die(2, "grade takes exercise numbers or --schedule FILE (the exercises it lists as due), not both")
    for name in ("junit", "json", "csv", "classroom"):
        if options[name] and os.path.isdir(absolute_path(options[name])):
            die(2, f"{options[name]} is a folder, not a file")
    return options


def chosen_exercises(options):
    """The exercises to grade: those named, those the schedule lists as due today, or all."""
    if options["schedule"]:
        return schedule.due(absolute_path(options["schedule"]))
    return [exercise(n) for n in options["numbers"]] if options["numbers"] else exercises()


def cut(text, width):
    return text if len(text) <= width else text[:width - 3] + "..."


def compile_cause(log_path):
    """'its C++ does not compile: ' and the compiler's first error, with the lines it quotes."""
    try:
        with open(log_path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        lines = []
    first = next((i for i, line in enumerate(lines) if re.search(r"\berror\b", line)), None)
    if first is None:
        return "its C++ does not compile"
    quoted = [re.sub(r"^\S*/", "", lines[first]).strip()]
    for line in lines[first + 1:first + 3]:
        if re.match(r"^\S*(error|warning|note|In file included|make|gmake)", line.strip()) or not line.strip():
            break
        quoted.append(" ".join(line.split()))
    return "its C++ does not compile: " + " | ".join(quoted)


def run_limited(command, log_path, limit):
    """COMMAND's exit status, its output into LOG_PATH; stopped (status 124) after LIMIT seconds,
    killed 5 s later if it has not ended, its whole process group with it."""
    with open(log_path, "w") as log:
        # No search for one small change (harness/change_search.hpp): a grade stays within its
        # time limit, and `./course check NN --from DIR` shows a submission's full report.
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True, env=dict(os.environ, COURSE_CHANGE_SEARCH="0"))
        try:
            return process.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            return 124


def last_line(log_path):
    try:
        with open(log_path, errors="replace") as f:
            lines = [line for line in f.read().splitlines() if line.strip()]
    except OSError:
        lines = []
    return lines[-1][:200] if lines else ""


def grade_one(lesson, source, out_dir, limit, device):
    """Exercise LESSON of folder SOURCE: a result (dict), its report in OUT_DIR/NN_name.log."""
    result = {"number": lesson.number, "name": lesson.folder, "passed": False, "cases_passed": 0, "cases_total": 0,
              "first_failing_case": "", "cause": "", "seconds": 0.0, "device": ""}
    log_path = os.path.join(out_dir, f"{lesson.folder}.log")
    result_path = os.path.join(out_dir, f"{lesson.folder}.result.json")
    for stale in (result_path,):
        if os.path.exists(stale):
            os.remove(stale)
    start = time.monotonic()
    status = 0
    if not os.path.isdir(os.path.join(source, lesson.folder)):
        status, result["cause"] = 2, f"the submission has no {lesson.folder}/ folder"
        open(log_path, "w").close()
    else:
        try:
            prepared = check.prepare(lesson, source, limit)
            command = guard_layer_command(prepared.program, "--from", prepared.folder, "--report-dir", out_dir,
                                          "--result", result_path, *(["--device", device] if device else []))
            status = run_limited(command, log_path, limit)
        except check.NotCompiled as failed:
            status = 124 if failed.timed_out else 3
            with open(failed.log, "rb") as f, open(log_path, "wb") as log:
                log.write(f.read())
            result["cause"] = compile_cause(failed.log)
    result["seconds"] = round(time.monotonic() - start, 1)
    try:
        with open(result_path, encoding="utf-8") as f:
            written = json.load(f)
        for key in ("passed", "cases_passed", "cases_total", "first_failing_case", "cause", "device"):
            if key in written:
                result[key] = written[key]
        os.remove(result_path)
    except (OSError, ValueError):
        pass
    if status == 124:
        result["passed"] = False
        result["cause"] = f"ran out of time: stopped after {limit} s (a kernel that never ends?)"
    elif result["passed"] and status != 0:
        result["passed"] = False  # a crash after the last case
    if not result["passed"] and not result["cause"]:
        result["cause"] = f"the check stopped with exit {status}: {last_line(log_path)}"
    return result


def table_row(result):
    """The exercise's line on the screen and, when it failed, its first failing case and cause."""
    lines = ["  %-3s %-32s %-13s %7s %8s" % (result["number"], result["name"][3:35],
                                             "passed" if result["passed"] else "FAILED",
                                             f"{result['cases_passed']}/{result['cases_total']}",
                                             "%.1f" % result["seconds"])]
    if not result["passed"]:
        if result["first_failing_case"]:
            lines.append(f"      case:  {cut(result['first_failing_case'], 66)}")
        lines.append(f"      cause: {cut(result['cause'], 66)}")
    return lines


def grade_folder(chosen, source, out_dir, limit, device):
    """Every exercise of CHOSEN in SOURCE, its line printed as it is graded; the results."""
    os.makedirs(out_dir, exist_ok=True)
    say("  %-3s %-32s %-13s %7s %8s" % ("NN", "exercise", "result", "cases", "seconds"))
    results = []
    for lesson in chosen:
        results.append(grade_one(lesson, source, out_dir, limit, device))
        for line in table_row(results[-1]):
            say(line)
    return results


def device_of(results):
    return next((r["device"] for r in reversed(results) if r["device"]), "")


def run(args):
    options = parse(args)
    chosen = chosen_exercises(options)
    if not chosen:
        say(f"No exercise is due yet by {options['schedule']}: nothing to grade.")
        write_reports([], "", options["time-limit"], options, "exercises", ({}, False))
        return 0
    if options["roster"]:
        return grade_roster(chosen, options)
    if options["from"]:
        source = absolute_path(options["from"])
        if not os.path.isdir(source):
            die(2, f"--from {source} is not a folder")
        if not any(re.match(r"^[0-9][0-9]_", name) for name in os.listdir(source)):
            die(2, f"{source} holds no exercise folder (NN_name/, laid out like exercises/)")
    else:
        source = os.path.join(ROOT, "exercises")
    points = read_points(chosen) if options["classroom"] else None
    setup.ensure()
    os.chdir(ROOT)
    limit = options["time-limit"]
    say(f"Grading {source}/")
    say(f"at most {limit} s per exercise; each check's whole report: out/grade/NN_name.log")
    results = grade_folder(chosen, source, GRADE_DIR, limit, options["device"])
    passed = sum(r["passed"] for r in results)
    say(f"{passed} of {len(results)} exercises pass.")
    say(f"device: {device_of(results) or 'none opened'}")
    write_reports(results, source, limit, options, "exercises", points)
    return 0 if passed == len(results) else 1


def write_reports(results, source, limit, options, suite, points=None):
    """The reports OPTIONS ask for; POINTS (from read_points) for GitHub Classroom's."""
    device = device_of(results)
    if options.get("classroom"):
        earned = [score(r, *points) for r in results]
        formats.write_json(absolute_path(options["classroom"]), formats.classroom_result(results, points[0], earned))
    if options.get("json"):
        formats.write_json(absolute_path(options["json"]), formats.grade_json(results, source, device, limit))
    if options.get("junit"):
        formats.write_junit(absolute_path(options["junit"]), results, source, device, suite)
    if options.get("csv"):
        formats.write_csv(absolute_path(options["csv"]), formats.grade_csv_rows(results, source, device))


# --- a class ---------------------------------------------------------------------------------
def read_points(chosen, path=POINTS):
    """The points of each exercise of CHOSEN and whether a failed exercise earns partial credit,
    from teaching/points.json; exit 2, naming the problem, when the file is not right."""
    where = os.path.relpath(path, ROOT) if path.startswith(ROOT) else path
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError:
        die(2, f"cannot read {where}, the points of each exercise")
    except ValueError as error:
        die(2, f"{where} is not valid JSON: {error}")
    points = data.get("points") if isinstance(data, dict) else None
    partial = data.get("partial_credit", False) if isinstance(data, dict) else False
    if not isinstance(points, dict) or not isinstance(partial, bool):
        die(2, f"{where} needs \"points\": {{\"01\": 10, ...}} and \"partial_credit\": true or false")
    found = {}
    for lesson in chosen:
        value = points.get(lesson.number)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            die(2, f"{where} gives no points (a number, 0 or more) for exercise {lesson.number}")
        found[lesson.number] = value
    return found, partial


def score(result, points, partial):
    """The points RESULT earns: all when passed; with PARTIAL, a share for the cases passed."""
    full = points[result["number"]]
    if result["passed"]:
        return full
    if partial and result["cases_total"]:
        return round(full * result["cases_passed"] / result["cases_total"], 2)
    return 0


def course_version():
    """The course's commit (and whether its checks were changed since), or 'no git'."""
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        return "no git"
    changed = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--", "lessons",
                              "harness"], capture_output=True, text=True).stdout
    return head.stdout.strip() + (" changed: " + hashlib.sha256(changed.encode()).hexdigest()[:16] if changed else "")


def grading_key(chosen, folder, limit, device, version):
    """What a student's grade depends on: the course, the exercises and the student's files."""
    parts = [version, str(limit), device] + [f"{e.folder}:{content_hash(e, os.path.join(folder, e.folder))}"
                                             for e in chosen]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def students(roster):
    return sorted(name for name in os.listdir(roster)
                  if not name.startswith(".") and os.path.isdir(os.path.join(roster, name)))


def grade_roster(chosen, options):
    roster = absolute_path(options["roster"])
    if not os.path.isdir(roster):
        die(2, f"--roster {roster} is not a folder")
    ids = students(roster)
    if not ids:
        die(2, f"{roster} holds no student's folder (one folder per student, named by the student's id)")
    points, partial = read_points(chosen)
    csv_path = absolute_path(options["csv"]) if options["csv"] else os.path.join(GRADE_DIR, "grades.csv")
    setup.ensure()
    os.chdir(ROOT)
    limit, device, version = options["time-limit"], options["device"], course_version()
    say(f"Grading {len(ids)} students of {roster}/")
    say(f"at most {limit} s per exercise; each student's reports: out/grade/ID/")
    rows = []
    for student in ids:
        folder, out_dir = os.path.join(roster, student), os.path.join(GRADE_DIR, student)
        key = grading_key(chosen, folder, limit, device, version)
        saved = formats.read_json(os.path.join(out_dir, "grade.json"))
        say()
        if saved and saved.get("key") == key and not options["again"]:
            results = saved["exercises"]
            say(f"{student}: graded before at this content (out/grade/{student}/; --again grades again)")
        else:
            say(f"{student}: {folder}/")
            results = grade_folder(chosen, folder, out_dir, limit, device)
            report = formats.grade_json(results, folder, device_of(results), limit)
            report = {"id": student, "key": key, **report}
            formats.write_junit(os.path.join(out_dir, "junit.xml"), results, folder, device_of(results), student)
            formats.write_json(os.path.join(out_dir, "grade.json"), report)
        earned = [score(r, points, partial) for r in results]
        total = round(sum(earned), 2)
        say(f"  {sum(r['passed'] for r in results)} of {len(results)} exercises pass: {formats.number(total)} of "
            f"{formats.number(sum(points.values()))} points")
        rows.append([student] + [formats.number(e) for e in earned] + [formats.number(total)])
    formats.write_csv(csv_path, [["id"] + [e.folder for e in chosen] + ["total"]] + rows)
    say()
    say(f"{len(ids)} students graded; points in {os.path.relpath(csv_path, ROOT) if csv_path.startswith(ROOT) else csv_path}")
    return 0
