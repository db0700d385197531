"""./course setup and the build every command makes first when a file changed."""
import os
import time
import unittest

from cli import setup
from cli.tests.fake_course import FakeCourseTest


class ProgressLines(unittest.TestCase):
    def test_a_build_step_is_shown_short_and_other_lines_not_at_all(self):
        self.assertEqual(setup.progress_line("[ 45%] Building CXX object CMakeFiles/lesson_02.dir/lessons/02/main.cpp.o"),
                         "  [ 45%] Building object lessons/02/main.cpp.o")
        self.assertIsNone(setup.progress_line("[ 45%] Built target lesson_02"))
        long = setup.progress_line("[100%] Linking CXX executable " + "x" * 100)
        self.assertEqual((len(long), long[-4:]), (80, " ..."))


class Stamp(FakeCourseTest):
    def test_a_command_builds_only_when_a_file_the_build_reads_changed(self):
        # The fake build fails: a command that tried to build would say so and exit 2.
        self.assertEqual(self.fake.course("check", "01")[0], 1)
        self.fake.write("exercises/01_first/first.cl", "FAIL after an edit\n")  # check builds exercises itself
        self.fake.write("elsewhere/notes.txt", "not read by the build")
        self.assertEqual(self.fake.course("check", "01")[0], 1)
        time.sleep(0.01)
        self.fake.write("lessons/01_first/check.cpp", "// changed\n")
        status, _, err = self.fake.course("check", "01")
        self.assertEqual(status, 2)
        self.assertIn("the build failed", err)

    def test_missing_packages_without_apt_name_the_command_to_type(self):
        status, _, err = self.fake.course("setup")
        self.assertEqual(status, 2, err)
        self.assertTrue(err.startswith("course: "), err)


if __name__ == "__main__":
    unittest.main()
