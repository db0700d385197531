"""./course list: a line a lesson, its exercise passed, changed since it passed, or not yet."""
import unittest

from cli.tests.fake_course import FakeCourseTest


class List(FakeCourseTest):
    def test_list_follows_a_pass_and_an_edit_after_it(self):
        status, out, _ = self.fake.course("list")
        self.assertEqual(status, 0)
        self.assertEqual(out.splitlines()[0], "  NN  lesson                       exercise")
        self.assertRegex(out, r"\n  01  first +not yet: ./course check 01, ./course hint 01\n")
        self.assertRegex(out, r"\n  03  third +-\n")
        self.fake.write("exercises/01_first/first.cl", "PASS\n")
        status, out, _ = self.fake.course("check", "01")
        self.assertEqual(status, 0, out)
        self.assertRegex(self.fake.course("list")[1], r"\n  01  first +passed\n")
        self.fake.write("exercises/01_first/first.cl", "PASS\n// an edit\n")
        self.assertRegex(self.fake.course("list")[1], r"\n  01  first +changed since it passed: ./course check 01\n")
        self.assertFits80(self.fake.course("list")[1])


if __name__ == "__main__":
    unittest.main()
