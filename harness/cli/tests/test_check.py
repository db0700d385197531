"""./course check NN (and --from DIR): the check's status, a pass recorded only for exercises/."""
import os
import unittest

from cli.tests.fake_course import FakeCourseTest


class Check(FakeCourseTest):
    def test_a_failing_check_exits_1_and_records_nothing(self):
        status, out, _ = self.fake.course("check", "02")
        self.assertEqual(status, 1)
        self.assertIn("Exercise 02 fails", out)
        self.assertFalse(os.path.exists(os.path.join(self.fake.root, ".course", "passed")))

    def test_a_pass_is_recorded_and_names_the_solution_only_where_there_is_one(self):
        self.fake.write("exercises/01_first/first.cl", "PASS\n")
        status, out, _ = self.fake.course("check", "01")
        self.assertEqual(status, 0)
        self.assertIn("recorded as passed. The reference solution is in solutions/01_first/.", out)
        self.assertIn("01 ", self.fake.read(".course/passed"))
        self.fake.write("exercises/02_second/second.cl", "PASS\n")
        os.rename(os.path.join(self.fake.root, "solutions"), os.path.join(self.fake.root, "elsewhere"))
        self.fake.stamp()
        out = self.fake.course("check", "02")[1]
        self.assertIn("Exercise 02 recorded as passed.", out)
        self.assertNotIn("solutions", out)  # a handout has none

    def test_check_from_another_folder_records_nothing(self):
        status, out, _ = self.fake.course("check", "01", "--from", "solutions")
        self.assertEqual(status, 0)
        self.assertIn("nothing is recorded", out)
        self.assertFalse(os.path.exists(os.path.join(self.fake.root, ".course", "passed")))
        status, _, err = self.fake.course("check", "01", "--from", "nowhere")
        self.assertEqual(status, 2)
        self.assertIn("there is no folder", err)

    def test_a_check_killed_by_a_signal_is_explained_and_exits_3(self):
        self.fake.write("exercises/02_second/second.cl", "SEGV\n")
        status, out, _ = self.fake.course("check", "02")
        self.assertEqual(status, 3)
        self.assertIn("killed by SIGSEGV while your kernel", out)
        self.assertIn("./course check 02 --verbose", out)
        self.assertTrue(all(len(line) <= 80 for line in out.splitlines()))
        self.assertFalse(os.path.exists(os.path.join(self.fake.root, ".course", "passed")))


if __name__ == "__main__":
    unittest.main()
