"""./course tour: every lesson, then a summary within 80 columns."""
import unittest

from cli import brief, tour
from cli.tests.fake_course import FakeCourseTest

TABLE = """
  variant  kernel ms  verified
  -------  ---------  --------
  naive         2.50  yes
  tiled_with_a_very_long_name_indeed  1.25  yes
  broken        0.10  no

  other text
"""


class Summary(unittest.TestCase):
    def test_the_fastest_verified_row_is_named_and_shortened(self):
        self.assertEqual(brief.fastest_row(TABLE), "fastest: tiled_with_a_very_long... 1.25 ms")
        self.assertEqual(brief.fastest_row("no table\n"), "")

    def test_a_marked_time_counts_and_keeps_its_mark(self):
        marked = TABLE.replace("2.50", "2.50+").replace("1.25  yes", "0.90*+  yes")
        self.assertEqual(brief.fastest_row(marked), "fastest: tiled_with_a_very_long... 0.90*+ ms")

    def test_a_summary_line_fits_80_columns(self):
        line = tour.summary_line("05", "unrolling_and_work_per_item_and_more", "NOT VERIFIED", "123.4",
                                 "fastest: tiled_with_a_very_long... 1.25 ms")
        self.assertLessEqual(len(line), 80)
        self.assertTrue(line.endswith("~ 1.25"), line)


class Tour(FakeCourseTest):
    def test_tour_runs_each_lesson_and_sums_up(self):
        self.fake.write("build/bin/course-devices", "#!/bin/sh\nexit 0\n", executable=True)
        for n, status in (("01", 0), ("02", 77), ("03", 0)):
            self.fake.write(f"build/lessons/lesson_{n}", f"#!/bin/sh\necho '{TABLE}'\nexit {status}\n", executable=True)
        status, out, _ = self.fake.course("tour")
        self.assertEqual(status, 0, out)
        self.assertIn("================ Lesson 02: second ================", out)
        self.assertRegex(out, r"\n  01 first +verified +[0-9.]+  tiled_with_a_ver~ 1.25\n")
        self.assertRegex(out, r"\n  02 second +skipped .*\(device lacks it\)\n")
        self.assertIn("Every lesson verified its result.", out)

    def test_a_device_that_matches_nothing_stops_the_tour_before_any_lesson(self):
        self.fake.write("build/bin/course-devices", "#!/bin/sh\necho 'no device' >&2\nexit 2\n", executable=True)
        status, out, _ = self.fake.course("tour", "--device", "nosuch")
        self.assertEqual(status, 2)
        self.assertNotIn("Lesson 01", out)
        self.assertEqual(self.fake.course("tour", "--bogus")[0], 2)


if __name__ == "__main__":
    unittest.main()
