"""./course run NN: the lesson's program, paths read from the folder the command was typed in."""
import os
import unittest

from cli import course, run
from cli.tests.fake_course import FakeCourseTest

LESSON = '#!/bin/sh\necho "cwd=$(pwd)"\nfor a in "$@"; do echo "arg=$a"; done\n'


class ResolvePaths(unittest.TestCase):
    def test_only_the_values_of_path_options_are_made_absolute(self):
        here = course.ORIG_PWD
        self.assertEqual(run.resolve_paths(["--input", "a.png", "--radius", "3", "--output=b.png", "--output-dir",
                                            "/abs", "--input"]),
                         ["--input", os.path.join(here, "a.png"), "--radius", "3", f"--output={here}/b.png",
                          "--output-dir", "/abs", "--input"])


class Run(FakeCourseTest):
    def test_the_lesson_runs_from_the_root_with_the_typed_folder_paths(self):
        self.fake.write("build/lessons/lesson_02", LESSON, executable=True)
        elsewhere = os.path.join(self.fake.root, "elsewhere")
        os.makedirs(elsewhere)
        status, out, _ = self.fake.course("run", "2", "--input", "pic.png", "--repeat", "1", cwd=elsewhere)
        self.assertEqual(status, 0)
        self.assertEqual(out.splitlines(), [f"cwd={os.path.realpath(self.fake.root)}", "arg=--input",
                                            f"arg={elsewhere}/pic.png", "arg=--repeat", "arg=1"])

    def test_run_without_a_lesson_or_with_a_wrong_one_exits_2(self):
        self.assertEqual(self.fake.course("run")[0], 2)
        self.assertEqual(self.fake.course("run", "x1")[0], 2)


if __name__ == "__main__":
    unittest.main()
