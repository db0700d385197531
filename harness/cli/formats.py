"""The results of grading as JUnit XML, JSON and CSV, each written whole or not at all."""
import csv
import io
import json
import xml.etree.ElementTree as ET

from .course import write_atomically

FIELDS = ("number", "name", "passed", "cases_passed", "cases_total", "first_failing_case", "cause", "seconds",
          "device")


def number(value):
    """VALUE as a table shows it: 10, not 10.0; 6.67."""
    return str(int(value)) if float(value).is_integer() else str(value)


def grade_json(results, source, device, limit):
    return {"from": source, "device": device, "time_limit_s": limit, "passed": sum(r["passed"] for r in results),
            "total": len(results), "exercises": [{k: r[k] for k in FIELDS} for r in results]}


def dumps(report):
    """REPORT as JSON with a field a line, and each exercise on its own line (easy to grep)."""
    lines = []
    for key, value in report.items():
        if isinstance(value, list):
            items = ",\n".join("    " + json.dumps(item) for item in value)
            lines.append(f"  {json.dumps(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_json(path, report):
    write_atomically(path, dumps(report))


def read_json(path):
    """The JSON in PATH, or None when there is none (or it is not JSON)."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def junit(results, source, device, suite):
    """The results as a JUnit XML tree: a test case per exercise, a failure holding its cause."""
    seconds = "%.1f" % sum(r["seconds"] for r in results)
    failures = str(sum(not r["passed"] for r in results))
    root = ET.Element("testsuites", name="course grade", tests=str(len(results)), failures=failures, time=seconds)
    suite_element = ET.SubElement(root, "testsuite", name=suite, tests=str(len(results)), failures=failures,
                                  errors="0", skipped="0", time=seconds)
    properties = ET.SubElement(suite_element, "properties")
    ET.SubElement(properties, "property", name="from", value=source)
    ET.SubElement(properties, "property", name="device", value=device)
    for r in results:
        case = ET.SubElement(suite_element, "testcase", classname=suite, name=r["name"], time="%.1f" % r["seconds"])
        ET.SubElement(case, "system-out").text = f"{r['cases_passed']} of {r['cases_total']} cases pass"
        if not r["passed"]:
            failure = ET.SubElement(case, "failure", message=r["cause"],
                                    type="timeout" if r["cause"].startswith("ran out of time") else "failed")
            failure.text = f"first failing case: {r['first_failing_case'] or 'none named'}"
    ET.indent(root)
    return root


def write_junit(path, results, source, device, suite):
    text = io.StringIO()
    ET.ElementTree(junit(results, source, device, suite)).write(text, encoding="unicode", xml_declaration=False)
    write_atomically(path, '<?xml version="1.0" encoding="UTF-8"?>\n' + text.getvalue() + "\n")


def grade_csv_rows(results, source, device):
    rows = [["from", "number", "name", "passed", "cases_passed", "cases_total", "seconds", "first_failing_case", "cause",
             "device"]]
    for r in results:
        rows.append([source, r["number"], r["name"], "true" if r["passed"] else "false", r["cases_passed"],
                     r["cases_total"], "%.1f" % r["seconds"], r["first_failing_case"], r["cause"], device])
    return rows


def write_csv(path, rows):
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    write_atomically(path, text.getvalue())


def classroom_result(results, points, earned):
    """The results as GitHub Classroom's grading reporter reads a test runner's (the workflow hands
    it this JSON in base64): a test per exercise with the points EARNED out of its POINTS."""
    tests = [{"name": f"Exercise {r['number']} {r['name'][3:]}", "status": "pass" if r["passed"] else "fail",
              "score": e, "max_score": points[r["number"]], "message": "" if r["passed"] else r["cause"],
              "line_no": 0, "execution_time": "%.1fs" % r["seconds"]} for r, e in zip(results, earned)]
    return {"version": 1, "status": "pass" if all(r["passed"] for r in results) else "fail",
            "max_score": sum(points[r["number"]] for r in results), "tests": tests}
