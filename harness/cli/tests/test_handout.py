"""./course handout DIR: a student copy without the answers, made in one commit."""
import json
import os
import subprocess
import unittest

from cli import handout, schedule
from cli.tests.fake_course import FakeCourseTest, EXERCISE_MD


class Pieces(unittest.TestCase):
    def test_only_the_test_cases_that_make_mutants_are_dropped(self):
        text = ('#include "x"\nTEST_CASE("keeps") {\n  CHECK(1);\n}\nTEST_CASE("drops") {\n'
                '  failures_of_mutant("a", "b");\n}\n// end\n')
        self.assertEqual(handout.strip_mutant_cases(text), '#include "x"\nTEST_CASE("keeps") {\n  CHECK(1);\n}\n// end\n')

    def test_hints_after_the_first_n_are_left_out(self):
        kept = handout.keep_hints(EXERCISE_MD.format(n="01"), 1)
        self.assertIn("The task of 01.", kept)
        self.assertIn("First hint of 01.", kept)
        self.assertNotIn("Hint 2", kept)
        self.assertNotIn("Second hint", kept)


class Handout(FakeCourseTest):
    def setUp(self):
        super().setUp()
        self.fake.write("tests/test_01_answers.cpp", "// ANSWER-7f3a\n")
        self.fake.write("lessons/01_first/judge_answers.hpp", "// ANSWER-7f3a\n")
        self.fake.write("tests/mistakes.txt", "# header\n01 | x = y; | the mistake\n")
        self.dest = os.path.join(self.fake.root, "..", os.path.basename(self.fake.root) + "-student")

    def tearDown(self):
        subprocess.run(["rm", "-rf", self.dest])
        super().tearDown()

    def test_the_handout_leaves_out_every_answer_and_keeps_the_first_hint_in_one_commit(self):
        status, out, err = self.fake.course("handout", self.dest, "--exercises", "02", "--hints", "1", "--no-git")
        self.assertEqual(status, 0, out + err)
        files = [os.path.relpath(os.path.join(f, n), self.dest) for f, _, ns in os.walk(self.dest) for n in ns]
        self.assertFalse([f for f in files if f.startswith("solutions/") or "_answers." in f], files)
        self.assertIn("harness/cli/main.py", files)
        with open(os.path.join(self.dest, "tests/mistakes.txt")) as f:
            self.assertEqual(f.read(), "# header\n")
        with open(os.path.join(self.dest, "lessons/02_second/exercise.md")) as f:
            self.assertNotIn("Second hint", f.read())
        with open(os.path.join(self.dest, ".github/workflows/grade.yml")) as f:
            workflow = f.read()
        self.assertIn("./course grade --schedule " + schedule.PATH, workflow)
        self.assertFalse(os.path.exists(os.path.join(self.dest, ".github/classroom/autograding.json")))
        with open(os.path.join(self.dest, schedule.PATH)) as f:
            listed = [line.split()[0] for line in f if line.strip() and not line.startswith("#")]
        self.assertEqual(listed, ["02"])
        self.assertFits80(out)

    def test_the_handouts_schedule_is_what_its_workflow_grades(self):
        status, out, err = self.fake.course("handout", self.dest, "--no-git")
        self.assertEqual(status, 0, out + err)
        with open(os.path.join(self.dest, schedule.PATH)) as f:
            listed = [line.split()[0] for line in f if line.strip() and not line.startswith("#")]
        self.assertEqual(listed, ["01", "02"])
        self.fake.stamp()  # setUp added files after the fake build
        status, out, err = self.fake.course("grade", "--schedule", os.path.join(self.dest, schedule.PATH))
        self.assertIn("0 of 2 exercises pass.", out, err)

    def test_points_go_to_the_handouts_points_file(self):
        status, out, err = self.fake.course("handout", self.dest, "--no-git", "--points", "4")
        self.assertEqual(status, 0, out + err)
        with open(os.path.join(self.dest, "teaching/points.json")) as f:
            data = json.load(f)
        self.assertEqual((data["points"], data["partial_credit"]), ({"01": 4, "02": 4}, True))

    def test_the_dev_container_runs_the_image_named(self):
        self.fake.write(".devcontainer/devcontainer.json",
                        json.dumps({"name": "n", "build": {"dockerfile": "../Dockerfile"}, "remoteUser": "student"}))
        status, out, err = self.fake.course("handout", self.dest, "--no-git", "--image", "ghcr.io/uni/course")
        self.assertEqual(status, 0, out + err)
        with open(os.path.join(self.dest, ".devcontainer/devcontainer.json")) as f:
            self.assertEqual(json.load(f), {"name": "n", "image": "ghcr.io/uni/course", "remoteUser": "student"})
        self.assertIn("Its dev container runs ghcr.io/uni/course.", out)

    def test_a_git_handout_has_no_later_hint_anywhere_in_its_history(self):
        if subprocess.run(["git", "--version"], capture_output=True).returncode != 0:
            self.skipTest("no git")
        status, out, err = self.fake.course("handout", self.dest, "--hints", "1")
        self.assertEqual(status, 0, out + err)
        log = subprocess.run(["git", "-C", self.dest, "log", "--all", "-p"], capture_output=True, text=True).stdout
        self.assertEqual(subprocess.run(["git", "-C", self.dest, "rev-list", "--count", "HEAD"], capture_output=True,
                                        text=True).stdout.strip(), "1")
        self.assertIn("First hint of 01.", log)
        self.assertNotIn("Second hint", log)
        self.assertNotIn("ANSWER-7f3a", log)

    def test_the_dev_container_runs_the_image_published_for_the_courses_github_repository(self):
        if subprocess.run(["git", "--version"], capture_output=True).returncode != 0:
            self.skipTest("no git")
        self.fake.write(".devcontainer/devcontainer.json", json.dumps({"name": "n", "build": {}}))
        for command in (["init", "-q"], ["remote", "add", "origin", "git@github.com:Uni-X/OpenCL-Course.git"]):
            subprocess.run(["git", "-C", self.fake.root, *command], check=True)
        status, out, err = self.fake.course("handout", self.dest, "--no-git")
        self.assertEqual(status, 0, out + err)
        with open(os.path.join(self.dest, ".devcontainer/devcontainer.json")) as f:
            self.assertEqual(json.load(f)["image"], "ghcr.io/uni-x/opencl-course")

    def test_wrong_arguments_exit_2_and_write_nothing(self):
        for args in ([], [self.dest, "--points", "x"], [self.dest, "--hints"], [self.dest, "--exercises", "07"],
                     [self.dest, "--exercises", "a-b"], [self.dest, "--bogus"], [self.dest, "other"],
                     [self.dest, "--image"], [self.dest, "--image", "GHCR.io/Upper"],
                     [self.fake.root]):
            status, _, err = self.fake.course("handout", *args)
            self.assertEqual(status, 2, (args, err))
        self.assertFalse(os.path.exists(self.dest))


if __name__ == "__main__":
    unittest.main()
