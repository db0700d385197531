"""What the commands share: the lessons' list, the exercises' content hash, atomic writes."""
import hashlib
import json
import os
import tempfile
import unittest

from cli import course
from cli.tests.fake_course import MANIFEST


class Manifest(unittest.TestCase):
    def test_every_numbered_line_is_a_lesson_with_its_fields(self):
        lessons = course.parse_manifest(MANIFEST)
        self.assertEqual([l.folder for l in lessons], ["01_first", "02_second", "03_third"])
        self.assertEqual(lessons[1].files, ["second.cl"])
        self.assertEqual(lessons[1].builds_on, ["01"])
        self.assertEqual(lessons[1].bench, ["conv2d"])
        self.assertEqual(lessons[0].name, "first")
        self.assertTrue(course.Lesson(["11", "11_x", "a.hpp"]).is_cpp())
        self.assertFalse(lessons[0].is_cpp())

    def test_the_manifest_configure_writes_holds_the_same_lessons(self):
        written = os.path.join(course.build_dir(), "manifest.json")
        if not os.path.isfile(written):
            self.skipTest("no build/manifest.json: the course is not configured")
        with open(written) as f:
            data = json.load(f)["lessons"]
        self.assertEqual(data, [lesson.as_data() for lesson in course.lessons()])

    def test_a_lesson_number_that_is_not_one_stops_with_exit_2(self):
        for wrong in ("x", "123", "99", "-1"):
            with self.assertRaises(course.Stop) as stop:
                course.lesson(wrong)
            self.assertEqual(stop.exception.code, 2)


class ContentHash(unittest.TestCase):
    def test_the_hash_covers_each_file_name_and_content_and_a_missing_file(self):
        folder = tempfile.mkdtemp()
        with open(os.path.join(folder, "a.cl"), "w") as f:
            f.write("kernel\n")
        lesson = course.Lesson(["01", "01_x", "a.cl b.cl"])
        expected = hashlib.sha256(b"a.cl\nkernel\nb.cl\nmissing\n").hexdigest()[:16]
        self.assertEqual(course.content_hash(lesson, folder), expected)

    def test_write_atomically_leaves_no_file_when_it_cannot_write(self):
        folder = tempfile.mkdtemp()
        path = os.path.join(folder, "sub", "x.txt")
        course.write_atomically(path, "text")
        with open(path) as f:
            self.assertEqual(f.read(), "text")
        with self.assertRaises(course.Stop):
            course.write_atomically(os.path.join(path, "under-a-file"), "text")
        self.assertEqual(os.listdir(os.path.dirname(path)), ["x.txt"])

    def test_lines_around_is_grep_with_context(self):
        folder = tempfile.mkdtemp()
        path = os.path.join(folder, "log")
        with open(path, "w") as f:
            f.write("a\nb\nerror one\nc\nd\ne\nf\nerror two\n")
        self.assertEqual(course.lines_around(path, "error", 1, 1, 10), ["b", "error one", "c", "--", "f", "error two"])


if __name__ == "__main__":
    unittest.main()
