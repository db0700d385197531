"""./course test: ctest in the build folder, the long Oclgrind run left out unless a label is named."""
import unittest

from cli.tests.fake_course import FakeCourseTest

ECHO = '#!/bin/sh\necho "$(basename "$0") $*"\necho "in $(pwd)"\n'


class Test(FakeCourseTest):
    def test_the_suite_runs_in_the_build_folder_without_the_oclgrind_label(self):
        self.fake.fake_program("ctest", ECHO)
        status, out, _ = self.fake.course("test", "-R", "lesson 02")
        self.assertEqual(status, 0)
        self.assertRegex(out, r"^ctest --output-on-failure -j[0-9]+ -LE oclgrind-kernels -R lesson 02\n")
        self.assertTrue(out.rstrip().endswith("/build"), out)

    def test_a_label_given_runs_that_label(self):
        self.fake.fake_program("ctest", ECHO)
        out = self.fake.course("test", "-L", "oclgrind-kernels")[1]
        self.assertNotIn("-LE", out)


if __name__ == "__main__":
    unittest.main()
