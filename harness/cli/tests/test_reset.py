"""./course reset NN: the exercise back as shipped, the student's version kept."""
import glob
import os
import unittest

from cli.tests.fake_course import FakeCourseTest


class Reset(FakeCourseTest):
    def test_reset_asks_without_yes_and_keeps_the_students_version(self):
        self.fake.course("list")  # the first command keeps the exercises as shipped (no git here)
        self.fake.write("exercises/01_first/first.cl", "my work\n")
        status, _, err = self.fake.course("reset", "01")
        self.assertEqual(status, 2)
        self.assertIn("add --yes", err)
        self.assertEqual(self.fake.read("exercises/01_first/first.cl"), "my work\n")
        status, out, _ = self.fake.course("reset", "01", "--yes")
        self.assertEqual(status, 0, out)
        self.assertEqual(self.fake.read("exercises/01_first/first.cl"), "FAIL as shipped\n")
        kept = glob.glob(os.path.join(self.fake.root, "out/reset/01_first-*/first.cl"))
        self.assertEqual(len(kept), 1)
        with open(kept[0]) as f:
            self.assertEqual(f.read(), "my work\n")

    def test_reset_without_a_shipped_copy_changes_nothing_and_exits_2(self):
        self.fake.write("exercises/01_first/first.cl", "my work\n")
        status, _, err = self.fake.course("reset", "01", "--yes")  # reset itself saves no copy
        self.assertEqual(status, 2)
        self.assertIn("no shipped copy", err)
        self.assertEqual(self.fake.read("exercises/01_first/first.cl"), "my work\n")


if __name__ == "__main__":
    unittest.main()
