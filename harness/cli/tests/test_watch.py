"""./course watch: without a terminal it checks once; the next exercise and the progress bar."""
import unittest

from cli.tests.fake_course import FakeCourseTest


class Watch(FakeCourseTest):
    def test_without_a_terminal_watch_checks_the_first_exercise_not_passed_once(self):
        self.fake.write("exercises/01_first/first.cl", "PASS\n")
        self.assertEqual(self.fake.course("check", "01")[0], 0)
        status, out, _ = self.fake.course("watch")
        self.assertEqual(status, 1)
        self.assertIn("Exercise 02 fails", out)
        self.assertEqual(self.fake.course("watch", "01")[0], 0)


if __name__ == "__main__":
    unittest.main()
