"""./course grade: one folder's exercises, or a class (--roster); JUnit parsed by a strict parser."""
import csv
import json
import os
import shutil
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

from cli import grade
from cli.tests.fake_course import FakeCourseTest

ODD = "a < b > c & d \"quoted\" 'single'"


def junit_failures(path):
    """{test case name: (failure message, type)} of a JUnit file, parsed strictly."""
    tree = ET.parse(path)  # raises on a file that is not well-formed
    return {case.get("name"): (case.find("failure").get("message"), case.find("failure").get("type"))
            for case in tree.iter("testcase") if case.find("failure") is not None}


class Grade(FakeCourseTest):
    def test_grading_the_solutions_passes_and_writes_junit_json_and_csv(self):
        status, out, err = self.fake.course("grade", "--from", "solutions", "--junit", "r/junit.xml", "--json",
                                            "r/grade.json", "--csv", "r/grade.csv")
        self.assertEqual(status, 0, out + err)
        self.assertIn("\n2 of 2 exercises pass.\n", out)
        self.assertIn('device: Fake <CPU> & "co"', out)
        root = ET.parse(os.path.join(self.fake.root, "r/junit.xml")).getroot()
        self.assertEqual((root.get("tests"), root.get("failures")), ("2", "0"))
        report = json.loads(self.fake.read("r/grade.json"))
        self.assertEqual((report["passed"], report["total"]), (2, 2))
        self.assertIn('"number": "02", "name": "02_second", "passed": true', self.fake.read("r/grade.json"))
        rows = list(csv.reader(open(os.path.join(self.fake.root, "r/grade.csv"))))
        self.assertEqual(len(rows), 3)
        self.assertEqual(rows[1][:4], [os.path.join(self.fake.root, "solutions"), "01", "01_first", "true"])
        self.assertFalse(os.path.exists(os.path.join(self.fake.root, ".course", "passed")))

    def test_a_cause_with_markup_characters_is_kept_whole_in_junit_json_and_csv(self):
        self.fake.write("exercises/01_first/first.cl", ODD + "\n")
        status, out, _ = self.fake.course("grade", "01", "--junit", "j.xml", "--json", "g.json", "--csv", "g.csv")
        self.assertEqual(status, 1)
        self.assertEqual(junit_failures(os.path.join(self.fake.root, "j.xml")), {"01_first": (ODD, "failed")})
        root = ET.parse(os.path.join(self.fake.root, "j.xml")).getroot()
        self.assertEqual(root.find(".//failure").text, "first failing case: case <2> & 'odd'")
        self.assertEqual(json.loads(self.fake.read("g.json"))["exercises"][0]["cause"], ODD)
        self.assertEqual(list(csv.reader(open(os.path.join(self.fake.root, "g.csv"))))[1][8], ODD)
        self.assertIn("      cause: " + ODD, out)

    def test_an_endless_check_is_stopped_at_the_time_limit_and_grading_goes_on(self):
        self.fake.write("exercises/01_first/first.cl", "LOOP\n")
        self.fake.write("exercises/02_second/second.cl", "PASS\n")
        start = time.monotonic()
        status, out, _ = self.fake.course("grade", "--time-limit", "1", "--junit", "j.xml")
        self.assertLess(time.monotonic() - start, 20)
        self.assertEqual(status, 1)
        self.assertIn("ran out of time: stopped after 1 s", out)
        self.assertRegex(out, r"\n  02  second +passed ")
        failures = junit_failures(os.path.join(self.fake.root, "j.xml"))
        self.assertEqual(failures["01_first"][1], "timeout")

    def test_a_crashed_check_names_its_last_line(self):
        self.fake.write("exercises/02_second/second.cl", "CRASH\n")
        out = self.fake.course("grade", "02")[1]
        self.assertIn("cause: the check stopped with exit 139: Segmentation fault", out)

    def test_wrong_options_exit_2_and_write_nothing(self):
        for args in (["--time-limit", "0"], ["--time-limit", "x"], ["--bogus"], ["--junit"], ["42"], ["03"],
                     ["--from", "nowhere"], ["--from", "teaching"], ["--roster", "a", "--from", "b"], ["--again"],
                     ["--roster", "nowhere"], ["--roster", "solutions", "--junit", "j.xml"], ["--junit", "lessons"]):
            status, out, err = self.fake.course("grade", *args)
            self.assertEqual(status, 2, (args, out, err))
            self.assertTrue(err.startswith("course: "), err)
        self.assertFalse(os.path.exists(os.path.join(self.fake.root, "j.xml")))


