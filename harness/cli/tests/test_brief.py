"""A lesson's output read back, and cut for a room by --brief: its tables, three lines of notes."""
import unittest

from cli import brief
from cli.tests.fake_course import FakeCourseTest

OUTPUT = """Device: Fake CPU
Built lesson.cl in 12.0 ms

Lesson 02: naive convolution, 131x67
  variant             kernel ms  speed-up  verified
  -------------------------------------------------
  naive                 0.3697+               yes
  swapped_axes          0.3852+    0.96x~      yes
    + moves no more than the 480.0 MiB last-level cache holds: it times the
      cache, not memory
    speed-up = kernel ms of naive / kernel ms of the row
    ~ swapped_axes against naive: the difference is within the spread of the
      timed runs
the table as a bar chart: out/02/ladder.svg

Lesson 02, pass by pass
  variant             kernel ms  verified
  ---------------------------------------
  rows                  0.1000    yes
  - [0] device          0.1000
    one note of the second table
Wrote out/02/naive.png
"""


class Tables(unittest.TestCase):
    def test_each_table_has_its_title_rows_and_notes(self):
        first, second = brief.tables(OUTPUT)
        self.assertEqual(first.title, "Lesson 02: naive convolution, 131x67")
        self.assertEqual([r.split()[0] for r in first.rows], ["naive", "swapped_axes"])
        self.assertEqual([len(note) for note in first.notes], [2, 1, 2])
        self.assertEqual(second.rows[-1].split()[:2], ["-", "[0]"])
        self.assertEqual(second.notes, [["    one note of the second table"]])
        self.assertEqual(brief.tables("no table\n"), [])

    def test_the_fastest_verified_row_is_read_from_the_tables(self):
        self.assertEqual(brief.fastest_row(OUTPUT), "fastest: rows 0.1000 ms")


class Brief(unittest.TestCase):
    def test_the_tables_stay_and_three_lines_of_notes_at_most(self):
        cut = brief.brief(OUTPUT, "./course run 02").splitlines()
        for line in brief.tables(OUTPUT)[0].lines() + brief.tables(OUTPUT)[1].lines():
            self.assertIn(line, cut)
        notes = [line for line in cut if line.startswith("    ")]
        self.assertEqual(len(notes), 3, cut)
        self.assertEqual(notes[-1], "    (4 more lines of notes: ./course run 02 prints them)")
        self.assertTrue(notes[0].startswith("    + moves"))  # whole notes, in the order printed
        for gone in ("Device:", "Built", "bar chart", "Wrote"):
            self.assertNotIn(gone, "\n".join(cut))
        self.assertTrue(all(len(line) <= 80 for line in cut))

    def test_notes_that_fit_are_all_kept(self):
        short = OUTPUT.replace("    speed-up = kernel ms of naive / kernel ms of the row\n", "").replace(
            "    ~ swapped_axes against naive: the difference is within the spread of the\n      timed runs\n", "")
        cut = brief.brief(short, "./course run 02")
        self.assertIn("      cache, not memory\n    one note of the second table", cut)
        self.assertNotIn("more lines of notes", cut)

    def test_an_output_without_a_table_is_not_cut(self):
        self.assertIsNone(brief.brief("Device: Fake\nno table here\n", "./course run 02"))


LESSON = "#!/bin/sh\ncat <<'END'\n" + OUTPUT + "END\nexit {status}\n"


class Commands(FakeCourseTest):
    def test_run_brief_shows_the_tables_and_keeps_the_exit_status(self):
        self.fake.write("build/lessons/lesson_02", LESSON.format(status=0), executable=True)
        status, out, _ = self.fake.course("run", "2", "--brief")
        self.assertEqual(status, 0, out)
        self.assertIn("  swapped_axes          0.3852+", out)
        self.assertNotIn("Wrote out/02/naive.png", out)
        self.assertIn("(4 more lines of notes: ./course run 02 without --brief prints them)", out)

    def test_a_lesson_that_does_not_verify_shows_everything(self):
        self.fake.write("build/lessons/lesson_02", LESSON.format(status=1), executable=True)
        status, out, _ = self.fake.course("run", "2", "--brief")
        self.assertEqual(status, 1)
        self.assertIn("Wrote out/02/naive.png", out)
        self.assertNotIn("more lines of notes", out)

    def test_the_tour_brief_cuts_each_lesson_and_sums_up(self):
        self.fake.write("build/bin/course-devices", "#!/bin/sh\nexit 0\n", executable=True)
        for n in ("01", "02", "03"):
            self.fake.write(f"build/lessons/lesson_{n}", LESSON.format(status=0), executable=True)
        status, out, _ = self.fake.course("tour", "--brief")
        self.assertEqual(status, 0, out)
        self.assertEqual(out.count("(4 more lines of notes: ./course run 03 prints them)"), 1)
        self.assertNotIn("Built lesson.cl", out)
        self.assertRegex(out, r"\n  02 second +verified +[0-9.]+  rows 0.1000\n")


if __name__ == "__main__":
    unittest.main()
