"""./course slides: the decks are built by harness/slides/build_slides.py."""
import os
import unittest

from cli import slides
from cli.course import ROOT


class SlidesTest(unittest.TestCase):
    def test_the_builder_gets_the_lessons_and_the_build_folder(self):
        cmd = slides.command(["03", "--no-check"])
        self.assertEqual(cmd[1], os.path.join(ROOT, "harness", "slides", "build_slides.py"))
        self.assertTrue(os.path.isfile(cmd[1]))
        self.assertEqual(cmd[-2:], ["03", "--no-check"])
        self.assertIn("--out", cmd)
        self.assertTrue(cmd[cmd.index("--out") + 1].endswith(os.path.join("", "slides")))


if __name__ == "__main__":
    unittest.main()