class Schedule(FakeCourseTest):
    """--schedule FILE grades the exercises it lists whose day has come; --classroom writes their
    points as GitHub Classroom's reporter reads them."""

    def test_only_the_exercises_due_today_are_graded_with_their_points_for_classroom(self):
        self.fake.write("exercises/02_second/second.cl", "PASS\n")
        self.fake.write("s.txt", "# a comment\n1\n02 2000-01-31  # long due\n")
        status, out, err = self.fake.course("grade", "--schedule", "s.txt", "--classroom", "c.json", "--junit",
                                            "j.xml")
        self.assertEqual(status, 1, out + err)
        self.assertIn("1 of 2 exercises pass.", out)
        result = json.loads(self.fake.read("c.json"))
        self.assertEqual((result["status"], result["max_score"]), ("fail", 16))
        self.assertEqual([(t["name"], t["status"], t["score"]) for t in result["tests"]],
                         [("Exercise 01 first", "fail", 7.5), ("Exercise 02 second", "pass", 6)])
        self.assertEqual(result["tests"][0]["message"], "FAIL as shipped")

    def test_an_exercise_whose_day_has_not_come_is_left_out(self):
        self.fake.write("s.txt", "01 2999-12-31\n02\n")
        status, out, _ = self.fake.course("grade", "--schedule", "s.txt", "--classroom", "c.json")
        self.assertEqual(status, 1)
        self.assertEqual([t["name"] for t in json.loads(self.fake.read("c.json"))["tests"]], ["Exercise 02 second"])
        self.fake.write("s.txt", "01 2999-12-31\n")
        status, out, _ = self.fake.course("grade", "--schedule", "s.txt", "--classroom", "c.json", "--junit", "j.xml")
        self.assertEqual(status, 0)
        self.assertIn("No exercise is due yet by s.txt", out)
        self.assertEqual(json.loads(self.fake.read("c.json")), {"version": 1, "status": "pass", "max_score": 0,
                                                                "tests": []})
        self.assertEqual(junit_failures(os.path.join(self.fake.root, "j.xml")), {})

    def test_a_schedule_line_that_is_not_an_exercise_and_a_day_exits_2_naming_the_line(self):
        for line, said in (("03", "s.txt:2: '03' is not"), ("01 2026-13-01", "'2026-13-01' is not a day"),
                           ("01 tomorrow", "'tomorrow' is not a day"), ("01 2026-01-01 x", "s.txt:2:")):
            self.fake.write("s.txt", "02\n" + line + "\n")
            status, _, err = self.fake.course("grade", "--schedule", "s.txt", "--classroom", "c.json")
            self.assertEqual(status, 2, line)
            self.assertIn(said, err)
        self.assertEqual(self.fake.course("grade", "01", "--schedule", "s.txt")[0], 2)
        self.assertEqual(self.fake.course("grade", "--schedule", "nowhere.txt")[0], 2)
        self.assertFalse(os.path.exists(os.path.join(self.fake.root, "c.json")))

