"""./course hint NN: the task, then a hint each time, then where the whole text is."""
import unittest

from cli import hint
from cli.tests.fake_course import FakeCourseTest, EXERCISE_MD


class Sections(unittest.TestCase):
    def test_the_task_is_what_stands_before_the_first_hint(self):
        task, hints = hint.sections(EXERCISE_MD.format(n="01"))
        self.assertEqual(task, ["# Exercise 01", "The task of 01.", ""])
        self.assertEqual([h[0] for h in hints], ["## Hint 1", "## Hint 2"])


class Hint(FakeCourseTest):
    def test_the_task_then_a_hint_each_time_then_the_pointer_to_the_whole_text(self):
        status, out, _ = self.fake.course("hint", "01")
        self.assertEqual(status, 0)
        self.assertIn("The task of 01.", out)
        self.assertNotIn("First hint", out)
        self.assertIn("exercises/01_first/README.md", out)
        out = self.fake.course("hint", "01")[1]
        self.assertNotIn("The task", out)
        self.assertIn("First hint of 01.", out)
        self.assertIn("(1 more: ./course hint 01)", out)
        out = self.fake.course("hint", "1")[1]
        self.assertNotIn("The task", out)
        self.assertIn("Second hint of 01.", out)
        self.assertIn("That was the last hint", out)
        out = self.fake.course("hint", "01")[1]
        self.assertIn("You have seen all 2 hints", out)
        self.assertIn("lessons/01_first/exercise.md", out)

    def test_a_lesson_without_an_exercise_or_no_number_exits_2(self):
        self.assertEqual(self.fake.course("hint", "03")[0], 2)
        self.assertEqual(self.fake.course("hint")[0], 2)
        status, _, err = self.fake.course("hint", "42")
        self.assertEqual((status, err), (2, "course: there is no lesson 42; './course list' shows the lessons\n"))


if __name__ == "__main__":
    unittest.main()
