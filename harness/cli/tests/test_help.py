"""./course help, ./course COMMAND --help and a mistyped command."""
import unittest

from cli import commands
from cli.tests.fake_course import FakeCourseTest


class HelpTable(unittest.TestCase):
    def test_every_line_of_help_fits_80_columns(self):
        lines = commands.usage().splitlines() + [line for c in commands.COMMANDS
                                                 for line in commands.command_help(c.name).splitlines()]
        self.assertEqual([line for line in lines if len(line) > 80], [])

    def test_help_lists_every_command_once_under_its_section(self):
        text = commands.usage()
        for c in commands.COMMANDS:
            self.assertEqual(sum(line.split()[:1] == [c.name] for line in text.splitlines()), 1, c.name)
        self.assertIn("\nTeaching:\n", text)
        self.assertIn("  run NN               run lesson NN", text)
        self.assertIn("  watch [NN]           check an exercise", text)

    def test_a_command_help_is_its_usage_line_then_its_text(self):
        text = commands.command_help("reset")
        self.assertTrue(text.startswith("usage: ./course reset NN [--yes]\nPuts exercises/NN_*/ back"), text)
        self.assertIsNone(commands.command_help("nosuch"))

    def test_distance_counts_a_swap_of_neighbours_as_one_edit(self):
        self.assertEqual(commands.distance("chekc", "check"), 1)
        self.assertEqual(commands.distance("chek", "check"), 1)
        self.assertEqual(commands.distance("", "abc"), 3)
        self.assertEqual(commands.nearest("tuor", ["tour", "test"]), "tour")
        self.assertIsNone(commands.nearest("xyzzy", ["tour", "test"]))


class HelpCommand(FakeCourseTest):
    def test_help_and_command_help_exit_0(self):
        status, out, _ = self.fake.course("help")
        self.assertEqual(status, 0)
        self.assertTrue(out.startswith("usage: ./course COMMAND [arguments]"))
        status, out, _ = self.fake.course("grade", "--help")
        self.assertEqual(status, 0)
        self.assertIn("--roster DIR", out)
        status, out, _ = self.fake.course("run", "--help")
        self.assertEqual((status, out.splitlines()[0]), (0, "usage: ./course run NN [--brief] [options]"))

    def test_a_mistyped_command_names_the_nearest_on_the_first_line_and_exits_2(self):
        status, out, err = self.fake.course("chek")
        self.assertEqual(status, 2)
        self.assertEqual(err.splitlines()[0], "course: unknown command 'chek'; did you mean 'check'? "
                                              "('./course help' lists the commands)")
        status, _, err = self.fake.course("zzzzzz")
        self.assertNotIn("did you mean", err)


if __name__ == "__main__":
    unittest.main()