class Roster(FakeCourseTest):
    def setUp(self):
        super().setUp()
        self.roster = os.path.join(self.fake.root, "class")
        students = {"ada": ("PASS", "PASS"), "bob": ("LOOP", "PASS"), "cy<&>\"": (ODD, "FAIL to compile")}
        for student, (first, second) in students.items():
            self.fake.write(f"class/{student}/01_first/first.cl", first + "\n")
            self.fake.write(f"class/{student}/02_second/second.cl", second + "\n")

    def rows(self, path="out/grade/grades.csv"):
        with open(os.path.join(self.fake.root, path)) as f:
            return {row[0]: row[1:] for row in csv.reader(f)}

    def test_each_student_gets_a_row_of_points_and_their_own_reports(self):
        status, out, err = self.fake.course("grade", "--roster", "class", "--time-limit", "1")
        self.assertEqual(status, 0, out + err)
        rows = self.rows()
        self.assertEqual(rows["id"], ["01_first", "02_second", "total"])
        self.assertEqual(rows["ada"], ["10", "6", "16"])
        self.assertEqual(rows["bob"], ["0", "6", "6"])  # out of time before any case passed
        self.assertEqual(rows['cy<&>"'], ["7.5", "4.5", "12"])  # 3 of 4 cases each
        for student in ("ada", "bob", 'cy<&>"'):
            folder = os.path.join(self.fake.root, "out", "grade", student)
            self.assertTrue(os.path.isfile(os.path.join(folder, "01_first.log")))
            self.assertTrue(os.path.isfile(os.path.join(folder, "02_second.log")))
            junit_failures(os.path.join(folder, "junit.xml"))  # strictly valid
            self.assertEqual(json.loads(open(os.path.join(folder, "grade.json")).read())["id"], student)
        self.assertEqual(junit_failures(os.path.join(self.fake.root, "out/grade/bob/junit.xml"))["01_first"][1],
                         "timeout")
        failures = junit_failures(os.path.join(self.fake.root, 'out/grade/cy<&>"/junit.xml'))
        self.assertEqual(failures["01_first"][0], ODD)
        self.assertEqual(ET.parse(os.path.join(self.fake.root, 'out/grade/cy<&>"/junit.xml')).getroot()
                         .find("testsuite").get("name"), 'cy<&>"')
        self.assertFits80(out)

    def test_a_student_graded_at_the_same_content_is_skipped_unless_again(self):
        self.fake.course("grade", "--roster", "class", "--time-limit", "1")
        status, out, _ = self.fake.course("grade", "--roster", "class", "--time-limit", "1", "--csv", "second.csv")
        self.assertEqual(status, 0)
        self.assertEqual(out.count("graded before at this content"), 3)
        self.assertEqual(self.rows("second.csv")["ada"], ["10", "6", "16"])
        self.fake.write("class/bob/01_first/first.cl", "PASS\n")
        out = self.fake.course("grade", "--roster", "class", "--time-limit", "1")[1]
        self.assertEqual(out.count("graded before at this content"), 2)
        self.assertEqual(self.rows()["bob"], ["10", "6", "16"])
        out = self.fake.course("grade", "--roster", "class", "--again", "--time-limit", "1")[1]
        self.assertNotIn("graded before", out)

    def test_points_come_from_the_instructors_file(self):
        self.fake.write("teaching/points.json", json.dumps({"partial_credit": False, "points": {"01": 3, "02": 2}}))
        self.fake.course("grade", "--roster", "class", "--time-limit", "1")
        self.assertEqual(self.rows()['cy<&>"'], ["0", "0", "0"])
        self.assertEqual(self.rows()["ada"], ["3", "2", "5"])
        self.fake.write("teaching/points.json", json.dumps({"partial_credit": False, "points": {"01": 3}}))
        status, _, err = self.fake.course("grade", "--roster", "class")
        self.assertEqual(status, 2)
        self.assertIn("gives no points (a number, 0 or more) for exercise 02", err)
        self.fake.write("teaching/points.json", "{ not json")
        self.assertEqual(self.fake.course("grade", "--roster", "class")[0], 2)


class Causes(unittest.TestCase):
    def test_a_compile_error_cause_holds_the_compilers_first_error_and_its_line(self):
        folder = tempfile.mkdtemp()
        log = os.path.join(folder, "build.log")
        with open(log, "w") as f:
            f.write("[ 50%] Building CXX object check_11_graded.dir/check.cpp.o\n"
                    "In file included from /x/lessons/11/check.cpp:3:\n"
                    "/x/build/graded/11_autotuning/tile_search.hpp:12:5: error: 'foo' was not declared in this scope\n"
                    "   12 |     foo < bar;\n"
                    "      |     ^~~\n"
                    "/x/build/graded/11_autotuning/tile_search.hpp:13:5: error: another\n"
                    "gmake[3]: *** Error 1\n")
        self.assertEqual(grade.compile_cause(log), "its C++ does not compile: tile_search.hpp:12:5: error: 'foo' "
                                                   "was not declared in this scope | 12 | foo < bar; | | ^~~")
        shutil.rmtree(folder)

    def test_partial_credit_is_a_share_of_the_cases_passed(self):
        result = {"number": "01", "passed": False, "cases_passed": 1, "cases_total": 3}
        self.assertEqual(grade.score(result, {"01": 10}, True), 3.33)
        self.assertEqual(grade.score(result, {"01": 10}, False), 0)
        self.assertEqual(grade.score(dict(result, passed=True), {"01": 10}, False), 10)
        self.assertEqual(grade.score(dict(result, cases_total=0), {"01": 10}, True), 0)


if __name__ == "__main__":
    unittest.main()
