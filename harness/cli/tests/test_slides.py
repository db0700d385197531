"""./course slides: what the browser's check reports about each slide."""
import os
import tempfile
import unittest

from cli import slides


class BrowserCheck(unittest.TestCase):
    def fake_browser(self, dom):
        folder = tempfile.mkdtemp()
        path = os.path.join(folder, "browser")
        with open(path, "w") as f:
            f.write("#!/bin/sh\ncat <<'DOM'\n" + dom + "\nDOM\n")
        os.chmod(path, 0o755)
        return path

    def test_the_slide_count_and_each_slide_that_overflows_are_read_from_the_page(self):
        browser = self.fake_browser('<body><pre id="slide-check">SLIDES 14\nOVERFLOW 3 "Tiles" 812 px tall\n'
                                    'OVERFLOW 9 "Table" 1400 px wide</pre></body>')
        self.assertEqual(slides.check_in_browser(browser, "/x.html"),
                         (14, ['    3 "Tiles" 812 px tall', '    9 "Table" 1400 px wide']))

    def test_a_page_where_the_check_did_not_run_gives_no_count(self):
        self.assertEqual(slides.check_in_browser(self.fake_browser("<body></body>"), "/x.html"), (None, []))

    def test_slides_are_the_second_level_headings(self):
        self.assertEqual(slides.count_slides("## One\ntext\n### not\n## Two\n"), 2)


if __name__ == "__main__":
    unittest.main()
